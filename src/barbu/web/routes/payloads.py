"""The shapes of the requests' bodies: one `msgspec.Struct` per request, decoded once (`bodies.decode`).

A field the route itself checks has its type here, and the words a browser is told when it has
another shape (`Payload.shapes`: the refusal and its fields).  A field whose value is checked by a
domain — a name's rules, a password's, a ruleset's text, a club's form — is ``Any`` here: the domain
says what is wrong with it, in its own words, as it always did.  ``UNSET`` marks a field that was not
sent at all where that differs from a null (an event's edit changes only the fields given).  Unknown
fields are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, get_args

import msgspec
from msgspec import UNSET, UnsetType

from ...core.words import Message
from ...guide.lesson import KEYS
from ..challenges import refusals as challenges_no
from ..common.errors import Refusal
from ..notices import refusals as notices_no
from ..scorebooks import keeping as K
from ..social import refusals as social_no
from . import refusals as R

CLAIM_MAX = 200  # tables one claim may name

Shape = tuple[Refusal, Mapping[str, Any]]


class Payload(msgspec.Struct):
    """A request's body (its required fields first).  ``shapes``: for each field with a type of its own, what a wrong one is refused with."""

    shapes: ClassVar[Mapping[str, Shape]] = {}

    def given(self) -> dict[str, Any]:
        """The fields that were sent (not ``UNSET``), as a plain dict: for a service that reads a form."""
        return {f: v for f in self.__struct_fields__ if (v := getattr(self, f)) is not UNSET}


class Empty(Payload):
    """A POST whose body says nothing (it is still read: its Origin, type and size are checked)."""


# -- tables
class NewTable(Payload):
    """``POST /api/tables``: a new table in the lobby."""

    rules: Any = None
    players: Any = None
    bots_by: Any = "creator"
    private: Any = None
    rated: bool = False
    turn_based: bool = False
    short: bool = False
    clock: Any | UnsetType = UNSET
    shapes = {"rated": (R.RATED_FLAG, {}), "turn_based": (R.TURN_BASED_FLAG, {}), "short": (R.SHORT_FLAG, {})}


class Play(Payload):
    """``POST /api/play``: one click, a table of computer players."""

    strength: Any | UnsetType = UNSET
    rules: Any = None
    players: Any = None
    name: Any = None
    rated: bool = False
    short: bool = False
    shapes = {"rated": (R.RATED_FLAG, {}), "short": (R.SHORT_FLAG, {})}


class Seat(Payload):
    """``POST /api/tables/{id}/seats``: a seat taken (its invitation for a private table)."""

    seat: Any | UnsetType = UNSET
    name: Any | UnsetType = UNSET
    invite: Any | UnsetType = UNSET
    creator: Any | UnsetType = UNSET


class Remove(Payload):
    """``POST /api/tables/{id}/remove``: the creator frees a seat before the start."""

    seat: Any | UnsetType = UNSET
    token: Any | UnsetType = UNSET


class Bot(Payload):
    """``POST /api/tables/{id}/bots``: a computer player seated."""

    seat: Any | UnsetType = UNSET
    strength: Any | UnsetType = UNSET
    token: Any | UnsetType = UNSET


class Leave(Payload):
    """``POST /api/tables/{id}/leave`` and ``…/end``: a player's seat and creator credentials."""

    token: Any | UnsetType = UNSET
    creator: Any | UnsetType = UNSET


class Mine(Payload):
    """``POST /api/tables/mine``: the credentials of "My tables" (the lobby checks the list)."""

    tables: Any | UnsetType = UNSET


class Upload(Payload):
    """``POST /api/replays``: a record file's text."""

    record: str = ""
    shapes = {"record": (R.NO_RECORD_FILE, {})}


# -- accounts
class Credentials(Payload):
    """Sign up and log in."""

    name: Any = None
    password: Any = None


class PasswordChange(Payload):
    old: Any = None
    new: Any = None


