"""The moderators' desk: players' reports, the moderators' actions on players, clubs and events, and their log."""
