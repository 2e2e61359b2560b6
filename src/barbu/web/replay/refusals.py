"""What the replay refuses: a match still played, a record that does not replay, a deal not there, and the
analyses and double-dummy tables it cannot give or cannot give now."""

from ...core.words import N_, NN_
from ..common.errors import BAD, CONFLICT, LIMITED, MISSING, UNAVAILABLE, refusal

NOT_OVER = refusal("replay-not-over", N_("the replay opens when the match is over"), CONFLICT)
NOT_A_RECORD = refusal("replay-not-a-record", N_("this file is not a barbu record: {reason}"), BAD)
UNPLAYABLE = refusal("replay-unplayable", N_("this record cannot be replayed: {reason}"), BAD)
NO_FINISHED_DEAL = refusal("replay-no-finished-deal", N_("this record holds no finished deal to replay"), BAD)
NO_SUCH_DEAL = refusal("no-such-deal", N_("there is no deal {deal} in this match"), MISSING)

# The analyses and the double-dummy tables.
ANALYSIS_NOT_FOR_BESIGUE = refusal(
    "analysis-not-for-besigue",
    N_("the analysis is for the Barbu games: this Bésigue match is replayed without it"),
    CONFLICT,
)
DD_NOT_FOR_BESIGUE = refusal(
    "dd-not-for-besigue", N_("the double-dummy table is for the Barbu games: this Bésigue match has none"), CONFLICT
)
DD_NOT_FOR_SCOTTISH = refusal(
    "dd-not-for-scottish", N_("the double-dummy table is not available for the Scottish game"), CONFLICT
)
ANALYSIS_BUSY = refusal(
    "analysis-busy", N_("deal {deal} of this match is being weighed; ask again when it is done"), LIMITED
)
DD_BUSY = refusal(
    "dd-busy",
    N_("the double-dummy table of deal {deal} of this match is being solved; ask again when it is done"),
    LIMITED,
)
QUEUE_FULL = refusal(
    "analysis-queue-full", N_("the server is weighing other matches; try again in a minute"), UNAVAILABLE
)
OWN_JOBS = refusal(
    "analysis-own-jobs",
    NN_(
        "you already have {n} deal being weighed; ask again when it is done",
        "you already have {n} deals being weighed; ask again when one is done",
    ),
    LIMITED,
)