class Password(Payload):
    """An account's deletion, confirmed by its password."""

    password: Any = None


class Reset(Payload):
    """A one-time reset link's key and the new password."""

    key: Any = None
    password: Any = None


class Claim(Payload):
    """The finished matches a browser played as a guest: [{id, token}, …] (entries of another shape are passed over)."""

    tables: Annotated[list[Any], msgspec.Meta(max_length=CLAIM_MAX)]
    shapes = {"tables": (R.CLAIM_LIST, {"n": CLAIM_MAX})}


class ConfirmAddress(Payload):
    """A confirmation link's key (after the link's "#")."""

    key: Any = None


class Forgot(Payload):
    """ "Forgot your password": a user name or an e-mail address."""

    who: Any = None


class Notify(Payload):
    """ "Your turn" e-mails: the address, and on or off."""

    notify: bool
    email: Any = None
    shapes = {"notify": (R.NOTIFY_FLAG, {})}


# -- clubs
class ClubForm(Payload):
    """A new club, or a club's edit (only the fields given are changed)."""

    name: Any | UnsetType = UNSET
    description: Any | UnsetType = UNSET
    public: Any | UnsetType = UNSET


class Key(Payload):
    """An invitation link's secret."""

    key: Any = None


class Hours(Payload):
    """An invitation's lifetime in hours (null: it never expires)."""

    hours: Any = None


class Member(Payload):
    member: Any = None


class MemberRole(Payload):
    member: Any = None
    role: Any = None


class Season(Payload):
    season: Any = None


class Named(Payload):
    """A name typed to confirm (a club's deletion) or to name a player (an event's registration removed)."""

    name: Any = None


class ClubTable(Payload):
    """A new club table (the club's service checks the flags)."""

    rules: Any = None
    players: Any = None
    clock: Any | UnsetType = UNSET
    rated: Any = False
    turn_based: Any = False


# -- events
class EventForm(Payload):
    """A new event, or a director's edit (only the fields given are changed)."""

    name: Any | UnsetType = UNSET
    rules: Any | UnsetType = UNSET
    players: Any | UnsetType = UNSET
    format: Any | UnsetType = UNSET
    rounds: Any | UnsetType = UNSET
    tables: Any | UnsetType = UNSET
    deals: Any | UnsetType = UNSET
    strength: Any | UnsetType = UNSET
    clock: Any | UnsetType = UNSET
    start: Any | UnsetType = UNSET
    club: Any | UnsetType = UNSET


class Pause(Payload):
    """An event paused by its director: why, if he says (the players read it)."""

    reason: Any = None


# -- the daily deals, learning
class DailyMove(Payload):
    """A move on one of the day's boards."""

    board: int
    move: Any = None
    shapes = {"board": (R.BOARD_NUMBER, {"example": '{"board": 0, "move": "QH"}'})}


class Lesson(Payload):
    """A lesson's key and the learner's accepted actions so far (and maybe one more to try)."""

    lesson: str = KEYS[0]
    actions: list[str] = msgspec.field(default_factory=list)
    shapes = {"lesson": (R.LESSON_KEY, {"keys": ", ".join(KEYS)}), "actions": (R.ACTIONS_LIST, {})}


# -- the scorekeeper: its refusals are the keeper's own (`barbu.web.scorebooks.keeping`), worded by the page
class ScorePayload(Payload):
    """A request of the scorekeeper's page.  ``keeper_shapes``: the keeper's refusal for a field's wrong shape."""

    keeper_shapes: ClassVar[Mapping[str, Message]] = {}


class NewScore(ScorePayload):
    rules: Any = None
    names: Any = None
    first: Any = 0
    title: Any = None
    owner: Any = None


class ImportScore(ScorePayload):
    text: Any = None
    format: Any = None
    title: Any = None
    owner: Any = None


class ScoreOwner(ScorePayload):
    owner: Any = None


class ScoreKey(ScorePayload):
    key: Any = None


