"""The terminal table's comparison with the expert: each finished deal replayed in the background.

`barbu.duplicate.shadow` replays a deal with the expert in the person's seat; the expert takes about a
second a decision, so the replays run in a worker process of their own (never the table's thread, never
holding up the next deal).  The table polls `ShadowWatch.update` and draws what is known: the last deal
beside the expert's score, the running difference, and at the match's end the summary and the deals where
the person lost most, each openable in the review of his play.
"""

from __future__ import annotations

import multiprocessing
import sys
from contextlib import contextmanager
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, Callable, Iterator

from rich.console import Group
from rich.text import Text
from textual.binding import Binding

from ..duplicate.shadow import (STRONGEST, ShadowResult, ShadowSummary, deal_added, history_texts, shadow_deal,
                                sign_of, summarize)
from ..core.words import N_
from ..i18n import _, ngettext, number
from .dialogs import MatchOverDialog
from .labels import points, signed


def _executor() -> Executor:
    """One worker process: the expert's replays queue there and leave the table's process free."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


@contextmanager
def _real_streams() -> Iterator[None]:
    """The process's own standard streams while a worker starts: Textual captures ``sys.stdout`` and
    ``sys.stderr`` with objects that have no file descriptor, which a new process cannot inherit."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = sys.__stdout__ or saved[0], sys.__stderr__ or saved[1]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


class ShadowWatch:
    """The expert's replays of one session's finished deals: started, collected, remembered in the session."""

    def __init__(self, match: Any, seat: int, strengths: dict[int, str], stronger: str,
                 known: dict[int, Any] | None = None, executor: Callable[[], Executor] = _executor) -> None:
        """``known``: deal -> the stronger player's score already worked out (a resumed match's record); the
        new ones are added to it as they come back."""
        self.match, self.seat, self.strengths, self.stronger = match, seat, dict(strengths), stronger
        self.known = known if known is not None else {}
        self.rules = str(match.rules)
        self.sign = sign_of(self.rules)
        self._make = executor
        self._pool: Executor | None = None
        self.pending: dict[int, Future] = {}
        self.failed: set[int] = set()
        self.results: dict[int, ShadowResult] = {}
        for k, expert in self.known.items():
            if 0 <= k < len(match.results):
                self.results[k] = ShadowResult(k, deal_added(match, k)[seat], expert, self.sign)

    @classmethod
    def of(cls, session: Any) -> "ShadowWatch":
        """The watch of a terminal session, which keeps the scores in its record."""
        return cls(session.match, session.seat, session.strengths, session.compare, session.shadow_known)

    @classmethod
    def of_besigue(cls, session: Any) -> "ShadowWatch":
        """The watch of a Bésigue session (its comparisons are not kept in the record: a resumed game replays)."""
        return cls(session.game, session.seat, {session.opponent: session.strength},
                   getattr(session, "compare", STRONGEST))

    def update(self) -> bool:
        """Start the replays of newly finished deals and collect the finished ones; True when one arrived."""
        m = self.match
        changed = False
        for k, future in list(self.pending.items()):
            if not future.done():
                continue
            del self.pending[k]
            try:
                result = future.result()
            except Exception:  # a replay that fails costs the comparison of one deal, never the game
                self.failed.add(k)
                continue
            self.results[k] = result
            self.known[k] = result.expert
            changed = True
        missing = [k for k in range(len(m.results)) if k not in self.results and k not in self.pending
                   and k not in self.failed]
        if missing:
            actions = history_texts(m)
            key = m.seed or 0
            with _real_streams():  # making the pool and the first submit start processes
                if self._pool is None:
                    self._pool = self._make()
                for k in missing:
                    self.pending[k] = self._pool.submit(shadow_deal, self.rules, actions, k, self.seat,
                                                        self.strengths, self.stronger, key)
        return changed

    def close(self) -> None:
        """Leave the table: the replay under way is stopped, not finished (its process is ended)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        workers = list(getattr(pool, "_processes", {}).values() or ())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            if process.is_alive():
                process.terminate()

    def summary(self) -> ShadowSummary:
        return summarize(self.results.values())

    # ---------------------------------------------------------------- what the table shows
    def score_lines(self, short: bool = False) -> list[str]:
        """Under the scores: the last deal beside the expert's score, and the running difference (``short``:
        the narrow table's words, a line each in its 30 columns, so the middle of an 80 x 24 table keeps room)."""
        m = self.match
        if not m.results:
            return []
        last = len(m.results) - 1
        lines = []
        r = self.results.get(last)
        if r is not None:
            lines.append(short_expert_line(r) if short else expert_line(r))
        elif last in self.pending:
            lines.append((_("Expert: replaying deal {n}…") if short
                          else _("Expert in your seat: replaying deal {n}…")).format(n=number(last + 1)))
        s = self.summary()
        if s.deals:
            lines.append(short_running_line(s) if short else running_line(s))
        return lines


