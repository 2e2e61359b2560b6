"""What the server sends to a seat or a spectator, as JSON, built only from `Match.view`.

A seat's message is made from ``match.view(seat)``, the engine's one door for
what a seat may know.  A spectator's is made from the seats' views, keeping
only what every seat sees: no hand, no legal actions, and a public action is
shown only if no seat's view hides it.  Cards travel in their text form
(``QH``, ``TS``), which the leak oracle in the tests reads back.  View
fields this module does not know are not sent: a new decision kind shows up
through its legal actions' text forms, never through raw state.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Sequence

from ...classic.chinese import ROW_NAMES, Arrangements
from ...classic.contracts import CHINESE, TRICKS
from ...classic.match import CHANCE, DealResult, Match
from ...classic.view import HIDDEN, View
from ...core.actions import Double
from ...core.cards import CARDS, SUIT_MASK, cards_of, parse_card
from ...core.words import RANKS
from ...guide import settlements
from ...records.barbu import number_out, trick_winner

CARD_TEXT = tuple(str(c) for c in CARDS)

#: Above this many legal actions the list is not sent; the player types or builds the action.
LEGAL_LIMIT = 400


CARD_PATTERN = _CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC])(?![A-Za-z0-9])|(10|[2-9JQKA])([♠♥♦♣])")
_SUIT_FORM = re.compile(r"(?<![\w.-])(?:[2-9TJQKA]+|-)(?:\.(?:[2-9TJQKA]+|-)){3}(?![\w.-])")


def redact(text: str, visible: int) -> str:
    """Blank out every card a message names that the reader may not see.

    The engine's error messages are written for one player at a terminal and
    may quote an example card; before such a text goes to a connection, any
    card outside what that seat sees becomes "…".
    """

    def card(m: re.Match[str]) -> str:
        c = parse_card(m.group(0))
        return m.group(0) if visible >> c & 1 else "…"

    def suit_form(m: re.Match[str]) -> str:
        mask = 0
        for suit, ranks in enumerate(m.group(0).split(".")):
            if ranks != "-":
                for ch in ranks:
                    mask |= 1 << (suit * 13 + RANKS.index(ch))
        return m.group(0) if not mask & ~visible else "…"

    return _CARD.sub(card, _SUIT_FORM.sub(suit_form, text))


def visible_cards(v: View) -> int:
    """Every card a seat's view shows it: its hand, the cards played and those set aside face up."""
    mask = v.hand | v.played | v.set_aside
    for k in v.known:
        mask |= k
    return mask


def action_text(a: Any) -> str:
    """An action as a seat's view shows it; another seat's secret decision reads "hidden"."""
    return "hidden" if a is HIDDEN else str(a)


def card_list(mask: int) -> list[str]:
    return [CARD_TEXT[c] for c in cards_of(mask)]


def contract_info(m: Match) -> list[dict[str, Any]]:
    return [
        {"key": c.key, "name": c.name, "help": c.help, "positive": c.positive, "kind": c.kind, "trump": c.trump}
        for c in m.contracts
    ]


def public_deal_action(views: Sequence[View], i: int) -> str:
    """The deal's ``i``-th action as a spectator may see it: hidden unless every seat sees the same text."""
    text = action_text(views[0].deal_actions[i])
    return text if all(action_text(v.deal_actions[i]) == text for v in views[1:]) else "hidden"


def public_deal_actions(views: Sequence[View]) -> list[str]:
    """This deal's actions as a spectator may see them (`public_deal_action` of each, taken a column of the seats'
    views at a time: an action every seat's view holds as the same object is public without a text for each)."""
    out = []
    for column in zip(*(v.deal_actions for v in views)):
        first = column[0]
        text = action_text(first)
        for a in column[1:]:
            if a is not first and action_text(a) != text:
                text = "hidden"
                break
        out.append(text)
    return out


def deal_log(m: Match, actors: Sequence[int], texts: Sequence[str]) -> list[dict[str, Any]]:
    """The current deal's public actions with who took them (texts already filtered for the reader)."""
    start = m.deal_start + 1
    return [{"seq": start + i, "seat": actors[start + i], "action": t} for i, t in enumerate(texts)]