class ScoreDraft(ScorePayload):
    key: Any = None
    index: int | None = None
    entry: Any = None
    keeper_shapes = {"index": K.BAD_INDEX}


class ScoreChange(ScorePayload):
    version: int
    key: Any = None
    op: Any = None
    index: Any = None
    entry: Any = None
    title: Any = None
    keeper_shapes = {"version": K.NO_VERSION}


# -- the moderation (every value checked by `barbu.web.moderation.service`, in its words)
class Report(Payload):
    """``POST /api/reports``: a player's report of what a page shows (kind, its address there, reason, words)."""

    kind: Any = None
    target: Any = None
    reason: Any = None
    text: Any = None


class ModerationAct(Payload):
    """``POST /api/moderation/act``: a moderator's action on a target, with its reason (and a mute's hours)."""

    action: Any = None
    kind: Any = None
    target: Any = None
    reason: Any = None
    hours: Any = None


class ModerationUndo(Payload):
    """``POST /api/moderation/undo``: the log's entry undone, with the reason."""

    entry: Any = None
    reason: Any = None


class WarningRead(Payload):
    """``POST /api/moderation/me/read``: the player has read his warning."""

    warning: Any = None


# -- notifications (`barbu.web.notices`)
class NoticeRead(Payload):
    """``POST /api/notices/read``: one notification read (its id), or all of them (null)."""

    id: int | None = None
    shapes = {"id": (notices_no.NOTICE_ID, {})}


class NoticeSwitch(Payload):
    """``POST /api/notices/settings``: one kind's switches, push and e-mail."""

    kind: Any = None
    push: bool = True
    mail: bool = False
    shapes = {"push": (notices_no.SWITCH_FLAG, {}), "mail": (notices_no.SWITCH_FLAG, {})}


class PushSubscription(Payload):
    """``POST``/``DELETE /api/push/subscribe``: a browser's PushSubscription.toJSON() (DELETE: its endpoint)."""

    endpoint: Any = None
    keys: Any = None


# -- friends and blocks (routes/social.py)
class PlayerName(Payload):
    """``POST /api/friends/follow`` (and ``unfollow``, ``/api/blocks/block``, ``unblock``): the player named."""

    name: Any = None


class PresenceSetting(Payload):
    """``POST /api/presence``: whether the account hides its presence (everyone else sees it offline)."""

    hidden: bool = False
    shapes = {"hidden": (social_no.PRESENCE_FLAG, {})}


def _loose(annotation: Any) -> bool:
    """Whether a field takes any JSON value (its checks are a domain's)."""
    return annotation is Any or Any in get_args(annotation)


# -- challenges (routes/challenges.py)
class NewChallenge(Payload):
    """``POST /api/challenges``: the players challenged (names), the game as the new-table form gives it, its
    clock, rated or not, and whether computer players take the seats left."""

    players: Any = None
    rules: Any = None
    seats: Any = None
    short: bool = False
    clock: Any = "normal"
    turn_based: bool = False
    rated: bool = False
    bots: bool = False
    shapes = {
        "short": (R.SHORT_FLAG, {}),
        "turn_based": (R.TURN_BASED_FLAG, {}),
        "rated": (R.RATED_FLAG, {}),
        "bots": (challenges_no.BOTS_FLAG, {}),
    }


def _check_shapes() -> None:
    """Every field with a type of its own says what its wrong shape is refused with: nothing falls to a default."""

    def every(cls: type[Payload]) -> list[type[Payload]]:
        return [cls] + [s for sub in cls.__subclasses__() for s in every(sub)]

    for cls in every(Payload):
        words = cls.keeper_shapes if issubclass(cls, ScorePayload) else cls.shapes
        for f in msgspec.structs.fields(cls):
            if not _loose(f.type) and f.name not in words:
                raise TypeError(f"{cls.__name__}.{f.name}: no refusal for a wrong shape")


_check_shapes()
