"""What the tables refuse, each once: a stable code, the English template (the catalog's msgid) and its kind.

``raise WebError(SEAT_TAKEN, seat=2)`` refuses with one (`barbu.web.common.errors`); the routes and a
table's owner answering a relayed request give it its HTTP status by its kind.
"""

from ...core.words import N_, NN_
from ..common.errors import CONFLICT, FORBIDDEN, LIMITED, UNAVAILABLE, refusal

# A display name.
NAME_NEEDED = refusal("display-name-needed", N_("choose a display name"))
NAME_TOO_LONG = refusal("display-name-too-long", N_("a display name has at most {n} characters"))
NAME_UNPRINTABLE = refusal("display-name-unprintable", N_("a display name may hold only printable characters"))
NAME_AT_TABLE = refusal("display-name-at-table", N_("{name} is already at this table; choose another name"))

# A new table: its rules, its options, the lobby's limits.
RULES_NEEDED = refusal("rules-needed", N_("choose the rules: a preset name such as classic, optionally with options"))
BESIGUE_TWO_PLAYERS = refusal("besigue-two-players", N_("Bésigue is a game for two players"))
PLAYERS_WHOLE_NUMBER = refusal("players-whole-number", N_("the number of players is a whole number"))
PRIVATE_TRUE_OR_FALSE = refusal("private-true-or-false", N_('"private" is true or false'))
BOTS_BY_CHOICE = refusal("bots-by-choice", N_('who may add computer players: "creator" or "seated"'))
TABLES_PER_HOUR = refusal(
    "tables-per-hour",
    NN_(
        "you have created {limit} tables this hour, the most one player may; try again in {n} minute",
        "you have created {limit} tables this hour, the most one player may; try again in {n} minutes",
    ),
    LIMITED,
)
UNFINISHED_TABLES = refusal(
    "unfinished-tables-per-address",
    N_("you already have {limit} unfinished tables, the most one player may; finish or leave one first"),
    LIMITED,
)
COMPUTER_TABLES = refusal(
    "computer-tables-per-address",
    N_("you already have {limit} tables with computer players, the most one player may; finish one first"),
    LIMITED,
)
SERVER_FULL = refusal("server-full", N_("the server has as many tables as it can hold; try again later"), UNAVAILABLE)
SERVER_FULL_LISTED = refusal(
    "server-full-listed",
    N_("the server has as many tables with free seats as it can hold; try again later, or play against the computer"),
    UNAVAILABLE,
)

# The clock a new table asks for (`barbu.web.tables.clock`).
CLOCK_HELP = refusal(
    "clock-unreadable",
    N_("a clock is relaxed, normal, quick or none, or the seconds per move and in the bank, such as 20+120"),
)
CLOCK_PER_MOVE = refusal("clock-per-move", N_("a clock gives each move between {low} and {high} seconds"))
CLOCK_BANK = refusal("clock-bank", N_("a clock's bank holds at most {high} seconds"))
TURN_CLOCK_HELP = refusal(
    "turn-clock-unreadable",
    N_(
        "a turn-based table's clock is hours, day or days, or the time per move and in the bank "
        "in hours or days, such as 1d+3d or 12h+2d"
    ),
)
TURN_CLOCK_PER_MOVE = refusal(
    "turn-clock-per-move", N_("a turn-based table gives each move between 1 hour and 14 days")
)
TURN_CLOCK_BANK = refusal("turn-clock-bank", N_("a turn-based table's bank holds at most 30 days"))

# The table's actor.
TABLE_CLOSED = refusal("table-closed", N_("this table is closed"), UNAVAILABLE)
MATCH_OVER = refusal("match-over", N_("the match is over"), CONFLICT)
NO_SEAT_HERE = refusal("no-seat-here", N_("you have no seat here"))
RECORD_NOT_YET = refusal("record-not-yet", N_("the record is published when the match is over"), CONFLICT)

# Seats: taking one, the creator's say, computer players.
PRIVATE_TABLE = refusal(
    "private-table", N_("this table is private: take a seat through the invitation link its creator shared"), FORBIDDEN
)
INVITATION_NOT_VALID = refusal(
    "invitation-not-valid",
    N_("this invitation is not valid for this table: ask its creator for the link again"),
    FORBIDDEN,
)
ALREADY_SEATED = refusal("already-seated", N_("you already have a seat at this table"), CONFLICT)
RATED_NEEDS_ACCOUNT = refusal(
    "rated-table-needs-account", N_("this table is rated: log in (or make an account) to take a seat"), FORBIDDEN
)
REMOVED_BY_CREATOR = refusal(
    "removed-by-creator",
    N_("the creator of this table removed you from it: you cannot take a seat here again"),
    FORBIDDEN,
)
SEATS_PER_ADDRESS = refusal(
    "seats-per-address",
    NN_(
        "at a listed table one address may hold {n} seat; for friends who share "
        "a connection, create a private table and send them its invitation",
        "at a listed table one address may hold {n} seats; for friends who share "
        "a connection, create a private table and send them its invitation",
    ),
    LIMITED,
)
LAST_SEAT_CREATOR = refusal(
    "last-seat-for-creator",
    N_(
        "the last free seat of a listed table waits for the person who created it: the match starts only "
        "once he sits down or gives it to a computer player"
    ),
    CONFLICT,
)
NO_SUCH_SEAT = refusal("no-such-seat", N_("there is no seat {seat}: seats are 0 to {last}"))
SEATS_ALL_TAKEN = refusal("match-started-seats-taken", N_("the match has started: every seat is taken"), CONFLICT)
# the seat's number stays a parameter for machines; a person reads the seat he clicked
SEAT_TAKEN = refusal("seat-taken", N_("this seat has just been taken: choose another"), CONFLICT)
SEAT_KEPT = refusal("seat-kept-until-end", N_("the match has started: your seat is yours until it ends"))
REMOVE_CREATOR_ONLY = refusal(
    "remove-creator-only", N_("only the player who created this table may remove a player"), FORBIDDEN
)
REMOVE_AFTER_START = refusal(
    "remove-after-start", N_("the match has started: nobody can be removed from it now"), CONFLICT
)
SEAT_FREE = refusal("seat-free", N_("this seat is free: there is nobody to remove"), CONFLICT)
COMPUTERS_CREATOR_ONLY = refusal(
    "computers-creator-only", N_("only the player who created this table may give seats to computer players"), FORBIDDEN
)
COMPUTERS_SEATED_ONLY = refusal(
    "computers-seated-only",
    N_("only the player who created this table or a seated player may give seats to computer players"),
    FORBIDDEN,
)
COMPUTER_UNUSABLE = refusal("computer-player-unusable", N_("{strength}: {error}"))

