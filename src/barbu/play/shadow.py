"""The comparison with the expert: each finished deal of a person's match replayed in the background.

`barbu.duplicate.shadow` replays a deal with the expert in the person's seat; the expert takes about a
second a decision, so the replays run in a worker process of their own (never the game's thread, never
holding up the next deal).  The front end polls `ShadowWatch.update` and says what is known: the last deal
beside the expert's score, the running difference, and at the match's end the summary and the deals where
the person lost most (the terminal table in `barbu.tui.shadow`, the line-by-line game in
`barbu.cli.textplay`).
"""

from __future__ import annotations

import multiprocessing
import sys
import warnings
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from ..agents.refusals import MissingExtraWarning
from ..duplicate.shadow import (
    STRONGEST,
    ShadowResult,
    ShadowSummary,
    deal_added,
    history_texts,
    shadow_deal,
    sign_of,
    summarize,
)
from ..i18n import _, ngettext, number
from .labels import points, signed


def _quiet() -> None:
    """In the worker: a missing extra is the front end's to say (a worker's stderr is the terminal the table
    is drawn on), so the expert's own note is not printed there."""
    warnings.simplefilter("ignore", MissingExtraWarning)


def _executor() -> Executor:
    """One worker process: the expert's replays queue there and leave the table's process free."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_quiet)


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

    def __init__(
        self,
        match: Any,
        seat: int,
        strengths: dict[int, str],
        stronger: str,
        known: dict[int, Any] | None = None,
        executor: Callable[[], Executor] = _executor,
    ) -> None:
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
        return cls(
            session.game, session.seat, {session.opponent: session.strength}, getattr(session, "compare", STRONGEST)
        )

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
        missing = [
            k for k in range(len(m.results)) if k not in self.results and k not in self.pending and k not in self.failed
        ]
        if missing:
            actions = history_texts(m)
            key = m.seed or 0
            with _real_streams():  # making the pool and the first submit start processes
                if self._pool is None:
                    self._pool = self._make()
                for k in missing:
                    self.pending[k] = self._pool.submit(
                        shadow_deal, self.rules, actions, k, self.seat, self.strengths, self.stronger, key
                    )
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
            lines.append(
                (_("Expert: replaying deal {n}…") if short else _("Expert in your seat: replaying deal {n}…")).format(
                    n=number(last + 1)
                )
            )
        s = self.summary()
        if s.deals:
            lines.append(short_running_line(s) if short else running_line(s))
        return lines


def expert_line(r: ShadowResult) -> str:
    # TRANSLATORS: {diff} is your score minus the expert's: "+5" you did better, "-20" worse.
    return _("Expert in your seat: {expert}; you: {you}; you against him: {diff}").format(
        expert=points(r.expert), you=points(r.you), diff=signed_diff(r.advantage)
    )


def short_expert_line(r: ShadowResult) -> str:
    return _("Expert {expert}, you {you}: difference {diff}").format(
        expert=points(r.expert), you=points(r.you), diff=signed_diff(r.advantage)
    )


def worst_line(key: str, r: ShadowResult, contract: str) -> str:
    """One of the deals where you lost most: ``1: deal 7, No queens: you -20, expert 0, difference -20``."""
    return _("{key}: deal {n}, {contract}: you {you}, expert {expert}, difference {diff}").format(
        key=key,
        n=number(r.deal + 1),
        contract=contract,
        you=points(r.you),
        expert=points(r.expert),
        diff=signed_diff(r.advantage),
    )


def signed_diff(x: Any) -> str:
    """A difference with its sign, ``0`` without one."""
    return signed(x) if x else points(0)


def running_line(s: ShadowSummary) -> str:
    return ngettext(
        "You against the expert: {diff} in all over {n} deal",
        "You against the expert: {diff} in all over {n} deals",
        s.deals,
    ).format(diff=signed_diff(s.advantage), n=number(s.deals))


def short_running_line(s: ShadowSummary) -> str:
    return ngettext("vs expert: {diff} over {n} deal", "vs expert: {diff} over {n} deals", s.deals).format(
        diff=signed_diff(s.advantage), n=number(s.deals)
    )


def final_line(s: ShadowSummary, pending: int = 0) -> str:
    """The match's comparison: your points minus the expert's on the deals he has replayed; while ``pending``
    deals are still being replayed it says the count is so far (never "over 17 deals" for an 18-deal match)."""
    if pending:
        return ngettext(
            "You against the expert on your own cards: {diff} in all, over the {n} deal replayed so far",
            "You against the expert on your own cards: {diff} in all, over the {n} deals replayed so far",
            s.deals,
        ).format(diff=signed_diff(s.advantage), n=number(s.deals))
    return ngettext(
        "You against the expert on your own cards: {diff} in all, over {n} deal",
        "You against the expert on your own cards: {diff} in all, over {n} deals",
        s.deals,
    ).format(diff=signed_diff(s.advantage), n=number(s.deals))