def expert_line(r: ShadowResult) -> str:
    return _("Expert in your seat: {expert} (you: {you}, {diff})").format(
        expert=points(r.expert), you=points(r.you), diff=signed_diff(r.advantage))


def short_expert_line(r: ShadowResult) -> str:
    return _("Expert {expert}, you {you} ({diff})").format(
        expert=points(r.expert), you=points(r.you), diff=signed_diff(r.advantage))


def worst_line(key: str, r: ShadowResult, contract: str) -> str:
    """One of the deals where you lost most: ``1: deal 7, No queens: you -20, expert 0 (-20)``."""
    return _("{key}: deal {n}, {contract}: you {you}, expert {expert} ({diff})").format(
        key=key, n=number(r.deal + 1), contract=contract, you=points(r.you), expert=points(r.expert),
        diff=signed_diff(r.advantage))


def signed_diff(x: Any) -> str:
    """A difference with its sign, ``0`` without one."""
    return signed(x) if x else points(0)


def running_line(s: ShadowSummary) -> str:
    return ngettext("Against the expert: {diff} over {n} deal", "Against the expert: {diff} over {n} deals",
                    s.deals).format(diff=signed_diff(s.advantage), n=number(s.deals))


def short_running_line(s: ShadowSummary) -> str:
    return ngettext("vs expert: {diff} over {n} deal", "vs expert: {diff} over {n} deals",
                    s.deals).format(diff=signed_diff(s.advantage), n=number(s.deals))


def final_line(s: ShadowSummary) -> str:
    return ngettext("You against the expert on your own cards: {diff} over {n} deal",
                    "You against the expert on your own cards: {diff} over {n} deals",
                    s.deals).format(diff=signed_diff(s.advantage), n=number(s.deals))


class ShadowMatchOverDialog(MatchOverDialog):
    """The final standings with the comparison with the expert; 1, 2, 3 review the deals where you lost most."""

    BINDINGS = MatchOverDialog.BINDINGS + [
        Binding("1", "review(0)", N_("Review"), show=False),
        Binding("2", "review(1)", N_("Review"), show=False),
        Binding("3", "review(2)", N_("Review"), show=False),
    ]

    def __init__(self, title: str, standings: Any, watch: ShadowWatch, label: Callable[[int], str],
                 review: Callable[[int], None] | None) -> None:
        """``label(k)``: how deal ``k`` (0-based) is named beside its number (its contract)."""
        self.standings, self.watch, self.label, self.review = standings, watch, label, review
        super().__init__(title, self.body_now())

    def on_mount(self) -> None:
        self._shown = self._known()
        if self.watch.pending:
            self.set_interval(0.5, self.tick)

    def _known(self) -> tuple[int, int]:
        return len(self.watch.results), len(self.watch.pending)

    def tick(self) -> None:
        """Redraw when a replay came back (collected here or by the table behind)."""
        self.watch.update()
        if self._known() != self._shown:
            self._shown = self._known()
            self.body = self.body_now()
            self.query_one("#dialog-text").update(self.body)

    def body_now(self) -> Any:
        s = self.watch.summary()
        parts: list[Any] = [self.standings]
        if s.deals:
            parts.append(Text("\n" + final_line(s), style="bold"))
        if self.watch.pending:
            n = len(self.watch.pending)
            parts.append(Text(ngettext("Still replaying {n} deal with the expert…",
                                       "Still replaying {n} deals with the expert…", n).format(n=number(n)),
                              style="dim"))
        if s.worst:
            parts.append(Text(_("The deals where you lost most to the expert:")))
            for i, r in enumerate(s.worst, start=1):
                parts.append(Text("  " + worst_line(number(i), r, self.label(r.deal))))
            if self.review is not None:
                parts.append(Text(_("Press 1, 2 or 3 to review your play in that deal."), style="dim"))
        return Group(*parts)

    def action_review(self, index: int) -> None:
        worst = self.watch.summary().worst
        if self.review is not None and index < len(worst):
            self.review(worst[index].deal + 1)
