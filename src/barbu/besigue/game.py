"""The Bésigue state machine (seed 003, RULES.md §6).

Flow of a game: chance draws the first dealer → chance shuffles → the deal
(non-dealer first, by threes; hand=8 by 3-2-3) → while the stock lasts:
a trick (no duty to follow) → its winner may declare one combination (or, with
seven=exchange, exchange or show the 7 of trumps) → both draw, winner first
(with seven=drawn a drawn 7 of trumps is shown at once and scores 10) → when
the last draw empties the stock, the winner of that trick may declare once
more ("a last round of combinations") → declared cards go back to hand and
the last tricks are played with the endgame duty → brisques and the last
(32nd) trick score → next deal with the other dealer, until a player reaches
the target at the end of a deal with the higher total (a tie plays another deal).

Readings worth knowing: one combination per trick won; a declaration needs at
least one card from the hand; declared cards stay on the table, playable, until
the stock is empty; of two identical cards the first played wins; the turn-up
is drawn last and scores nothing when drawn (the dealer scored it if a 7).
"""

from __future__ import annotations

import random
from typing import Any

from ..core import refusals as C
from ..core.errors import IllegalAction
from ..core.game import CHANCE
from . import refusals as R
from .actions import (
    BRISQUE_POINTS,
    LAST_TRICK_POINTS,
    MELD_NAMES,
    SEVEN_POINTS,
    Action,
    Declare,
    Exchange,
    FirstDealer,
    NoDeclaration,
    Play,
    Show,
    Shuffle,
    parse_action,
    slot_text,
)
from .cards import ACE, SEVEN, TEN, rank_of, suit_of, type_of
from .melds import legal_declarations, mark_class, marks_for, shape_problem
from .ruleset import BesigueRules
from .view import BesigueView, make_view

TRICKS_PER_DEAL = 32


def beats(card: int, lead: int, trump: int) -> bool:
    """Whether ``card`` played second beats the ``lead`` (identical cards: the first played wins)."""
    if suit_of(card) == suit_of(lead):
        return rank_of(card) > rank_of(lead)
    return suit_of(card) == trump


