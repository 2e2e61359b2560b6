"""What the accounts refuse: names and passwords that break a rule, log-ins, one-time links."""

from ...core.words import N_, NN_
from ..common.errors import CONFLICT, FORBIDDEN, GONE, LIMITED, MISSING, UNAUTHORIZED, refusal
from ..common.refusals import NAME_OF_COMPUTERS  # noqa: F401  (shared with the tables' display names)

# A sign-up's name.
NAME_NEEDED = refusal("user-name-needed", N_("choose a user name"))
NAME_TOO_LONG = refusal("user-name-too-long", N_("a user name has at most {n} characters"))
NAME_TOO_SHORT = refusal("user-name-too-short", N_("a user name has at least {n} characters"))
NAME_CHARACTERS = refusal("user-name-characters", N_("a user name may hold letters, digits, spaces and - _ . ' only"))
NAME_FIRST_CHARACTER = refusal("user-name-first-character", N_("a user name begins with a letter or a digit"))
NAME_MIXED_ALPHABETS = refusal(
    "user-name-mixed-alphabets", N_("a user name is written in one alphabet, not a mix of several")
)
NAME_TAKEN = refusal("user-name-taken", N_("the name {name} is taken; choose another"), CONFLICT)
NAME_LOOKALIKE = refusal(
    "user-name-lookalike", N_("the name {name} looks too much like a player's name; choose another"), CONFLICT
)

# A password.
PASSWORD_TOO_SHORT = refusal("password-too-short", N_("a password has at least {n} characters"))
PASSWORD_TOO_LONG = refusal("password-too-long", N_("a password has at most {n} characters"))
PASSWORD_IS_NAME = refusal("password-is-name", N_("choose a password other than your user name"))
PASSWORD_COMMON = refusal(
    "password-common", N_("this password is among the most common ones, the first an intruder tries: choose another")
)
PASSWORD_PATTERN = refusal(
    "password-pattern",
    N_("this password is a repeat, a sequence or a row of keys, guessed at once: choose another"),
)
PASSWORD_EASY = refusal(
    "password-easy",
    N_("this password is too easy to guess: make it longer, for instance a few words you will remember"),
)
WRONG_PASSWORD = refusal("wrong-password", N_("that is not your current password"), FORBIDDEN)

# Logging in.
WRONG_LOG_IN = refusal("wrong-log-in", N_("wrong user name or password"), UNAUTHORIZED)
TOO_MANY_FAILURES = refusal(
    "too-many-failed-log-ins",
    NN_("too many failed log-ins: try again in {n} minute", "too many failed log-ins: try again in {n} minutes"),
    LIMITED,
)
TOO_MANY_FAILURES_SECONDS = refusal(
    "too-many-failed-log-ins-seconds",
    NN_("too many failed log-ins: try again in {n} second", "too many failed log-ins: try again in {n} seconds"),
    LIMITED,
)
HASHING_BUSY = refusal("log-ins-busy", N_("the server is checking many passwords: try again in a few seconds"), LIMITED)
ACCOUNT_CLOSED = refusal("account-closed", N_("this account is closed by the server's operator"), FORBIDDEN)

# A one-time password link.
RESET_LINK_GONE = refusal(
    "reset-link-gone", N_("this link has expired or was used already: ask the server's operator for another"), GONE
)

# E-mail: confirming an address, the day's budgets, unsubscribing, "forgot your password" (accounts/email.py).
CONFIRM_LINK_GONE = refusal(
    "confirm-link-gone",
    N_("this confirmation link has expired or was used already: send another from your account page"),
    GONE,
)
NOTHING_TO_CONFIRM = refusal("nothing-to-confirm", N_("this account has no address waiting for confirmation"), CONFLICT)
MAIL_BUDGET_SPENT = refusal(
    "mail-budget-spent",
    N_("no more e-mails can be sent to this address or for this account today: try again tomorrow"),
    LIMITED,
)
UNSUBSCRIBE_LINK_UNKNOWN = refusal(
    "unsubscribe-link-unknown",
    N_("this link is not one of this server's, or its address has left the account already: nothing was changed"),
    MISSING,
)
TOO_MANY_RESET_REQUESTS = refusal(
    "too-many-password-requests",
    N_("too many requests for a new password from your address today: try again tomorrow"),
    LIMITED,
)
