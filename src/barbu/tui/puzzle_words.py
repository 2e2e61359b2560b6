"""What a puzzle says to the person, in his language: its kind, its theme, where it came from, what each card
costs and how his rating moved.  Plain text (no markup), shared by the puzzle screen (`barbu.tui.puzzle_screen`)
and the line-by-line puzzles (`barbu.cli.puzzle`)."""

from __future__ import annotations

from typing import Any

from ..classic.match import Match
from ..classic.view import View
from ..core.actions import Pass
from ..core.cards import SUIT_SYMBOLS
from ..core.errors import BarbuError
from ..core.words import N_
from ..i18n import _, ngettext, number, pgettext, words
from ..play.labels import action_short, rank_label, signed
from ..puzzles.model import OPEN, Puzzle
from ..puzzles.rating import shown
from .puzzle_store import PuzzleRecord

#: Each theme (`barbu.puzzles.model.THEMES`, defined in docs/puzzles.md): its name, then what the solution did.
THEMES: dict[str, tuple[str, str]] = {
    "duck": (N_("Ducking"), N_("following suit under the card that wins the trick, when a higher card would take it")),
    "unblock": (
        N_("Unblocking"),
        N_("following with the highest card of a suit held with smaller ones, while the trick is lost anyway"),
    ),
    "take": (N_("Taking the trick"), N_("winning the trick when a card that loses it was there")),
    "lead-away": (N_("Giving the lead away"), N_("leading a card that another hand can beat, so the lead goes on")),
    "cash": (N_("Cashing"), N_("leading the best card left in its suit")),
    "guard": (N_("Keeping a guard"), N_("a discard that keeps a small card guarding a high one")),
    "shed": (N_("Shedding"), N_("the card to be rid of, when you cannot follow suit")),
    "ruff": (N_("Ruffing"), N_("trumping in when you cannot follow suit")),
    "block": (N_("Blocking"), N_("the Domino move that leaves the others without a card to play")),
    "lay": (N_("Laying the right card"), N_("the Domino card to lay now, of several that fit")),
}

#: The modes, as the title names them.
MODES = {
    "rated": N_("Rated puzzles"),
    "file": N_("Rated puzzles"),
    "daily": N_("Puzzle of the day"),
    "streak": N_("Puzzle streak"),
    "mine": N_("Puzzles from your match"),
}


def mode_title(mode: str) -> str:
    return _(MODES.get(mode, MODES["rated"]))


def theme_name(theme: str) -> str:
    """``Ducking``: the theme's name ("Esquive", …); the theme's own key when unknown."""
    return _(THEMES[theme][0]) if theme in THEMES else theme


def theme_text(theme: str) -> str:
    """``Ducking: following suit under …``: the theme's name and what the solution does."""
    if theme not in THEMES:
        return theme
    name, what = THEMES[theme]
    return _("{theme}: {meaning}").format(theme=_(name), meaning=_(what))


def kind_banner(p: Puzzle) -> str:
    """Which kind the puzzle is, said plainly before it is solved."""
    if p.kind == OPEN:
        return _("Every hand is shown: find the best card, the others playing their best against you.")
    return _(
        "Only your hand and the cards played are shown: find the card that is best in nearly every deal "
        "consistent with what you see."
    )


def kind_short(p: Puzzle) -> str:
    return _("every hand shown") if p.kind == OPEN else _("only your hand shown")


def share_line(p: Puzzle) -> str | None:
    """For a puzzle of the "single" kind: in how many of the deals sampled the solution was best."""
    if p.kind == OPEN or p.share is None or not p.samples:
        return None
    best = round(p.share * p.samples)
    return ngettext(
        "Best in {best} of {n} deal consistent with what you saw.",
        "Best in {best} of {n} deals consistent with what you saw.",
        p.samples,
    ).format(best=number(best), n=number(p.samples))


def source_line(p: Puzzle) -> str:
    """Where the position comes from, in words: a self-play match, a record, a server table, a daily deal…"""
    kind, _sep, rest = p.source.partition(":")
    deal = number(p.source_deal)
    if kind == "selfplay":
        return _("From a match between computer players ({match}), deal {deal}.").format(match=rest, deal=deal)
    if kind == "record":
        return _("From the record {name}, deal {deal}.").format(name=rest, deal=deal)
    if kind == "table":
        return _("From a table on the server ({id}), deal {deal}.").format(id=rest, deal=deal)
    if kind == "daily":
        day, _s, tail = rest.partition("/")
        game, _s, board = tail.partition("/")
        return _("From the daily deals of {day} ({game}), deal {board}.").format(day=day, game=game, board=board)
    if kind == "event":
        event, _s, board = rest.partition("/")
        return _("From the event {event}, board {board}.").format(event=event, board=board)
    if kind == "mine":
        return _("From your own match, deal {deal}.").format(deal=deal)
    return _("From {source}, deal {deal}.").format(source=p.source or "?", deal=deal)


