"""The phases of a Barbu-family match, one module each, stacked into `barbu.classic.match.Match`.

A deal runs draw → deal → contract → trump or starting rank → doubling → play
(tricks, Domino/Success rows or Chinese poker rows) → score, and each phase
hands over to the next.  So each phase's class stands on the classes of the
phases that follow it, and can call them without knowing what stands above:

    base.MatchState          the fields every phase reads and writes
    scoring.Scoring          a finished deal scored, doubles settled, the next deal set up
    tricks.TrickPlay         trick play (the hot path)          ┐
    layout.LayoutPlay        Domino and Success rows            ├ each stands on Scoring
    arranging.Arranging      Chinese poker rows                 ┘
    play.Play                the start of play, whichever kind it is
    doubling.Doubling        the doubling round
    declaring.Declaring      the contract, the trump suit, the starting rank
    dealing.Dealing          the draw for the first dealer, the deal, chance outcomes
    turns.Turns              whose turn it is and his legal actions, whatever the phase

`Match` stands on top: applying and parsing actions, undo, and the seats' views.  The Scottish game's match extends `Match` and overrides the
phases it plays its own way.
"""
