"""Duplicate for people: matchpoints, the daily deals, events and the comparison with the computer.

The arena (`barbu.arena.duplicate`) compares computer players on the same cards; this package brings the
same fairness to people.  A *board* is one deal, dealt the same at every table that plays it; everyone who
held the same cards from the same seat of a board is compared with the others who did, by matchpoints.
"""
