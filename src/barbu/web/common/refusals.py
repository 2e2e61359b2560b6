"""The refusals more than one domain of the web gives (each domain's own are in its ``refusals.py``)."""

from ...core.words import N_
from .errors import BAD, UNAVAILABLE, refusal

SERVER_STARTING = refusal("server-starting", N_("the server is starting; try again in a moment"), UNAVAILABLE)
#: The database or the broker out of reach for a moment (`barbu.web.routes.outageguard`).
OUT_OF_REACH = refusal(
    "out-of-reach", N_("the server cannot reach its storage for a moment; try again shortly"), UNAVAILABLE
)
UNKNOWN_STRENGTH = refusal(
    "unknown-strength", N_("unknown computer player '{strength}'; choose from: {strengths}"), BAD
)
#: A person's name (an account's, or a guest's at a table) that could be read as a computer player's.
NAME_OF_COMPUTERS = refusal("name-of-computers", N_("the name '{name}' is kept for computer players; choose another"))
