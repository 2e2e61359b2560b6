"""The refusals of the routes themselves: a request's transport (origin, media type, size, time, shape), a
missing account, and the few checks a route makes before a service is asked.

Each is defined once, with its stable code, its English template (the catalog's msgid) and its kind;
`barbu.web.common.errors.status_of` gives the HTTP status.  The domains' own refusals are in their
packages; the few a route gives in a domain's words are imported from there.
"""

from __future__ import annotations

from ...core.words import N_, NN_
from ..common.errors import (
    BAD,
    CONFLICT,
    FAILED,
    FORBIDDEN,
    LIMITED,
    MISSING,
    TIMEOUT,
    TOO_LARGE,
    UNAUTHORIZED,
    UNAVAILABLE,
    UNSUPPORTED,
    refusal,
)
from ..common.refusals import UNKNOWN_STRENGTH as UNKNOWN_STRENGTH
from ..daily.refusals import NO_BOARD as NO_BOARD
from ..replay.refusals import NO_SUCH_DEAL as NO_SUCH_DEAL

# -- a request's body: where it comes from, its media type, its size and time, its shape
CROSS_ORIGIN = refusal("cross-origin", N_("cross-origin requests are refused"), FORBIDDEN)
NOT_JSON = refusal("not-json-type", N_("send JSON (content-type application/json)"), UNSUPPORTED)
NOT_AN_OBJECT = refusal("not-an-object", N_("the request must be a JSON object"), BAD)
TOO_LARGE_BODY = refusal("too-large", N_("the request is too large (the limit is {limit} bytes)"), TOO_LARGE)
BAD_LENGTH = refusal("bad-content-length", N_("the request's content-length is not a number"), BAD)
BODY_TOO_SLOW = refusal("body-too-slow", N_("the request's body did not arrive within {seconds} seconds"), TIMEOUT)
BODY_CUT = refusal("body-cut", N_("the request's body was cut off"), BAD)

# -- who is asking
LOG_IN = refusal("log-in", N_("log in (or make an account) to do that"), UNAUTHORIZED)
SESSION_ENDED = refusal("session-ended", N_("log in first: your session has ended"), UNAUTHORIZED)
TOO_MANY_CONNECTIONS = refusal(
    "too-many-connections",
    N_("too many connections from your address (the limit is {n}); close some tabs and reload"),
    LIMITED,
)

# -- tables
NO_TABLE = refusal("no-table", N_("there is no such table"), MISSING)
RATED_FLAG = refusal("rated-flag", N_('"rated" is true or false'), BAD)
SHORT_FLAG = refusal("short-flag", N_('"short" is true or false'), BAD)
TURN_BASED_FLAG = refusal("turn-based-flag", N_('"turn_based" is true or false'), BAD)
RATED_LOG_IN = refusal("rated-needs-account", N_("log in (or make an account) to play a rated match"), UNAUTHORIZED)
OWNER_SILENT = refusal(
    "owner-silent", N_("the table's server process did not answer; try again in a moment"), UNAVAILABLE
)
MEMBERS_ONLY_TABLES = refusal(
    "club-members-only-tables", N_("only the club's members may create its tables"), FORBIDDEN
)

# -- replays
WITHHELD = refusal(
    "replay-withheld",
    N_(
        "other tables of the event are still playing these deals: the record and the replay open when the round is over"
    ),
    CONFLICT,
)
UPLOAD_GONE = refusal("upload-gone", N_("this uploaded record is no longer kept here; upload the file again"), MISSING)
BAD_DEAL_NUMBER = refusal("bad-deal-number", N_("a deal is given by its number, not '{value}'"), BAD)
NO_RECORD_FILE = refusal("no-record-file", N_("choose a record file (.jsonl) to replay"), BAD)

# -- accounts and players
NOTIFY_FLAG = refusal("notify-flag", N_('"notify" is true or false'), BAD)
NOT_AN_EMAIL = refusal("not-an-email", N_("that is not an e-mail address"), BAD)
NO_EMAIL = refusal("no-email", N_("give the e-mail address to write to"), BAD)
NO_MAIL = refusal("no-mail", N_("this server sends no e-mails"), CONFLICT)
TOO_MANY_SIGNUPS = refusal(
    "too-many-signups", N_("too many accounts were made from your address: try again in {n} minutes"), LIMITED
)
CLAIM_LIST = refusal("claim-list", N_("send the tables to claim as a list of at most {n}"), BAD)
NO_PLAYER = refusal("no-player", N_("there is no player named {name}"), MISSING)
NO_LEADERBOARD = refusal("no-leaderboard", N_("there is no leaderboard for '{game}'; choose from: {games}"), MISSING)

# -- the daily deals
TOO_MANY_GUESTS = refusal(
    "too-many-daily-guests",
    NN_(
        "too many new guests from your address have started the daily deals; try again in {n} minute",
        "too many new guests from your address have started the daily deals; try again in {n} minutes",
    ),
    LIMITED,
)
BOARD_NUMBER = refusal("board-number", N_("send the board's number with your move, e.g. {example}"), BAD)

# -- learning to play
LESSON_KEY = refusal("lesson-key", N_("name the lesson by its key: one of {keys}"), BAD)
ACTIONS_LIST = refusal(
    "actions-list", N_('the actions must be a list of texts, such as ["contract trumps", "AS"]'), BAD
)
TOO_MANY_ACTIONS = refusal("too-many-actions", N_("a lesson takes at most {n} actions"), BAD)
ACTION_TOO_LONG = refusal("action-too-long", N_("an action is at most {n} characters long"), BAD)
LESSON_FAILED = refusal("lesson-failed", N_("the lesson could not be shown; start it again"), FAILED)
