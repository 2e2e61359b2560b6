"""Challenges (issue 45): a player asks one to three others to a table with the game, clock and rating he chose;
the table is made, with them seated, once every one of them has accepted (`barbu.web.challenges.service`)."""
