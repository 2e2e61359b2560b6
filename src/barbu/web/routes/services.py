"""The services one server's routes reach: built once by the application, put on ``app.state.services``.

A handler is a plain module-level function; what it needs (the lobby, the accounts, the daily deals …)
it finds through `services` (``request.app.state.services``), never through a closure.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, cast

from starlette.requests import HTTPConnection

from ..accounts.email import Email
from ..accounts.service import Accounts
from ..challenges.service import Challenges
from ..clubs.chat import RoomChat
from ..clubs.service import Clubs
from ..cluster.node import Cluster
from ..common.settings import Settings
from ..daily.service import Daily
from ..events.service import Events
from ..live.hub import Live
from ..moderation.service import Moderation
from ..notices.service import Notices
from ..profiles import history
from ..replay.service import Analyses
from ..scorebooks.keeping import Scorekeeping
from ..social.presence import Presence
from ..social.service import Social
from ..tables.lobby import Lobby

log = logging.getLogger("barbu.web")


@dataclass(frozen=True)
class Services:
    """Everything the routes of one server act on."""

    settings: Settings
    lobby: Lobby
    accounts: Accounts
    analyses: Analyses
    events: Events
    daily: Daily
    clubs: Clubs
    scorebooks: Scorekeeping
    mail: Email  # an account's e-mail address, its confirmation, unsubscribing, "forgot your password"
    moderation: Moderation
    live: Live  # the account channel: every open page of an account, on any process (`barbu.web.live`)
    social: Social  # follows, blocks, the presence setting (`barbu.web.social`)
    presence: Presence  # who is online, playing, away, told to followers (`barbu.web.social.presence`)
    notices: Notices  # notifications: the bell, the list, Web Push, e-mail (`barbu.web.notices`)
    rooms: RoomChat  # the clubs' and events' chat rooms (`barbu.web.clubs.chat`)
    challenges: Challenges  # a player's challenges to others (`barbu.web.challenges`)

    @property
    def cluster(self) -> Cluster | None:
        """The server's other processes, as this one's node (None: a server of one process).  The lobby knows
        them by the little it asks of them (`tables.peers.Peers`); the routes relay requests and WebSockets."""
        return cast("Cluster | None", self.lobby.cluster)


def services(conn: HTTPConnection) -> Services:
    """The server's services, for a request or a WebSocket."""
    found: Services = conn.app.state.services
    return found


def keep_costs(lobby: Lobby, analyses: Analyses) -> None:
    """Each deal of a finished table the analyses weigh: its players' profiles count what their decisions cost."""

    def keep(table_id: str, deal: int, review: dict[str, Any]) -> None:
        store = lobby.store
        if store is None:
            return

        def write() -> None:
            try:
                history.record_costs(store, table_id, deal, review)
            except Exception:  # the profile misses one deal's costs; the replay has them
                log.exception("replay %s: the costs of deal %d could not be kept", table_id, deal)

        task = asyncio.get_running_loop().create_task(asyncio.to_thread(write))
        analyses._tasks.add(task)
        task.add_done_callback(analyses._tasks.discard)

    analyses.on_review = keep
