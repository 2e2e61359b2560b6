"""What the tables are given from the domains above them, and what they do with it.

A finished match's results and ratings (`barbu.web.profiles`), the ratings shown beside the seats' names,
and how to reach a player by e-mail (`barbu.web.accounts`) belong to domains on higher floors; the tables
import none of them.  The application (`barbu.web.app.create_app`) gives the lobby these as functions
(`Outside`); without them (a lobby alone, in a test) a finished match is stored as over and nothing more,
no figure is shown and nobody is sent an e-mail.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Callable

from ..common import mail
from ..common.settings import Settings
from ..db.storage import Store
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
    (`MailTo`), or None."""

    results: Callable[[Table], Callable[[Any], object]] | None = None
    ratings: Callable[[Store, str, list[RatedSeat]], list[dict[str, Any] | None]] | None = None
    mail_of: Callable[[Any, int], MailTo | None] | None = None


class Beyond:
    """The tables' dealings with the domains above them, through the functions given (`Outside`)."""

    def __init__(self, settings: Settings, outside: Outside, store: Callable[[], Store | None]) -> None:
        self.settings = settings
        self.outside = outside
        self.store = store  # the lobby's, once it is open
        self._background: set[asyncio.Task[None]] = set()

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
        """E-mail a player that a turn-based table waits for him ("turn") or that his time ran out
        ("timeout"), if the server has a mail server and he asked for it.  Off the table's actor."""
        store, mail_of = self.store(), self.outside.mail_of
        if self.settings.smtp_host is None or store is None or mail_of is None:
            return
        settings, table_id, game = self.settings, t.id, str(t.rules)

        async def tell() -> None:
            def read() -> MailTo | None:
                with store.engine.connect() as conn:
                    return mail_of(conn, user_id)

            found = await asyncio.to_thread(read)
            if found is None:
                return
            email, notify, lang, name = found
            if notify and email:
                await mail.send(
                    settings, mail.message(settings, email, lang or settings.default_lang, kind, name, table_id, game)
                )

        task = asyncio.get_running_loop().create_task(tell(), name=f"mail-{t.id}")
        self._background.add(task)  # held until done: a task nobody holds may be collected mid-way
        task.add_done_callback(self._background.discard)
