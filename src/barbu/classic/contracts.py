"""Contracts as tables of scoring parts.

A contract is not code but data: points per trick, points per card taken,
points for the last tricks, points by finishing order, a Ravage City part.
A Salad or a Scottish combination deal is several parts at once.  The early
end falls out of the parts: a deal whose only parts are card points is decided
once no penalty card is left in any hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TypedDict

from ..core.cards import ACE, CARDS, HEARTS, JACK, KING, QUEEN, SEVEN, SUIT_MASK, rank_mask
from ..core.words import N_

TRICKS = "tricks"
DOMINO = "domino"
CHINESE = "chinese"


@dataclass(frozen=True)
class Contract:
    """One contract and how it scores."""

    key: str
    name: str
    kind: str = TRICKS
    positive: bool = False
    per_trick: int = 0
    card_points: tuple[tuple[int, int], ...] = ()
    last_tricks: tuple[int, ...] = ()  # points of the last len(...) tricks, last one last
    finishing: tuple[int, ...] = ()
    ravage: int = 0  # points for most cards taken in one suit, split between ties
    trump: bool = False  # the declarer names a trump suit
    heart_ban: bool = False  # the heart-lead option applies
    open_any: bool = False  # Success: the first card is free and sets the row rank
    ace_again: bool = False  # Success: whoever plays an ace may play one more card at once
    ends_after: int = 0  # Domino-like deals end when this many players are out (0: when one is left)
    needs_in_play: int = 0  # cards that must not be set aside for this contract to be chosen
    help: str = ""
    parts: tuple[str, ...] = ()  # Scottish: the calls played at once in this deal (one column each)
    fixed_rank: int | None = None  # Patience: rows always start from this rank (nobody names it)
    penalty_mask: int = field(default=0, init=False, compare=False)
    card_value: dict[int, int] = field(default_factory=dict, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        mask = 0
        for card, _ in self.card_points:
            mask |= 1 << card
        object.__setattr__(self, "penalty_mask", mask)
        object.__setattr__(self, "card_value", dict(self.card_points))

    @property
    def decided_by_cards(self) -> bool:
        """True when only card points score, so the deal can stop once they are all taken."""
        return (
            self.kind == TRICKS
            and bool(self.card_points)
            and not self.per_trick
            and not self.last_tricks
            and not self.ravage
        )

    @property
    def fixed_total(self) -> bool:
        """False for Chinese poker, whose table total depends on the rows won."""
        return self.kind != CHINESE

    def total(self, players: int, tricks: int, deck: int) -> int:
        """The table total of this contract's points, before doubles.  ``deck`` is the cards in play.
        (Meaningless for Chinese poker: see `fixed_total`.)"""
        t = self.per_trick * tricks
        t += sum(p for c, p in self.card_points if deck >> c & 1)
        t += sum(self.last_tricks)
        t += sum(self.finishing[:players])
        t -= self.ravage
        return t

    def __str__(self) -> str:
        return self.key


def hearts_points(ace: int, other: int) -> tuple[tuple[int, int], ...]:
    """Card points for a No hearts contract: the ace apart, the other hearts alike."""
    return tuple((HEARTS * 13 + r, ace if r == ACE else other) for r in range(13))


def italian_hearts_points() -> tuple[tuple[int, int], ...]:
    """Italian Hearts: A K Q J 10 cost 4 each, the other hearts 2 (36 in all)."""
    return tuple((HEARTS * 13 + r, -4 if r >= 8 else -2) for r in range(13))


def queens_points(each: int) -> tuple[tuple[int, int], ...]:
    m = rank_mask(QUEEN)
    return tuple((c, each) for c in CARDS if m >> c & 1)


KING_OF_HEARTS = HEARTS * 13 + KING
HEARTS_MASK = SUIT_MASK[HEARTS]


def classic_contracts(
    ravage_city: bool = False, ravage_value: int = 24, chinese_poker: bool = False
) -> tuple[Contract, ...]:
    """The seven contracts of seed 001, with Ravage City (and its rebalanced values) and Chinese poker."""
    r = ravage_city
    out = [
        Contract("no-tricks", "No tricks", per_trick=-3 if r else -2, help=N_("Each trick you take costs points.")),
        Contract(
            "no-hearts",
            "No hearts",
            card_points=hearts_points(-6, -2),
            heart_ban=True,
            help=N_(
                "Each heart you take costs points, the ace most. Hearts may not be led while you hold another suit."
            ),
        ),
        Contract(
            "no-queens",
            "No queens",
            card_points=queens_points(-8 if r else -6),
            help=N_("Each queen you take costs points."),
        ),
        Contract(
            "no-king",
            "No King of hearts",
            card_points=((KING_OF_HEARTS, -21 if r else -20),),
            heart_ban=True,
            help=N_("Whoever takes the King of hearts pays. Hearts may not be led while you hold another suit."),
        ),
        Contract(
            "no-last-two",
            "No last two",
            last_tricks=(-10, -20),
            help=N_("The second-to-last trick and the last trick cost points."),
        ),
        Contract(
            "trumps",
            "Trumps",
            positive=True,
            per_trick=7 if r else 5,
            trump=True,
            help=N_(
                "The declarer names trumps; each trick you take scores. Trumps must head the trick; "
                "a void player must trump or overtrump."
            ),
        ),
        Contract(
            "domino",
            "Domino",
            kind=DOMINO,
            positive=True,
            finishing=(50, 25, 10, 0) if r else (45, 20, 5, -5),
            help=N_("Build rows in each suit from the starting rank; first out scores most. Pass only when unable."),
        ),
    ]
    if r:
        out.append(
            Contract(
                "ravage-city",
                "Ravage City",
                ravage=ravage_value,
                help=N_("Whoever takes the most cards of any one suit pays; ties share the cost."),
            )
        )
    if chinese_poker:
        out.append(
            Contract(
                "chinese-poker",
                "Chinese poker",
                kind=CHINESE,
                positive=True,
                help=N_(
                    "Arrange your 13 cards into rows of 5, 5 and 3, back >= middle >= front; "
                    "+4 for each row that beats another player's."
                ),
            )
        )
    return tuple(out)


def italian_contracts(six: bool = False) -> tuple[Contract, ...]:
    """Seed 002: the seven Italian contracts, or the six of "Barbù a sei colpi" (no Atout)."""
    if six:
        return (
            Contract(
                "no-king",
                "King of hearts",
                card_points=((KING_OF_HEARTS, -100),),
                heart_ban=True,
                help=N_("Whoever takes the King of hearts pays 100."),
            ),
            Contract(
                "no-hearts",
                "Hearts",
                card_points=hearts_points(-10, -10),
                heart_ban=True,
                help=N_("Each heart taken costs 10."),
            ),
            Contract("no-queens", "Queens", card_points=queens_points(-20), help=N_("Each queen taken costs 20.")),
            Contract(
                "no-last-two",
                "Last two",
                last_tricks=(-50, -50),
                help=N_("The second-to-last and the last trick cost 50 each."),
            ),
            Contract("no-tricks", "Misère", per_trick=-10, help=N_("Each trick taken costs 10.")),
            Contract(
                "domino",
                "Domino",
                kind=DOMINO,
                positive=True,
                finishing=(60, 40, 0, 0),
                help=N_("First out scores 60, second 40."),
            ),
        )
    return (
        Contract(
            "no-king",
            "King of hearts",
            card_points=((KING_OF_HEARTS, -20),),
            heart_ban=True,
            help=N_("Whoever takes the King of hearts pays 20. Hearts may not be led while you hold another suit."),
        ),
        Contract(
            "no-hearts",
            "Hearts",
            card_points=italian_hearts_points(),
            heart_ban=True,
            help=N_("A K Q J 10 of hearts cost 4 each, the other hearts 2."),
        ),
        Contract("no-queens", "Queens", card_points=queens_points(-6), help=N_("Each queen taken costs 6.")),
        Contract(
            "no-last-two",
            "Last two",
            last_tricks=(-12, -12),
            help=N_("The second-to-last and the last trick cost 12 each."),
        ),
        Contract("no-tricks", "Misère", per_trick=-2, help=N_("Each trick taken costs 2.")),
        Contract(
            "trumps",
            "Atout",
            positive=True,
            per_trick=5,
            trump=True,
            help=N_(
                "The dealer names trumps or no-trump; each trick scores 5. A void player must trump and "
                "overtrump when he can; no duty to under-trump or to head a trump lead."
            ),
        ),
        Contract(
            "domino",
            "Domino",
            kind=DOMINO,
            positive=True,
            finishing=(45, 20, 10, -10),
            help=N_("Build rows from the starting rank, ace after king; 45/20/10/-10 by finishing order."),
        ),
    )


def salad_contracts() -> tuple[Contract, ...]:
    """Seed 001's Salad variant: five negative contracts and all five at once."""
    queens = queens_points(-20)
    king = ((KING_OF_HEARTS, -50),)
    return (
        Contract("no-tricks", "No tricks", per_trick=-5, help=N_("Each trick costs 5.")),
        Contract("no-last-trick", "No last trick", last_tricks=(-30,), help=N_("The last trick costs 30.")),
        Contract(
            "no-hearts",
            "No hearts",
            card_points=hearts_points(-10, -10),
            heart_ban=True,
            help=N_("Each heart costs 10."),
        ),
        Contract("no-queens", "No queens", card_points=queens, help=N_("Each queen costs 20.")),
        Contract(
            "no-king", "No King of hearts", card_points=king, heart_ban=True, help=N_("The King of hearts costs 50.")
        ),
        Contract(
            "salad",
            "Salad",
            per_trick=-5,
            last_tricks=(-30,),
            card_points=_merge_points(hearts_points(-10, -10), queens, king),
            heart_ban=True,
            help=N_("All five at once: tricks, last trick, hearts, queens and the King of hearts."),
        ),
    )


