"""What the moderation refuses: a report that does not make sense or comes too often, a muted player's words, the
desk to anyone but a moderator, an action without its reason."""

from ...core.words import N_, NN_
from ..common.errors import CONFLICT, FORBIDDEN, LIMITED, MISSING, refusal

# Who may write, and who may moderate.
MUTED = refusal(
    "muted", N_("a moderator has muted you until {until} (UTC): you may play, but not write for others"), FORBIDDEN
)
MUTED_UNTIL_LIFTED = refusal(
    "muted-until-lifted",
    N_("a moderator has muted you until further notice: you may play, but not write for others"),
    FORBIDDEN,
)
MODERATORS_ONLY = refusal("moderators-only", N_("only the server's moderators may do this"), FORBIDDEN)

# A player's report.
REPORT_KIND = refusal("report-kind", N_("a report is about a player, a club or an event"))
NOTHING_TO_REPORT = refusal("report-target-missing", N_("there is nothing to report at this address"), MISSING)
REPORT_SELF = refusal("report-self", N_("you cannot report yourself"))
REPORT_REASON = refusal("report-reason", N_("choose the reason for your report from the list"))
REPORT_TEXT = refusal("report-text", N_("a report's details are a text of at most {n} characters"))
TOO_MANY_REPORTS = refusal(
    "too-many-reports",
    NN_(
        "you have sent {limit} reports in the last hour: try again in {n} minute",
        "you have sent {limit} reports in the last hour: try again in {n} minutes",
    ),
    LIMITED,
)

# A moderator's action.
UNKNOWN_ACTION = refusal("moderation-action-unknown", N_("there is no such action on the moderators' desk"))
NOT_FOR_KIND = refusal("moderation-action-target", N_("this action does not apply to what it names"))
NO_SUCH_TARGET = refusal("moderation-target-missing", N_("what this action names does not exist"), MISSING)
REASON_NEEDED = refusal(
    "moderation-reason-needed", N_("say why: every moderator's action needs a reason of at most {n} characters")
)
MUTE_HOURS = refusal("mute-hours", N_("a mute lasts from 1 to {n} hours, or until it is lifted"))
ALREADY = refusal("moderation-already", N_("nothing to change: it is so already"), CONFLICT)
NO_OPEN_REPORTS = refusal("moderation-no-open-reports", N_("there are no open reports about this"), CONFLICT)
ON_A_MODERATOR = refusal(
    "moderation-on-moderator", N_("a moderator's account is the operator's to act on, with barbu users"), FORBIDDEN
)
NO_SUCH_ENTRY = refusal("moderation-log-missing", N_("there is no such entry in the moderators' log"), MISSING)
NOT_UNDOABLE = refusal(
    "moderation-not-undoable", N_("this entry of the log cannot be undone, or was undone already"), CONFLICT
)
NO_SUCH_WARNING = refusal("warning-missing", N_("there is no such warning"), MISSING)