def last_action(
    m: Match, actor: int, action: Any, view: View | None, views: Sequence[View], seat: int | None
) -> dict[str, Any]:
    """The action just taken, as ``seat`` (None: a spectator) may see it."""
    seq = len(m.history) - 1
    if actor == CHANCE:  # a shuffle or the draw: its cards are never shown
        return {"seq": seq, "seat": CHANCE, "action": "deal" if m.deal_start == seq else "chance"}
    in_deal = m.deal_start >= 0 and seq > m.deal_start and views[0].deal_actions
    if in_deal:
        if seat is not None and view is not None:
            text = action_text(view.deal_actions[-1])
        else:
            text = public_deal_action(views, -1)  # the last alone: each move would otherwise redo the whole deal
    elif isinstance(action, int) or seat == actor:  # the action ended the deal: a card is public
        text = str(action)
    else:
        text = "hidden"
    return {"seq": seq, "seat": actor, "action": text}


def deal_summary(m: Match, r: DealResult) -> dict[str, Any]:
    """The deal just finished: its last trick, revealed rows and scores (no unplayed cards)."""
    d = result_json(m, r)
    kind = _kind(m, r.contract)
    if r.tricks:
        leader, cards = r.tricks[-1]
        last = {"leader": leader, "cards": [CARD_TEXT[c] for c in cards]}
        if kind in (TRICKS, CHINESE):
            last["winner"] = trick_winner(leader, cards, r.trump, m.n)
        d["last_trick"] = last
    if r.arrangements:
        d["arrangements"] = [[card_list(row) for row in a.rows] for a in r.arrangements]
    if r.finishing:
        d["finishing"] = list(r.finishing)
    if r.set_aside:
        d["set_aside"] = card_list(r.set_aside)
    return d


def result_json(m: Match, r: DealResult) -> dict[str, Any]:
    return {
        "number": r.number,
        "dealer": r.dealer,
        "declarer": r.declarer,
        "contract": r.contract,
        "trump": r.trump,
        "rank": RANKS[r.rank] if r.rank is not None else None,
        "doubles": [[b.doubler, b.doubled, b.redoubled] for b in r.doubles],
        "played": r.played,
        "base": [number_out(x) for x in r.base],
        "scores": [number_out(x) for x in r.scores],
        "series": [number_out(x) for x in r.series] if r.series else None,
        # each double's transfer, as the engine settles it: [payer, receiver, amount, redoubled]
        "settlements": [[p, q, number_out(a), rd] for p, q, a, rd in settlements(r.base, r.doubles)],
    }


def scoresheet(m: Match) -> dict[str, Any]:
    """Every finished deal's scores and the running totals: public, and no cards."""
    deals = []
    run: list[int | Fraction] = [0] * m.n
    for r in m.results:
        run = [a + b for a, b in zip(run, r.added)]
        d = result_json(m, r)
        d["totals"] = [number_out(x) for x in run]
        deals.append(d)
    out: dict[str, Any] = {
        "deals": deals,
        "totals": [number_out(x) for x in m.totals],
        "over": m.is_over,
        "total_deals": m.total_deals,
        "highest_wins": m.rules.family_spec.highest_wins,
    }
    if m.is_over:
        out["standings"] = [s for s, _ in m.standings()]
    return out