def _merge_points(*parts: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Card points of several contracts added together (the Q and K of hearts count twice in Salad)."""
    total: dict[int, int] = {}
    for part in parts:
        for card, points in part:
            total[card] = total.get(card, 0) + points
    return tuple(sorted(total.items()))


def french_contracts() -> tuple[Contract, ...]:
    """Seed 000, the Marie-Luce rules: penalty points (lowest total wins) and Success."""
    hearts = hearts_points(10, 10)
    queens = queens_points(25)
    king = ((KING_OF_HEARTS, 100),)
    return (
        Contract(
            "no-king",
            "King of hearts",
            card_points=king,
            heart_ban=True,
            needs_in_play=1 << KING_OF_HEARTS,
            help=N_("Whoever takes the King of hearts scores 100. No heart may be led to the first trick."),
        ),
        Contract("no-queens", "Queens", card_points=queens, help=N_("25 for each queen taken.")),
        Contract(
            "no-hearts",
            "Hearts",
            card_points=hearts,
            heart_ban=True,
            help=N_("10 for each heart taken. No heart may be led to the first trick."),
        ),
        Contract("no-tricks", "Tricks", per_trick=10, help=N_("10 for each trick taken.")),
        Contract("no-last-trick", "Last trick", last_tricks=(100,), help=N_("100 for the last trick.")),
        Contract(
            "salad",
            "Salad",
            per_trick=10,
            last_tricks=(100,),
            card_points=_merge_points(hearts, queens, king),
            heart_ban=True,
            help=N_("All five at once (a Q of hearts costs 25 + 10, the King 100 + 10)."),
        ),
        Contract(
            "success",
            "Success",
            kind=DOMINO,
            positive=True,
            finishing=(-100, -50),
            open_any=True,
            ace_again=True,
            ends_after=2,
            help=N_(
                "The chooser opens with any card; build rows from its rank; play if you can; an ace "
                "lets you play again. The first out scores -100, the second -50."
            ),
        ),
    )


# -- the Scottish 32-card game (seed 004) ---------------------------------------

#: The five negative calls in the booklet's (and the scoresheet's) order.
SCOTTISH_NEGATIVES = ("aces", "king", "queens", "hearts", "tricks")
#: The seven calls of a Round: the scoresheet's seven columns.
SCOTTISH_CALLS = SCOTTISH_NEGATIVES + ("patience-1", "patience-2")
SCOTTISH_CALL_NAMES = {
    "aces": "Aces",
    "king": "King of hearts",
    "queens": "Queens",
    "hearts": "Hearts",
    "tricks": "Tricks",
    "patience-1": "Patience 1",
    "patience-2": "Patience 2",
}
PATIENCE_PLACES = (120, 60, 30, 0)


class CallParts(TypedDict, total=False):
    """The scoring parts of one Scottish negative call, as `Contract` fields."""

    card_points: tuple[tuple[int, int], ...]
    per_trick: int


def scottish_call_points() -> dict[str, CallParts]:
    """The scoring parts of each negative call on the 32-card deck (7 to A)."""
    return {
        "aces": CallParts(card_points=tuple((s * 13 + ACE, -20) for s in range(4))),
        "king": CallParts(card_points=((KING_OF_HEARTS, -100),)),
        "queens": CallParts(card_points=tuple((s * 13 + QUEEN, -15) for s in range(4))),
        "hearts": CallParts(card_points=tuple((HEARTS * 13 + r, -30 if r == JACK else -10) for r in range(SEVEN, 13))),
        "tricks": CallParts(per_trick=-10),
    }


SCOTTISH_HELP = {
    "aces": N_("Each ace taken costs 20."),
    "king": N_("Whoever takes the King of hearts pays 100."),
    "queens": N_("Each queen taken costs 15."),
    "hearts": N_("Each heart taken costs 10, the Jack of hearts 30."),
    "tricks": N_("Each trick taken costs 10."),
}


#: A Scottish group's help: its calls' own help, one after the other (barbu.i18n.contract_help words it anew).
ALL_AT_ONCE = N_("All at once: {rules}")


def scottish_group_key(parts: "tuple[str, ...] | list[str]") -> str:
    """The contract key of a group of negative calls, in the booklet's order: ``king+queens``."""
    return "+".join(k for k in SCOTTISH_NEGATIVES if k in parts)


def scottish_contracts() -> tuple[Contract, ...]:
    """Seed 004: every group of negative calls (31 of them, one call to The Lot) and the two Patiences.

    A combination deal is one contract whose parts are its calls: the card points
    add up (the ace of hearts costs 20 + 10 when Aces and Hearts are played at once),
    and the scoresheet splits the deal's points back into one column per call.
    """
    table = scottish_call_points()
    out = []
    for k in range(1, 6):
        for group in combinations(SCOTTISH_NEGATIVES, k):
            per_trick = sum(table[c].get("per_trick", 0) for c in group)
            points = _merge_points(*(table[c].get("card_points", ()) for c in group))
            if k == 1:
                name = SCOTTISH_CALL_NAMES[group[0]]
            elif k == 5:
                name = "The Lot"
            else:
                name = " + ".join(SCOTTISH_CALL_NAMES[c] for c in group)
            help_ = " ".join(SCOTTISH_HELP[c] for c in group)
            out.append(
                Contract(
                    scottish_group_key(group),
                    name,
                    per_trick=per_trick,
                    card_points=points,
                    parts=group,
                    help=help_ if k == 1 else ALL_AT_ONCE.format(rules=help_),
                )
            )
    out.append(
        Contract(
            "patience",
            "Patience",
            kind=DOMINO,
            positive=True,
            finishing=PATIENCE_PLACES,
            fixed_rank=JACK,
            parts=("patience",),
            help=N_(
                "Open a row with a Jack; build up (Q K A) and down (10 9 8 7) in suit, or lay "
                "another Jack; chap when you cannot. 120/60/30/0 by finishing order."
            ),
        )
    )
    out.append(
        Contract(
            "double-patience",
            "Double Patience",
            kind=DOMINO,
            positive=True,
            finishing=tuple(2 * p for p in PATIENCE_PLACES),
            fixed_rank=JACK,
            parts=("patience", "patience"),
            help=N_("Both Patiences at once: each place scores twice (240/120/60/0)."),
        )
    )
    return tuple(out)


CONTRACT_ALIASES = {
    "nt": "no-tricks",
    "notricks": "no-tricks",
    "tricks": "no-tricks",
    "nullo": "no-tricks",
    "nh": "no-hearts",
    "nohearts": "no-hearts",
    "hearts": "no-hearts",
    "nq": "no-queens",
    "noqueens": "no-queens",
    "queens": "no-queens",
    "nk": "no-king",
    "noking": "no-king",
    "king": "no-king",
    "barbu": "no-king",
    "no-king-of-hearts": "no-king",
    "nl": "no-last-two",
    "nolasttwo": "no-last-two",
    "last-two": "no-last-two",
    "lasttwo": "no-last-two",
    "tr": "trumps",
    "trump": "trumps",
    "atout": "trumps",
    "dom": "domino",
    "do": "domino",
    "ravage": "ravage-city",
    "rc": "ravage-city",
    "chinese": "chinese-poker",
    "chipoker": "chinese-poker",
    "cp": "chinese-poker",
    "misere": "no-tricks",
    "misère": "no-tricks",
    "lasttrick": "no-last-trick",
    "last": "no-last-trick",
    "insalata": "salad",
    "kingofhearts": "no-king",
    "salade": "salad",
    "reussite": "success",
    "réussite": "success",
}


def score_tricks(
    contract: Contract, players: int, won: list[int], tricks_won: list[int], winners: list[int]
) -> list[int]:
    """Base points of a trick-taking deal, from the cards and tricks each player took."""
    scores = [0] * players
    if contract.per_trick:
        for s in range(players):
            scores[s] += contract.per_trick * tricks_won[s]
    if contract.card_points:
        values = contract.card_value
        pm = contract.penalty_mask
        for s in range(players):
            taken = won[s] & pm
            while taken:
                low = taken & -taken
                scores[s] += values[low.bit_length() - 1]
                taken ^= low
    if contract.last_tricks:
        k = len(contract.last_tricks)
        # The last tricks are the last ones of the whole deal; a deal stopped early never has them.
        for points, w in zip(contract.last_tricks, winners[-k:] if len(winners) >= k else []):
            scores[w] += points
    if contract.ravage:
        most = [max((won[s] & SUIT_MASK[x]).bit_count() for x in range(4)) for s in range(players)]
        top = max(most)
        losers = [s for s in range(players) if most[s] == top]
        share = contract.ravage // len(losers)
        for s in losers:
            scores[s] -= share
    return scores


def score_finishing(contract: Contract, order: list[int], players: int) -> list[int]:
    """Points by finishing order (Domino, Patience)."""
    scores = [0] * players
    for place, s in enumerate(order):
        if place < len(contract.finishing):
            scores[s] += contract.finishing[place]
    return scores
