"""What the events refuse: a director's form that breaks a rule, changes after the start, registrations."""

from ...core.words import N_, NN_
from ..common.errors import CONFLICT, FORBIDDEN, LIMITED, MISSING, refusal

NOT_FOUND = refusal("event-not-found", N_("there is no event at this address"), MISSING)
NOT_AN_EVENT_TABLE = refusal("event-table-not-found", N_("this table is not an event's"), MISSING)

# The director's form.
NAME_NEEDED = refusal("event-name-needed", N_("choose a name for the event"))
NAME_LENGTH = refusal("event-name-length", N_("an event's name has {lo} to {hi} characters"))
NAME_CHARACTERS = refusal(
    "event-name-characters", N_("an event's name holds letters, digits, spaces and punctuation only")
)
ROUNDS_RANGE = refusal("event-rounds-range", N_("the number of rounds is a whole number from {lo} to {hi}"))
TABLES_RANGE = refusal("event-tables-range", N_("the number of tables is a whole number from {lo} to {hi}"))
DEALS_RANGE = refusal("event-deals-range", N_("the number of deals a round is a whole number from {lo} to {hi}"))
START_FORMAT = refusal(
    "event-start-format",
    N_("give the start as a date and time, such as 2026-12-31T20:00:00+00:00, or none to start it yourself"),
)
START_PASSED = refusal("event-start-passed", N_("the start time has passed: choose a later one"))
START_TOO_FAR = refusal("event-start-too-far", N_("an event starts within {n} days"))
UNKNOWN_FORMAT = refusal("event-unknown-format", N_("unknown event format '{fmt}'; choose from: {formats}"))
ONE_MATCH_ONE_ROUND = refusal(
    "event-one-match-one-round",
    N_(
        "the one-match format plays a single round: every table plays one match on the "
        "same deals (asked for {rounds} rounds)"
    ),
)
CLOCK_NEEDED = refusal("event-clock-needed", N_("an event's tables always play with the clock: choose a pace"))
CLUB_OWNER_OR_ADMIN = refusal(
    "event-club-owner-or-admin", N_("only the club's owner or an admin may create its events"), FORBIDDEN
)

# The director's changes.
DIRECTOR_ONLY = refusal("event-director-only", N_("only the event's director may do that"), FORBIDDEN)
NOTHING_TO_CHANGE = refusal(
    "event-nothing-to-change",
    N_(
        "nothing to change: give the name, the game, the format, "
        "the tables, the deals, the pace, the computer players or "
        "the start"
    ),
)
CHANGED_MEANWHILE = refusal(
    "event-changed-meanwhile", N_("the event was changed meanwhile: look at it again, then make your change"), CONFLICT
)
TOO_MANY_REGISTERED = refusal(
    "event-too-many-registered",
    NN_(
        "{n} player is registered, more than the {room} places of the tables you ask for: "
        "choose more tables, or an open registration",
        "{n} players are registered, more than the {room} places of the tables you ask "
        "for: choose more tables, or an open registration",
    ),
    CONFLICT,
)
WHOSE_REGISTRATION = refusal("event-whose-registration", N_("say whose registration to remove"))
PLAYER_NOT_REGISTERED = refusal("event-player-not-registered", N_("{name} is not registered for this event"), CONFLICT)
WHOSE_REPLACEMENT = refusal("event-whose-replacement", N_("say which player a computer replaces"))
REPLACE_WHILE_RUNNING = refusal(
    "event-replace-while-running", N_("a player is replaced by a computer only while the event is played"), CONFLICT
)
REPLACED_ALREADY = refusal("event-replaced-already", N_("{name} has left already: a computer plays his seat"), CONFLICT)

# Pausing and resuming (the director, once the event runs).
PAUSE_WHILE_RUNNING = refusal(
    "event-pause-while-running", N_("an event is paused or resumed only while it is played"), CONFLICT
)
PAUSED_ALREADY = refusal("event-paused-already", N_("the event is paused already"), CONFLICT)
NOT_PAUSED = refusal("event-not-paused", N_("the event is not paused"), CONFLICT)
PAUSE_REASON = refusal("event-pause-reason", N_("say why in {most} characters at most, or say nothing"))

# The event's course.
CANCELLED = refusal("event-cancelled", N_("this event was cancelled"), CONFLICT)
STARTED_NO_CHANGE = refusal(
    "event-started-no-change", N_("this event has started: it can no longer be changed"), CONFLICT
)
STARTED_ALREADY = refusal("event-started-already", N_("this event has started already"), CONFLICT)
NOBODY_REGISTERED = refusal("event-nobody-registered", N_("nobody has registered: the event cannot start"), CONFLICT)
ROOM_FOR = refusal("event-room-for", N_("this event has room for {n} players"), CONFLICT)
OVER = refusal("event-over", N_("this event is over"), CONFLICT)

# The limits (issue 42): events made per day, and the director's computer players.
EVENTS_PER_DAY = refusal(
    "too-many-events-today",
    NN_(
        "you have created {limit} events in the last 24 hours, the most one player may; try again in {n} hour",
        "you have created {limit} events in the last 24 hours, the most one player may; try again in {n} hours",
    ),
    LIMITED,
)
EVENTS_PER_ADDRESS = refusal(
    "too-many-events-from-address",
    NN_(
        "{limit} events were created from your address in the last 24 hours, the most allowed; try again in {n} hour",
        "{limit} events were created from your address in the last 24 hours, the most allowed; try again in {n} hours",
    ),
    LIMITED,
)
PAGE_NUMBER = refusal("event-list-page", N_("a page of the list is a whole number from 0 to {hi}"))
COMPUTER_TABLES = refusal(
    "event-computer-tables",
    N_(
        "this round needs computer players at {need} tables, and its director already runs {running} of the "
        "{limit} tables with computer players one player may run at once: finish or end some of them, then start "
        "again"
    ),
    LIMITED,
)

# Registering and leaving.
REGISTRATION_CLOSED = refusal(
    "event-registration-closed", N_("this event has started: registration is closed"), CONFLICT
)
REGISTERED_ALREADY = refusal("event-registered-already", N_("you are registered for this event already"), CONFLICT)
FULL = refusal("event-full", N_("this event is full: it has room for {n} players"), CONFLICT)
BUSY_ELSEWHERE = refusal(
    "event-busy-elsewhere", N_("you are playing in another event now: register once it is over"), CONFLICT
)
NOT_REGISTERED = refusal("event-not-registered", N_("you are not registered for this event"), CONFLICT)