def public_state(m: Match, v: View, full: bool = False) -> dict[str, Any]:
    """The part of a state message that every seat and every spectator sees alike.

    The server builds it once per move from one view and sends it to all; a
    test checks over every preset that each seat's own view gives the same.
    """
    n = m.n
    kind = _kind(m, v.contract) if v.contract else None
    out: dict[str, Any] = {
        "phase": v.phase,
        "to_act": v.to_act,
        "deal_number": v.deal_number,
        "total_deals": m.total_deals,
        "dealer": v.dealer,
        "declarer": v.declarer,
        "leader": v.leader,
        "hand_sizes": list(v.hand_sizes),
        "contract": v.contract,
        "trump": v.trump,
        "rank": RANKS[v.rank] if v.rank is not None else None,
        "doubles": [[b.doubler, b.doubled, b.redoubled] for b in v.doubles],
        "contracts_left": _contracts_left(m, v),
        # deals the declarer has still to declare (the one he is choosing counted): fewer than his contracts_left
        # in a short match
        "series_left": v.series_left[v.declarer] if v.declarer >= 0 else 0,
        "trick": [CARD_TEXT[c] for c in v.trick],
        "tricks_won": list(v.tricks_won),
        "finished": list(v.finished),
        "set_aside": card_list(v.set_aside),
        "totals": [number_out(x) for x in v.totals],
        "deals_done": len(v.results),
        "version": len(m.history),
    }
    if kind is not None and kind not in (TRICKS, CHINESE):  # Domino, Success and other rows of cards
        out["rows"] = _rows(m, v.played)
        out["row_ranks"] = _row_ranks(m)
        plays = v.tricks if full else v.tricks[-1:]
        out["plays"] = [[s, [CARD_TEXT[c] for c in cards]] for s, cards in plays]
    elif kind is not None:
        trump = v.trump if v.trump is not None and _has_trumps(m, v.contract) else None
        tricks = [
            {"leader": leader, "cards": [CARD_TEXT[c] for c in cards], "winner": trick_winner(leader, cards, trump, n)}
            for leader, cards in (v.tricks if full else v.tricks[-1:])
        ]
        out["last_trick"] = tricks[-1] if tricks else None
        if full:
            out["tricks"] = tricks
    obligation = m.rules.double_obligation if m.rules.doubling != "none" else 0
    if obligation and v.declarer >= 0:
        out["owed"] = [0 if s == v.dealer else max(0, obligation - v.doubles_made[s]) for s in range(n)]
    if v.results and not v.played and not v.trick:
        out["last_deal"] = deal_summary(m, v.results[-1])
    return out


def view_json(
    m: Match,
    views: Sequence[View],
    seat: int | None,
    full: bool = False,
    actors: Sequence[int] = (),
    public: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The state message body for ``seat`` (None for a spectator).  ``full`` adds the deal's log.

    ``public`` is `public_state` already built for this position (the same ``full``), to reuse.
    """
    v = views[seat] if seat is not None else views[0]
    out = dict(public) if public is not None else public_state(m, v, full)
    out["seat"] = seat
    out["hand"] = card_list(v.hand) if seat is not None else None
    in_deal = v.phase not in ("draw", "deal", "over")
    if seat is not None and v.to_act == seat and in_deal:
        legal = v.legal
        count = len(legal)
        out["legal_count"] = count
        out["legal"] = [str(a) for a in legal] if count <= LEGAL_LIMIT else None
        if v.phase == "doubling" and legal and all(isinstance(a, Double) for a in legal):
            out["must_double_dealer"] = all(v.dealer in a.targets for a in legal)
        if v.phase == "arrange":  # rows to start from, made from this seat's own hand
            a = Arrangements(v.hand).sensible()
            out["suggested"] = {name: card_list(mask) for name, mask in zip(ROW_NAMES, a.rows)}
    else:
        out["legal"] = None
        out["legal_count"] = 0
    if full and in_deal:
        texts = [action_text(a) for a in v.deal_actions] if seat is not None else public_deal_actions(views)
        out["log"] = deal_log(m, actors, texts)
    return out


def _kind(m: Match, key: str) -> str:
    """A contract's kind; a key the table does not list (a combination of several calls) plays tricks."""
    c = m.contract_by_key.get(key)
    return c.kind if c is not None else TRICKS


def _has_trumps(m: Match, key: str | None) -> bool:
    c = m.contract_by_key.get(key) if key else None
    return bool(c and c.trump)


def _contracts_left(m: Match, v: View) -> list[str]:
    """The contracts the current declarer has still to name, in the table's order."""
    if v.declarer < 0:
        return []
    left = v.contracts_left[v.declarer]
    return [c.key for c in m.contracts if c.key in left]


def _row_ranks(m: Match) -> str:
    """The ranks a Domino or Patience row may hold, low end first: the browser lays each card at its place."""
    ranks = sorted({c % 13 for c in cards_of(m.deck)})
    if m.rules.domino_ace == "low" and 12 in ranks:
        ranks = [12] + ranks[:-1]
    return "".join(RANKS[r] for r in ranks)


def _rows(m: Match, played: int) -> list[list[str]]:
    """Domino and Success rows: each suit's laid cards, low end first."""
    low_ace = m.rules.domino_ace == "low"
    rows = []
    for s in range(4):
        cards = list(cards_of(played & SUIT_MASK[s]))
        if low_ace and cards and cards[-1] % 13 == 12:
            cards = cards[-1:] + cards[:-1]
        rows.append([CARD_TEXT[c] for c in cards])
    return rows
