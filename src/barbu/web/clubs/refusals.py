"""What the clubs refuse: names and descriptions that break a rule, roles, seasons, invitation links."""

from ...core.words import N_, NN_
from ..common.errors import CONFLICT, FORBIDDEN, GONE, LIMITED, MISSING, UNAUTHORIZED, refusal

# A club's name and description.
NAME_NEEDED = refusal("club-name-needed", N_("choose a name for the club"))
NAME_TOO_LONG = refusal("club-name-too-long", N_("a club's name has at most {n} characters"))
NAME_TOO_SHORT = refusal("club-name-too-short", N_("a club's name has at least {n} characters"))
NAME_CHARACTERS = refusal(
    "club-name-characters", N_("a club's name holds letters, digits, spaces and punctuation only")
)
NAME_NEEDS_LETTER = refusal("club-name-needs-letter", N_("a club's name needs at least one letter or digit"))
NAME_TAKEN = refusal("club-name-taken", N_("there is already a club named {name}; choose another name"), CONFLICT)
DESCRIPTION_NOT_TEXT = refusal("club-description-not-text", N_("a club's description is a text"))
DESCRIPTION_TOO_LONG = refusal("club-description-too-long", N_("a club's description has at most {n} characters"))
NOT_A_FLAG = refusal("club-flag-not-boolean", N_('"{field}" is true or false'))
TOO_MANY_CLUBS = refusal(
    "too-many-clubs-today",
    NN_(
        "you have created {limit} clubs today, the most one player may; try again in {n} hour",
        "you have created {limit} clubs today, the most one player may; try again in {n} hours",
    ),
    LIMITED,
)
CLUBS_FROM_ADDRESS = refusal(
    "too-many-clubs-from-address",
    NN_(
        "{limit} clubs were created from your address in the last 24 hours, the most allowed; try again in {n} hour",
        "{limit} clubs were created from your address in the last 24 hours, the most allowed; try again in {n} hours",
    ),
    LIMITED,
)

# Who sees and who may.
NOT_FOUND = refusal("club-not-found", N_("there is no club at this address"), MISSING)
NOT_A_MEMBER = refusal("club-not-a-member", N_("you are not a member of this club"), FORBIDDEN)
OWNER_OR_ADMIN_ONLY = refusal(
    "club-owner-or-admin-only", N_("only the club's owner or an admin may do that"), FORBIDDEN
)
OWNER_ONLY = refusal("club-owner-only", N_("only the club's owner may do that"), FORBIDDEN)

# The owner's and the admins' changes.
TYPE_NAME_TO_DELETE = refusal("club-delete-type-name", N_("type the club's name to delete it"))
MEMBER_NOT_FOUND = refusal("club-member-not-found", N_("{name} is not a member of this club"), MISSING)
UNKNOWN_ROLE = refusal("club-unknown-role", N_("a member's role is admin or member"))
OWNER_ROLE_FIXED = refusal(
    "club-owner-role-fixed", N_("the owner's role changes only when he hands the club over"), CONFLICT
)
REMOVE_SELF = refusal("club-remove-self", N_("to leave the club, use Leave"), CONFLICT)
OWNER_CANNOT_LEAVE = refusal(
    "club-owner-cannot-leave",
    N_("the owner cannot leave his club: hand it over to another member first, or delete it"),
    CONFLICT,
)
OWNER_ALREADY = refusal("club-owner-already", N_("you own this club already"), CONFLICT)

# Seasons and past matches.
NO_SUCH_SEASON = refusal("club-no-such-season", N_("this club has no season {season}"), MISSING)
SEASON_NUMBER_NEEDED = refusal("club-season-number-needed", N_("say which season to close, by its number"))
SEASON_NOT_CURRENT = refusal(
    "club-season-not-current", N_("season {season} is not the current season: reload the page"), CONFLICT
)
MATCHES_BEFORE = refusal(
    "club-matches-before", N_("say which matches: those finished before a moment, such as 2026-01-31T20:00:00+00:00")
)

# Invitation links and joining.
INVITE_HOURS = refusal("club-link-hours", N_("a link lasts from 1 to {n} hours, or until it is revoked"))
TOO_MANY_LINKS = refusal(
    "club-too-many-links", N_("this club has {n} links that work, the most it may: revoke one first"), LIMITED
)
LINK_NUMBER_NEEDED = refusal("club-link-number-needed", N_("say which link, by its number"))
NO_SUCH_LINK = refusal("club-no-such-link", N_("this club has no such link"), MISSING)
INVITATION_GONE = refusal(
    "club-invitation-gone", N_("this invitation link was revoked or has expired: ask the club for a new one"), GONE
)
CLUB_FULL = refusal("club-full", N_("this club has {n} members, the most a club may"), CONFLICT)

# The chat rooms of clubs and events (`barbu.web.clubs.chat`).
ROOM_LOG_IN = refusal("room-log-in", N_("log in to read and write in a club's or an event's chat"), UNAUTHORIZED)
ROOM_MEMBERS_ONLY = refusal(
    "room-members-only", N_("this chat is for the club's members, or the event's players and director"), FORBIDDEN
)
ROOM_NOTICE_DIRECTOR = refusal("room-notice-director", N_("only the event's director posts notices"), FORBIDDEN)
ROOM_NOTICE_TEXT = refusal("room-notice-text", N_("a notice is written in words, not a quick phrase"))