# Leaving and ending from the lobby ("My tables", `barbu.web.tables.mine`).
CREDENTIALS_HOLD_NOTHING = refusal(
    "credentials-hold-nothing", N_("these credentials hold no seat at this table and did not create it"), FORBIDDEN
)
ALONE_END_INSTEAD = refusal("alone-end-instead", N_("nobody else plays at this table: end it instead"), CONFLICT)
OTHERS_LEAVE_INSTEAD = refusal(
    "others-leave-instead", N_("other people play at this table: you may leave it, not end it"), CONFLICT
)
MINE_LIST = refusal("my-tables-list", N_("send the tables as a list: {example}"))
MINE_TOO_MANY = refusal("my-tables-too-many", N_("ask about at most {n} tables at once"))
MINE_ENTRY = refusal(
    "my-tables-entry", N_('each table is an object with its "id" and the credentials this browser holds')
)
MINE_CREDENTIAL = refusal("my-tables-credential", N_("a credential is a short text"))

# Help at the table: hints, taking moves back, the expert's comparison, a rematch.
HINT_SPECTATOR = refusal("hint-spectator", N_("spectators get no hints: take a seat to play"))
HINT_RATED = refusal("hint-rated", N_("a rated match is played without hints"))
HINT_NOT_YOUR_TURN = refusal("hint-not-your-turn", N_("a hint is for your turn"))
HINT_ON_ITS_WAY = refusal("hint-on-its-way", N_("a hint is already on its way"))
HINT_STALE = refusal("hint-stale", N_("the play moved on while your hint waited; ask again"))
TAKE_BACK_SPECTATOR = refusal("take-back-spectator", N_("spectators cannot take moves back"))
TAKE_BACK_WITH_PEOPLE = refusal(
    "take-back-with-people", N_("moves can be taken back only in a match against computer players")
)
TAKE_BACK_RATED = refusal("take-back-rated", N_("a rated match is played without taking moves back"))
TAKE_BACK_NOTHING = refusal("take-back-nothing", N_("there is no move of yours in this deal to take back"))
COMPARE_TRUE_OR_FALSE = refusal("compare-true-or-false", N_("say whether to compare: true or false"))
COMPARE_ONE_PERSON = refusal(
    "compare-one-person", N_("only the one person playing against computer players is compared with the expert")
)
REMATCH_SPECTATOR = refusal("rematch-spectator", N_("only the players can ask for a rematch"))
REMATCH_TOO_EARLY = refusal("rematch-too-early", N_("the rematch comes when this match is over"))
REMATCH_UNAVAILABLE = refusal("rematch-unavailable", N_("rematches are not available here"))

# A move the game refuses before the engine sees it (`barbu.web.tables.games`): sent as the engine's are, with
# the engine's own code for the same refusal.
NOT_HELD = refusal("you-do-not-hold", N_("you do not hold that card"))

# Chat at the table (`barbu.web.tables.chat`).
CHAT_SAY_WHAT = refusal("chat-say-what", N_('a chat message is a quick phrase ("phrase") or words ("text")'))
CHAT_UNKNOWN_PHRASE = refusal("chat-unknown-phrase", N_("that is not one of the quick phrases"))
CHAT_EMPTY = refusal("chat-empty", N_("write something first"))
CHAT_TOO_LONG = refusal("chat-too-long", N_("a chat message has at most {n} characters"))
CHAT_TEXT_ACCOUNT = refusal(
    "chat-text-account", N_("guests send quick phrases only: log in to write your own words"), FORBIDDEN
)
CHAT_SPECTATOR_ACCOUNT = refusal(
    "chat-spectator-account", N_("spectators chat with an account: log in to talk with the others watching"), FORBIDDEN
)
CHAT_TOO_FAST = refusal(
    "chat-too-fast",
    NN_(
        "you are chatting too fast: wait {n} second",
        "you are chatting too fast: wait {n} seconds",
    ),
    LIMITED,
)
CHAT_NOT_SAVED = refusal(
    "chat-not-saved", N_("your message could not be saved: send it again in a moment"), UNAVAILABLE
)
CHAT_NOT_THERE = refusal(
    "chat-not-there", N_("a table's chat is read by those who were there: its players and its spectators"), FORBIDDEN
)
