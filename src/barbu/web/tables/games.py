"""What the table actor needs of each game beyond the `barbu.core.game.Game` protocol.

The actor opens any game with `open_game` and plays it through the protocol
(`to_act`, `parse_action`, `apply`, `undo`, `sample_chance`, `view`); what a
connection is sent differs by game, and lives here: the Barbu family keeps
its own view JSON (`web.views`), Bésigue sends its view's ``to_dict()``.
`web_game` picks the adapter for a game.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, Sequence

from ...agents import make_agent
from ...classic.match import CHANCE, DEAL, Match
from ...core.cards import Card
from ...core.errors import BarbuError
from ...games import game_kind
from ..common.errors import WebError
from .refusals import NOT_HELD
from .views import CARD_PATTERN, contract_info, last_action, public_state, redact, scoresheet, view_json, visible_cards


class WebGame(Protocol):
    """One game's messages and helpers for the table actor (``game`` is the object it adapts)."""

    name: str
    game: Any

    def info(self) -> dict[str, Any]: ...

    def summary(self) -> dict[str, Any]: ...

    def messages(
        self, actor: int, action: Any, seats: Sequence[int], spectators: bool
    ) -> dict[Any, dict[str, Any]]: ...

    def state(self, seat: int | None, full: bool = False, actors: Sequence[int] = ()) -> dict[str, Any]: ...

    def catch_up(self, seat: int | None, since: Any, actors: Sequence[int]) -> dict[str, Any]: ...

    def scores(self) -> dict[str, Any]: ...

    def deals_done(self) -> int: ...

    def between_deals(self) -> bool: ...

    def deal_start(self) -> int: ...

    def refuse(self, action: Any, seat: int) -> BarbuError | None: ...

    def visible(self, card: int, seat: int) -> bool: ...

    def apply(self, action: Any, seat: int) -> None: ...

    def agent(self, kind: str, seed: int) -> Any: ...

    def redact(self, text: str, seat: int) -> str: ...


class BarbuWeb:
    """The Barbu family (Scottish included): the view JSON of `web.views`, unchanged."""

    name = "barbu"

    def __init__(self, game: Match) -> None:
        self.game = game

    def info(self) -> dict[str, Any]:
        m = self.game
        return {
            "game": "barbu",
            "phase": m.phase_name,
            "deal_number": min(m.deal_no + 1, m.total_deals),
            "total_deals": m.total_deals,
            "contracts": contract_info(m),
            "highest_wins": m.rules.family_spec.highest_wins,
        }

    def summary(self) -> dict[str, Any]:
        m = self.game
        return {"game": "barbu", "deal_number": min(m.deal_no + 1, m.total_deals), "total_deals": m.total_deals}

    def messages(self, actor: int, action: Any, seats: Sequence[int], spectators: bool) -> dict[Any, dict[str, Any]]:
        m = self.game
        views = m.views()
        public = public_state(m, views[0])  # the same from every seat's view (tested)
        out: dict[Any, dict[str, Any]] = {}
        for s in seats:
            out[s] = {
                "type": "state",
                "state": view_json(m, views, s, public=public),
                "last": last_action(m, actor, action, views[s], views, s),
            }
        if spectators:
            out[None] = {
                "type": "state",
                "state": view_json(m, views, None, public=public),
                "last": last_action(m, actor, action, None, views, None),
            }
        return out

    def state(self, seat: int | None, full: bool = False, actors: Sequence[int] = ()) -> dict[str, Any]:
        m = self.game
        return view_json(m, m.views(), seat, full=full, actors=actors)

    def catch_up(self, seat: int | None, since: Any, actors: Sequence[int]) -> dict[str, Any]:
        m = self.game
        state = self.state(seat, full=True, actors=actors)
        if isinstance(since, int) and m.deal_start < since < len(m.history) and "log" in state:
            missed = [e for e in state["log"] if e["seq"] >= since]
            return {"type": "catch_up", "since": since, "missed": missed, "state": state}
        return {"type": "sync", "state": state, "scores": self.scores()}

    def scores(self) -> dict[str, Any]:
        return scoresheet(self.game)

    def deals_done(self) -> int:
        return len(self.game.results)

    def between_deals(self) -> bool:
        m = self.game
        return m.phase == DEAL and bool(m.results)

    def deal_start(self) -> int:
        return self.game.deal_start

    def refuse(self, action: Any, seat: int) -> BarbuError | None:
        if isinstance(action, Card) and not self.game.hands[seat] >> action & 1:
            return WebError(NOT_HELD)
        return None

    def visible(self, card: int, seat: int) -> bool:
        """Whether ``seat`` may see ``card`` (0..51): its hand, the cards played or shown."""
        return bool(visible_cards(self.game.view(seat)) >> card & 1)

    def apply(self, action: Any, seat: int) -> None:
        self.game.apply(action, seat=seat)

    def agent(self, kind: str, seed: int) -> Any:
        return make_agent(kind, seed)

    def redact(self, text: str, seat: int) -> str:
        return redact(text, visible_cards(self.game.view(seat)))