def action_words(m: Match, text: str) -> str:
    """An action the engine wrote (``QH``, ``pass``) as the person reads it at the position of ``m`` (``D♥``)."""
    try:
        action = m.parse_action(text)
    except BarbuError:  # a puzzle from a file: its own text rather than nothing
        return text
    if isinstance(action, Pass):
        return pgettext("doubling", "pass")  # the table's word for a pass (Domino's too)
    return action_short(action)


def points_lost(n: int) -> str:
    return ngettext("loses {n} point", "loses {n} points", n).format(n=number(n))


def cost_lines(m: Match, solution: tuple[str, ...], costs: tuple[tuple[str, int], ...]) -> list[str]:
    """The solution, then every other card and what it costs against it, cheapest first."""
    best = " / ".join(action_words(m, a) for a in solution)
    lines = [_("{cards}: best").format(cards=best)]
    for text, cost in sorted(costs, key=lambda c: (c[1], c[0])):
        lines.append(_("{card}: {cost}").format(card=action_words(m, text), cost=points_lost(cost)))
    return lines


def rating_line(before: int, after: int, rated: bool) -> str:
    """``Your puzzle rating: 1000 → 1043 (+43)``, or why this one was not rated."""
    if not rated:
        return _("Your puzzle rating stays {rating}: this puzzle is not rated.").format(rating=number(before))
    return _("Your puzzle rating: {before} → {after} ({change})").format(
        before=number(before), after=number(after), change=signed(after - before)
    )


def verdict(solved: bool, answer: str, cost: int) -> str:
    """The first line after the answer."""
    if solved:
        return _("Right: {card} is the best card.").format(card=answer)
    return _("Not the best: {card} {cost}.").format(card=answer, cost=points_lost(cost))


def outcome_lines(outcome: Any) -> list[str]:
    """Everything said after an answer (`barbu.tui.puzzle_series.Outcome`), one line each, in the order shown."""
    p = outcome.puzzle
    lines = [rating_line(outcome.before, outcome.after, outcome.rated)]
    if outcome.mode == "streak":
        lines.append(
            _("Streak: {n} · best {best}").format(n=number(outcome.streak), best=number(outcome.best_streak))
            if outcome.solved
            else _("Streak over at {n} · best {best}").format(
                n=number(outcome.streak), best=number(outcome.best_streak)
            )
        )
    if outcome.note:
        lines.append(outcome.note)
    lines.append(theme_text(p.theme))
    share = share_line(p)
    if share:
        lines.append(share)
    lines.append(source_line(p))
    return lines


def standing_line(rec: PuzzleRecord) -> str:
    """Where the person stands, said before the first puzzle."""
    solved = sum(a.solved for a in rec.history)
    return _("Your puzzle rating: {rating} · solved {solved} of {tried} · best streak {best}").format(
        rating=number(shown(rec.rating)),
        solved=number(solved),
        tried=number(len(rec.history)),
        best=number(rec.best_streak),
    )


def suit_ranks(mask: int) -> list[tuple[int, str]]:
    """Each suit of ``mask`` and its ranks high to low as the person's language prints them (``—``: none)."""
    w = words()
    out = []
    for suit in range(4):
        bits = (mask >> (13 * suit)) & 0x1FFF
        ranks = " ".join(w.rank_letter(rank_label(r)) for r in range(12, -1, -1) if bits >> r & 1)
        out.append((suit, ranks or "—"))
    return out


def still_out_line(v: View) -> str:
    """``In the others' hands: ♠ J 9  ♥ 10  ♦ —  ♣ 8 4``: the cards still out, what a "single" puzzle's seat
    counts on (the deck less the cards played, set aside and his own: public to his seat)."""
    out = v.deck & ~v.out_of_play & ~v.hand
    cards = "  ".join(f"{SUIT_SYMBOLS[suit]} {ranks}" for suit, ranks in suit_ranks(out))
    return _("In the others' hands: {cards}").format(cards=cards)
