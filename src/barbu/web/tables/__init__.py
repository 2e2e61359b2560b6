"""The tables: the actor that owns a match, its clock, its computer players, the lobby."""