class BesigueWeb:
    """Bésigue: each seat is sent its view's ``to_dict()`` (legal action texts included)."""

    name = "besigue"

    def __init__(self, game: Any) -> None:
        self.game = game

    def info(self) -> dict[str, Any]:
        g = self.game
        r = g.rules
        return {
            "game": "besigue",
            "phase": g.phase,
            "deal_number": max(g.deal_no, 1),
            "total_deals": None,
            "target": r.target,
            "contracts": [],
            "highest_wins": True,
            "options": {
                "hand": r.hand,
                "brisques": r.brisques,
                "seven": r.seven,
                "endgame": r.endgame,
                "target": r.target,
            },
        }

    def summary(self) -> dict[str, Any]:
        return {"game": "besigue", "deal_number": max(self.game.deal_no, 1), "total_deals": None}

    def _public(self) -> dict[str, Any]:
        """What both seats and the spectators see alike, beyond the view: the last trick and the deals done."""
        g = self.game
        out: dict[str, Any] = {
            "version": len(g.log),
            "hand_sizes": [len(g.hands[0]), len(g.hands[1])],
            "target": g.rules.target,
            "results": [_result_json(r) for r in g.results],
        }
        done = g.tricks
        if done and g.phase != "shuffle" and len(g.played) >= 2 * done:
            (s0, c0), (s1, c1) = g.played[2 * done - 2 : 2 * done]
            out["last_trick"] = {
                "cards": [{"seat": s0, "card": _text(c0)}, {"seat": s1, "card": _text(c1)}],
                "winner": g.last_winner,
            }
        else:
            out["last_trick"] = None
        return out

    def state(self, seat: int | None, full: bool = False, actors: Sequence[int] = ()) -> dict[str, Any]:
        g = self.game
        public = self._public()
        if seat is not None:
            return {**g.view(seat).to_dict(), **public}
        # A spectator: what both seats see alike — no hand, no legal actions, only cards shown to both.
        d = g.view(0).to_dict()
        d.update(public)
        d["seat"] = None
        d["hand"] = None
        d["legal"] = []
        d["known"] = [g.view(1).to_dict()["opponent_known"], d["opponent_known"]]  # shown by seat 0, by seat 1
        d["opponent_hand"] = None
        d["opponent_known"] = []
        return d

    def messages(self, actor: int, action: Any, seats: Sequence[int], spectators: bool) -> dict[Any, dict[str, Any]]:
        last = {
            "seq": len(self.game.log) - 1,
            "seat": actor,
            "action": ("deal" if str(action).startswith("shuffle") else "chance") if actor == CHANCE else str(action),
        }
        readers: list[int | None] = [*seats, *([None] if spectators else [])]
        return {r: {"type": "state", "state": self.state(r), "last": last} for r in readers}

    def catch_up(self, seat: int | None, since: Any, actors: Sequence[int]) -> dict[str, Any]:
        return {"type": "sync", "state": self.state(seat), "scores": self.scores()}

    def scores(self) -> dict[str, Any]:
        g = self.game
        out: dict[str, Any] = {
            "deals": [_result_json(r) for r in g.results],
            "totals": list(g.totals),
            "over": g.is_over,
            "total_deals": None,
            "highest_wins": True,
            "target": g.rules.target,
        }
        if g.is_over:
            out["standings"] = [s for s, _ in g.standings()]
        return out

    def deals_done(self) -> int:
        return len(self.game.results)

    def between_deals(self) -> bool:
        g = self.game
        return g.phase == "shuffle" and bool(g.results)

    def deal_start(self) -> int:
        """The index of the current deal's shuffle in the history (-1 before the first)."""
        log = self.game.log
        return next((i for i in range(len(log) - 1, -1, -1) if log[i][1].startswith("shuffle")), -1)

    def refuse(self, action: Any, seat: int) -> BarbuError | None:
        return None  # the engine's IllegalAction says why in words, naming only the seat's own cards

    def visible(self, card: int, seat: int) -> bool:
        """Whether ``seat`` may see a card of Bésigue's type ``card`` (0..31) somewhere."""
        from ...besigue.cards import type_of

        return card in {type_of(c) for c in self.game.view(seat).visible_cards()}

    def apply(self, action: Any, seat: int) -> None:
        self.game.apply(action)

    def agent(self, kind: str, seed: int) -> Any:
        from ...agents.besigue import make_besigue_agent

        return make_besigue_agent(kind, seed)

    def redact(self, text: str, seat: int) -> str:
        """The engine's words, less any card the seat may not see (a refusal may quote an example card)."""
        from ...besigue.cards import parse_type, type_of

        visible = {type_of(c) for c in self.game.view(seat).visible_cards()}

        def card(m: re.Match[str]) -> str:
            try:
                t = parse_type(m.group(0))
            except BarbuError:
                return m.group(0)
            return m.group(0) if t in visible else "…"

        return CARD_PATTERN.sub(card, text)


def _text(card: int) -> str:
    from ...besigue.cards import card_text

    return card_text(card)


def _result_json(r: dict[str, Any]) -> dict[str, Any]:
    """A finished Bésigue deal: public, and no cards (combinations by kind and value)."""
    return {
        "number": r["deal"],
        "dealer": r["dealer"],
        "scores": list(r["scores"]),
        "brisques": list(r["brisques"]),
        "last_trick": r["last_trick"],
        "melds": [[[k, v] for k, v in side] for side in r["melds"]],
        "totals": list(r["totals"]),
    }


def web_game(game: Any) -> WebGame:
    """The adapter for a game opened by `open_game`."""
    if game_kind(str(game.rules)).name == "besigue":
        return BesigueWeb(game)
    return BarbuWeb(game)