class BesigueGame:
    """A game of Bésigue between seats 0 and 1, with undo and exact replay."""

    n = 2

    def __init__(self, rules: BesigueRules | str | None = None, seed: int | None = None) -> None:
        if rules is None:
            rules = BesigueRules()
        elif isinstance(rules, str):
            rules = BesigueRules.parse(rules)
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self.keep_undo = True
        self.phase = "first-dealer"
        self.dealer = 0
        self.actor: int | None = CHANCE
        self.leader = 0
        self.last_winner = 0
        self.trump = 0
        self.turn_up: int | None = None
        self.hands: list[set[int]] = [set(), set()]
        self.table: list[dict[int, frozenset[str]]] = [{}, {}]
        self.melds: list[list[tuple[str, tuple[int, ...], int]]] = [[], []]
        self.stock: list[int] = []
        self.trick: list[tuple[int, int]] = []
        self.won: list[list[int]] = [[], []]
        self.played: list[tuple[int, int]] = []
        self.tricks = 0
        self.scores = [0, 0]
        self.totals = [0, 0]
        self.deal_no = 0
        self.shown: set[int] = set()
        self.revealed: list[set[int]] = [set(), set()]
        self.results: list[dict[str, Any]] = []
        self.log: list[tuple[int, str]] = []
        self.events: list[str] = []  # codes of what a deal showed ("turn-up-seven 1"), worded by front ends
        self._undo: list[tuple[Any, ...]] = []  # snapshots, one per action (_snapshot)

    # ------------------------------------------------------------ protocol
    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def to_act(self) -> int | None:
        """The seat to act, CHANCE for the dealer draw or the shuffle, None when the game is over."""
        return None if self.phase == "over" else self.actor

    def standings(self) -> list[tuple[int, int]]:
        return sorted(enumerate(self.totals), key=lambda p: -p[1])

    def seat_name(self, seat: int) -> str:
        return f"seat {seat}"

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def chance_action(self, rng: random.Random | None = None) -> Action:
        r = rng or self.rng
        if self.phase == "first-dealer":
            return FirstDealer(r.randrange(2))
        order = list(range(64))
        r.shuffle(order)
        return Shuffle(tuple(order))

    def play_chance(self) -> None:
        self.apply(self.chance_action())

    def sample_chance(self, rng: random.Random | None = None) -> Action:
        """The chance outcome due now, drawn from ``rng`` (a keyed stream at a public table)."""
        return self.chance_action(rng)

    @property
    def history(self) -> list[tuple[int, str]]:
        """Every action so far as (actor, text): its length numbers the next action (and chance node)."""
        return self.log

    def legal_actions(self) -> list[Action]:
        """Every action the actor may take now (identical copies in one place give one action)."""
        if self.phase in ("first-dealer", "shuffle", "over"):
            return []
        seat = self.actor
        assert seat is not None and seat >= 0
        if self.phase == "play":
            return self._legal_plays(seat)
        acts: list[Action] = [NoDeclaration()]
        acts += self._legal_declarations(seat)
        if self.rules.seven == "exchange":
            for c in sorted(self.hands[seat]):
                if type_of(c) == self.trump * 8 + SEVEN and c not in self.shown:
                    if self.turn_up is not None and self.stock and rank_of(self.turn_up) != SEVEN:
                        acts.append(Exchange(type_of(c)))
                    acts.append(Show(type_of(c)))
                    break
        return acts

    def apply(self, action: Action | str) -> None:
        """Play an action (or its text); IllegalAction says why it is refused and changes nothing."""
        if isinstance(action, str):
            action = parse_action(action)
        actor = self.actor
        self._check(action)
        if self.keep_undo:
            self._undo.append(self._snapshot())
        self.log.append((CHANCE if actor is None else actor, str(action)))
        if isinstance(action, FirstDealer):
            self.dealer = action.seat
            self.phase = "shuffle"
        elif isinstance(action, Shuffle):
            self._deal(action.order)
        elif isinstance(action, Play):
            self._play(actor, action)  # type: ignore[arg-type]
        else:
            self._declare(actor, action)  # type: ignore[arg-type]

    def undo(self) -> None:
        if not self._undo:
            raise IllegalAction.of(C.NOTHING_TO_UNDO)
        self._restore(self._undo.pop())
        self.log.pop()

    def clone(self) -> "BesigueGame":
        g = BesigueGame.__new__(BesigueGame)
        g.__dict__.update(self.__dict__)
        g._restore(self._snapshot())
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.log = list(self.log)
        g._undo = []
        return g

    def view(self, seat: int) -> BesigueView:
        return make_view(self, seat)

    # ------------------------------------------------------------ checks
    def _check(self, action: Action) -> None:
        if self.phase == "over":
            raise IllegalAction.of(C.MATCH_OVER)
        if isinstance(action, (FirstDealer, Shuffle)):
            want = "first-dealer" if isinstance(action, FirstDealer) else "shuffle"
            if self.phase != want:
                raise IllegalAction.of(R.FIRST_DEALER_NOT_DUE if want == "first-dealer" else R.SHUFFLE_NOT_DUE)
            return
        if self.actor == CHANCE:
            raise IllegalAction.of(R.BEING_DEALT)
        seat = self.actor
        assert seat is not None
        if isinstance(action, Play):
            if self.phase != "play":
                raise IllegalAction.of(R.MUST_DECLARE_NOT_PLAY, seat=seat)
            self._resolve_play(seat, action)
            return
        if self.phase == "play":
            raise IllegalAction.of(R.TIME_TO_PLAY)
        if isinstance(action, NoDeclaration):
            return
        if isinstance(action, (Exchange, Show)):
            if self.rules.seven != "exchange":
                raise IllegalAction.of(R.SEVEN_NOT_EXCHANGED)
            if action.card != self.trump * 8 + SEVEN:
                raise IllegalAction.of(R.NOT_TRUMP_SEVEN, card=action.card)
            if not any(type_of(c) == action.card and c not in self.shown for c in self.hands[seat]):
                raise IllegalAction.of(R.NO_UNSHOWN, card=action.card)
            if isinstance(action, Exchange):
                if not self.stock or self.turn_up is None:
                    raise IllegalAction.of(R.TURN_UP_DRAWN)
                if rank_of(self.turn_up) == SEVEN:
                    raise IllegalAction.of(R.TURN_UP_SEVEN)
            return
        assert isinstance(action, Declare)
        self._resolve_declare(seat, action)

    def _resolve_play(self, seat: int, action: Play) -> int:
        name = slot_text((action.card, action.from_table))
        if action.from_table:
            cands = [c for c in self.table[seat] if type_of(c) == action.card]
            if not cands:
                raise IllegalAction.of(R.NOT_DECLARED, card=action.card)
            card = max(cands, key=lambda c: (len(self.table[seat][c]), -c))
        else:
            cands = [c for c in self.hands[seat] if type_of(c) == action.card]
            if not cands:
                if any(type_of(c) == action.card for c in self.table[seat]):
                    raise IllegalAction.of(R.NOT_HELD_ON_TABLE, card=action.card, slot=name)
                raise IllegalAction.of(R.NOT_HELD, card=action.card)
            card = min(cands)
        if self.trick and not self.stock:
            legal = {(type_of(c), False) for c in self._endgame_cards(seat, self.trick[0][1])}
            if (action.card, False) not in legal:
                raise self._duty_reason(seat, self.trick[0][1])
        return card

    def _endgame_cards(self, seat: int, lead: int) -> list[int]:
        hand = sorted(self.hands[seat])
        follow = [c for c in hand if suit_of(c) == suit_of(lead)]
        if follow:
            if self.rules.endgame == "must_win":
                higher = [c for c in follow if beats(c, lead, self.trump)]
                return higher or follow
            return follow
        trumps = [c for c in hand if suit_of(c) == self.trump]
        return trumps or hand

    def _duty_reason(self, seat: int, lead: int) -> IllegalAction:
        hand = self.hands[seat]
        if any(suit_of(c) == suit_of(lead) for c in hand):
            if self.rules.endgame == "must_win" and any(
                beats(c, lead, self.trump) for c in hand if suit_of(c) == suit_of(lead)
            ):
                return IllegalAction.of(R.HEAD_THE_TRICK, suit=suit_of(lead))
            return IllegalAction.of(R.ENDGAME_FOLLOW, card=type_of(lead))
        return IllegalAction.of(R.ENDGAME_TRUMP)

    def _resolve_declare(self, seat: int, action: Declare) -> list[int]:
        kind = action.kind
        problem = shape_problem(kind, [t for t, _ in action.cards], self.trump)
        if problem:
            raise problem
        if all(on for _, on in action.cards):
            raise IllegalAction.of(R.DECLARE_FROM_HAND)
        cls = mark_class(kind)
        chosen: list[int] = []
        for t, on in action.cards:
            if on:
                cands = [c for c in self.table[seat] if type_of(c) == t and c not in chosen]
                ok = [c for c in cands if cls not in self.table[seat][c]]
                if not ok:
                    if cands:
                        meld = kind if cls != "marriage" else "marriage"
                        raise IllegalAction.of(R.ALREADY_SERVED, card=t, meld=meld, name=MELD_NAMES[meld])
                    raise IllegalAction.of(R.NOT_DECLARED, card=t)
                chosen.append(max(ok, key=lambda c: (len(self.table[seat][c]), -c)))
            else:
                cands = sorted(c for c in self.hands[seat] if type_of(c) == t and c not in chosen)
                if not cands:
                    raise IllegalAction.of(R.NOT_IN_HAND, card=t)
                chosen.append(cands[0])
        return chosen

    # ------------------------------------------------------------ moves
    def _legal_plays(self, seat: int) -> list[Action]:
        if self.trick and not self.stock:
            cards = self._endgame_cards(seat, self.trick[0][1])
        else:
            cards = sorted(self.hands[seat])
        acts = sorted({Play(type_of(c)) for c in cards})
        if self.stock or not self.trick:
            acts += sorted({Play(type_of(c), True) for c in self.table[seat]})
        return acts  # type: ignore[return-value]

    def _legal_declarations(self, seat: int) -> list[Action]:
        hand_counts: dict[int, int] = {}
        for c in self.hands[seat]:
            hand_counts[type_of(c)] = hand_counts.get(type_of(c), 0) + 1
        table_counts: dict[Any, int] = {}
        for c, marks in self.table[seat].items():
            for cls in ("marriage", "bezique", "double", "quint", "four"):
                if cls not in marks:
                    table_counts[(cls, type_of(c))] = table_counts.get((cls, type_of(c)), 0) + 1
        return list(legal_declarations(hand_counts, table_counts, self.trump))

    def _deal(self, order: tuple[int, ...]) -> None:
        self.deal_no += 1
        self.hands = [set(), set()]
        self.table = [{}, {}]
        self.melds = [[], []]
        self.trick, self.won, self.played = [], [[], []], []
        self.tricks = 0
        self.scores = [0, 0]
        self.shown = set()
        self.revealed = [set(), set()]
        self.events = []
        packets = (3, 3, 3) if self.rules.hand == 9 else (3, 2, 3)
        pos = 0
        first = 1 - self.dealer
        for size in packets:
            for seat in (first, self.dealer):
                self.hands[seat].update(order[pos : pos + size])
                pos += size
        self.stock = list(order[pos:])
        self.turn_up = self.stock[-1]
        self.trump = suit_of(self.turn_up)
        if rank_of(self.turn_up) == SEVEN:
            self.scores[self.dealer] += SEVEN_POINTS
            self.events.append(f"turn-up-seven {self.dealer}")  # a code: front ends word it, by place
        self.leader = first
        self.actor = first
        self.phase = "play"

    def _play(self, seat: int, action: Play) -> None:
        card = self._resolve_play(seat, action)
        if action.from_table:
            del self.table[seat][card]
        else:
            self.hands[seat].discard(card)
        self.revealed[seat].discard(card)
        self.trick.append((seat, card))
        self.played.append((seat, card))
        if len(self.trick) == 1:
            self.actor = 1 - seat
            return
        (s0, c0), (s1, c1) = self.trick
        winner = s1 if beats(c1, c0, self.trump) else s0
        self.won[winner] += [c0, c1]
        self.trick = []
        self.tricks += 1
        self.last_winner = self.leader = self.actor = winner
        if self.stock:
            self.phase = "declare"
        elif self.tricks >= TRICKS_PER_DEAL or not (self.hands[0] or self.hands[1]):
            self._end_deal()

    def _declare(self, seat: int, action: Action) -> None:
        if isinstance(action, Declare):
            cards = self._resolve_declare(seat, action)
            for c in cards:
                if c in self.hands[seat]:
                    self.hands[seat].discard(c)
                    self.table[seat][c] = frozenset()
                self.table[seat][c] = self.table[seat][c] | marks_for(action.kind, type_of(c))
                self.revealed[seat].discard(c)
            self.scores[seat] += action.value
            self.melds[seat].append((action.kind, tuple(cards), action.value))
        elif isinstance(action, Exchange):
            seven = min(c for c in self.hands[seat] if type_of(c) == action.card and c not in self.shown)
            assert self.turn_up is not None
            self.hands[seat].discard(seven)
            self.hands[seat].add(self.turn_up)
            self.revealed[seat].add(self.turn_up)
            self.stock[-1] = seven
            self.turn_up = seven
            self.shown.add(seven)
            self.scores[seat] += SEVEN_POINTS
        elif isinstance(action, Show):
            seven = min(c for c in self.hands[seat] if type_of(c) == action.card and c not in self.shown)
            self.shown.add(seven)
            self.revealed[seat].add(seven)
            self.scores[seat] += SEVEN_POINTS
        if self.phase == "declare":
            self._draw(seat)
        else:
            self._start_endgame()

    def _draw(self, winner: int) -> None:
        for seat in (winner, 1 - winner):
            card = self.stock.pop(0)
            self.hands[seat].add(card)
            if card == self.turn_up:
                self.turn_up = None
                self.revealed[seat].add(card)
            elif self.rules.seven == "drawn" and type_of(card) == self.trump * 8 + SEVEN:
                self.shown.add(card)
                self.revealed[seat].add(card)
                self.scores[seat] += SEVEN_POINTS
        if self.stock:
            self.phase = "play"
        else:
            self.phase = "last-declaration"
        self.actor = winner

    def _start_endgame(self) -> None:
        for seat in (0, 1):
            self.hands[seat].update(self.table[seat])
            self.table[seat] = {}
        self.phase = "play"
        self.actor = self.leader = self.last_winner

    def _end_deal(self) -> None:
        ranks = (ACE, TEN) if self.rules.brisques == "aces_and_tens" else (ACE,)
        brisques = [BRISQUE_POINTS * sum(1 for c in self.won[s] if rank_of(c) in ranks) for s in (0, 1)]
        for s in (0, 1):
            self.scores[s] += brisques[s]
        self.scores[self.last_winner] += LAST_TRICK_POINTS
        self.totals = [self.totals[s] + self.scores[s] for s in (0, 1)]
        self.results.append(
            {
                "deal": self.deal_no,
                "dealer": self.dealer,
                "scores": list(self.scores),
                "brisques": brisques,
                "last_trick": self.last_winner,
                "melds": [[(k, v) for k, _, v in self.melds[s]] for s in (0, 1)],
                "totals": list(self.totals),
            }
        )
        if max(self.totals) >= self.rules.target and self.totals[0] != self.totals[1]:
            self.phase = "over"
            self.actor = None
        else:
            self.dealer = 1 - self.dealer
            self.phase = "shuffle"
            self.actor = CHANCE

    # ------------------------------------------------------------ undo
    _FIELDS = ("phase", "dealer", "actor", "leader", "last_winner", "trump", "turn_up", "tricks", "deal_no")

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(getattr(self, f) for f in self._FIELDS),
            [set(h) for h in self.hands],
            [dict(t) for t in self.table],
            [list(m) for m in self.melds],
            list(self.stock),
            list(self.trick),
            [list(w) for w in self.won],
            list(self.played),
            list(self.scores),
            list(self.totals),
            set(self.shown),
            [set(r) for r in self.revealed],
            list(self.results),
            list(self.events),
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            fields,
            self.hands,
            self.table,
            self.melds,
            self.stock,
            self.trick,
            self.won,
            self.played,
            self.scores,
            self.totals,
            self.shown,
            self.revealed,
            self.results,
            self.events,
        ) = snap
        for f, v in zip(self._FIELDS, fields):
            setattr(self, f, v)

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        return 0 if self.totals[0] > self.totals[1] else 1


__all__ = ["BesigueGame", "CHANCE", "beats"]
