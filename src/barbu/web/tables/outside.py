"""What the tables are given from the domains above them, and what they do with it.

A finished match's results and ratings (`barbu.web.profiles`), the ratings shown beside the seats' names,
and how to reach a player by e-mail (`barbu.web.accounts`) belong to domains on higher floors; the tables
import none of them.  The application (`barbu.web.app.create_app`) gives the lobby these as functions
(`Outside`); without them (a lobby alone, in a test) a finished match is stored as over and nothing more,
no figure is shown and nobody is sent an e-mail.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Awaitable, Callable

from sqlalchemy import select

from ...core.words import N_
from ...i18n import translator
from ..common import mail
from ..common.settings import Settings
from ..db import mailbudget
from ..db.storage import SEATS, TABLES, Store, now
from .actor import Table

log = logging.getLogger("barbu.web")

#: A seat as its rating is looked up: (kind, account id, strength).
RatedSeat = tuple[str, "int | None", "str | None"]
#: An account's e-mail address, whether it asked for "your turn" e-mails, its language and its name.
MailTo = tuple["str | None", bool, "str | None", str]


@dataclass
class Outside:
    """The functions the application gives the tables from the domains above them (each may be left out).

    ``results(table)``: for a match played to its end, the writer of its results and (rated) the ratings,
    run in the same transaction as the table's last status.  ``ratings(store, rules, seats)``: the figure
    beside each seat's name (None: none).  ``mail_of(conn, user_id)``: where and how to tell an account
    (`MailTo`), or None.  ``notice``: the notification of a turn."""

    results: Callable[[Table], Callable[[Any], object]] | None = None
    ratings: Callable[[Store, str, list[RatedSeat]], list[dict[str, Any] | None]] | None = None
    mail_of: Callable[[Any, int], MailTo | None] | None = None
    #: ``notice(user_id, table_id, game, timed_out)``: a player told it is his turn (`barbu.web.notices`: the bell,
    #: his open pages, Web Push); the e-mail stays the batched reminder below.
    notice: Callable[[int, str, str, bool], Awaitable[Any]] | None = None


class Beyond:
    """The tables' dealings with the domains above them, through the functions given (`Outside`)."""

    def __init__(self, settings: Settings, outside: Outside, store: Callable[[], Store | None]) -> None:
        self.settings = settings
        self.outside = outside
        self.store = store  # the lobby's, once it is open
        self._background: set[asyncio.Task[Any]] = set()
        # the accounts whose reminder this process waits to send, each with what wakes it (a new turn noted)
        self._reminding: dict[int, asyncio.Event] = {}

    async def match_over(self, t: Table) -> None:
        """A match played to its end: its status, its results and (rated) the ratings, in one fenced write."""
        results = self.outside.results(t) if self.outside.results is not None else None
        table_id = t.id

        def write(conn: Any) -> None:
            if results is not None:
                results(conn)
            Store.set_status(conn, table_id, "over")

        await t.journal.run(write)
        self.show_ratings(t)

    def show_ratings(self, t: Table) -> None:
        """Read the ratings shown beside the seats' names, then give them to the table (off its actor)."""
        store, ratings = self.store(), self.outside.ratings
        if store is None or ratings is None:
            return
        rules = str(t.rules)
        seats: list[RatedSeat] = [(s.kind if not s.left else "human", s.user_id, s.strength) for s in t.seats]

        async def read() -> None:
            try:
                values = await asyncio.to_thread(ratings, store, rules, seats)
            except Exception:  # the page shows no figure; the table plays on
                log.exception("table %s: the ratings could not be read", t.id)
                return
            t.tell(t.set_ratings, values)

        try:
            asyncio.get_running_loop().create_task(read(), name=f"ratings-{t.id}")
        except RuntimeError:  # no loop (a table read outside the server)
            pass

    async def tell_turn(self, t: Table, user_id: int, kind: str) -> None:
        """A turn-based table waits for a player who is away ("turn"), or his time ran out ("timeout"): a
        reminder falls due, if the server has a mail server.  It is not sent at once: it waits
        ``reminder_wait`` seconds and goes at most once in ``reminder_every``, one mail listing every table
        then waiting for him (none if he came back and played).  Every process batches alike: what is due
        is in the database, and one claim among them sends it.  Off the table's actor.  He is notified at
        once too (`Outside.notice`: the bell, his open pages, his devices)."""
        if self.outside.notice is not None:
            self._notice(t, user_id, kind)
        store = self.store()
        if self.settings.smtp_host is None or store is None or self.outside.mail_of is None:
            return

        def note() -> None:
            with store.engine.begin() as conn:
                mailbudget.note_due(conn, user_id)

        async def remind() -> None:
            try:
                await asyncio.to_thread(note)
                await self._remind(store, user_id)
            except Exception:  # the reminder is lost, the table plays on
                log.exception("table %s: a turn reminder could not be sent", table_id)
            finally:
                self._reminding.pop(user_id, None)

        async def noted() -> None:
            await asyncio.to_thread(note)
            if (wake := self._reminding.get(user_id)) is not None:
                wake.set()  # it reads again when the reminder is due

        table_id = t.id
        if user_id in self._reminding:  # this process sends his reminder already: the turn is noted for it
            task = asyncio.get_running_loop().create_task(noted(), name=f"turn-{table_id}")
        else:
            self._reminding[user_id] = asyncio.Event()
            task = asyncio.get_running_loop().create_task(remind(), name=f"mail-{table_id}")
        self._background.add(task)  # held until done: a task nobody holds may be collected mid-way
        task.add_done_callback(self._background.discard)

    def _notice(self, t: Table, user_id: int, kind: str) -> None:
        notice, table_id, game = self.outside.notice, t.id, str(t.rules).split("(")[0]
        assert notice is not None

        async def tell() -> None:
            try:
                await notice(user_id, table_id, game, kind == "timeout")
            except Exception:  # the notice is lost; the reminder and the table go on
                log.exception("table %s: a turn notice could not be given", table_id)

        task = asyncio.get_running_loop().create_task(tell(), name=f"notice-{table_id}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _remind(self, store: Store, user_id: int) -> None:
        """Wait until the player's reminder may go, then claim it and send it (or drop it: nothing waits)."""
        wait, every = self.settings.reminder_wait, self.settings.reminder_every
        mail_of = self.outside.mail_of
        assert mail_of is not None

        def due() -> datetime | None:
            with store.engine.connect() as conn:
                return mailbudget.when_due(conn, user_id, wait, every)

        def claim() -> tuple[MailTo, list[tuple[str, str, bool]]] | None:
            with store.engine.begin() as conn:
                found = mail_of(conn, user_id)
                tables = waiting_tables(conn, user_id)
                sending = found is not None and found[1] and bool(found[0]) and bool(tables)
                if not mailbudget.take_due(conn, user_id, wait, every, sending) or not sending:
                    return None
                assert found is not None
                return found, tables

        wake = self._reminding[user_id]
        while True:
            wake.clear()  # before reading: a turn noted from now on wakes the wait below
            at = await asyncio.to_thread(due)
            if at is None:
                return
            delay = (at - now()).total_seconds()
            if delay > 0:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(wake.wait(), max(delay, 0.05))
                continue
            claimed = await asyncio.to_thread(claim)
            if claimed is not None:
                await self._send_reminder(store, user_id, *claimed)
            # read again: a turn noted meanwhile is the next reminder's (it waits for ``every``)

    async def _send_reminder(self, store: Store, user_id: int, to: MailTo, tables: list[tuple[str, str, bool]]) -> None:
        email, _, lang, name = to
        assert email is not None
        settings = self.settings
        language = lang or settings.default_lang
        words, base = translator(language), mail.base_url(settings)
        lines = [
            "- " + words.gettext(TIMED_OUT if timed_out else WAITING).format(link=f"{base}/t/{tid}", game=game)
            for tid, game, timed_out in tables
        ]
        key = await asyncio.to_thread(store.creations_key)
        msg = mail.message(
            settings,
            email,
            language,
            "turns",
            mail.unsubscribe_token(key, user_id, mail.TURNS, email),
            name=name,
            tables="\n".join(lines),
        )
        await mailbudget.deliver(settings, store, msg, user_id)


WAITING = N_("{link} ({game})")
TIMED_OUT = N_("{link} ({game}): your time ran out and the computer played for you")


def waiting_tables(conn: Any, user_id: int) -> list[tuple[str, str, bool]]:
    """The turn-based tables waiting for this account, longest first: (id, rules, his time ran out).  Those
    waiting for his move, and those where his time ran out and the computer plays for him."""
    q = (
        select(TABLES.c.id, TABLES.c.rules, SEATS.c.timeouts)
        .join(SEATS, (SEATS.c.table_id == TABLES.c.id) & (SEATS.c.user_id == user_id))
        .where(
            TABLES.c.status == "playing",
            TABLES.c.turn_based.is_(True),
            (TABLES.c.waiting_for == user_id) | (SEATS.c.timeouts > 0),
        )
        .order_by(TABLES.c.turn_since)
        .limit(50)
    )
    found = {r.id: (r.id, r.rules, bool(r.timeouts)) for r in conn.execute(q)}  # one line a table, whatever his seats
    return list(found.values())
