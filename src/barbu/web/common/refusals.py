"""The refusals more than one domain of the web gives (each domain's own are in its ``refusals.py``)."""

from ...core.words import N_
from .errors import BAD, UNAVAILABLE, refusal

SERVER_STARTING = refusal("server-starting", N_("the server is starting; try again in a moment"), UNAVAILABLE)
UNKNOWN_STRENGTH = refusal("unknown-strength", N_("unknown computer player '{strength}'; choose from: {strengths}"),
                           BAD)
