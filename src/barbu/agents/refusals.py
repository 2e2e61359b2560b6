"""What naming a computer player can refuse: codes and English templates (the msgids).

`AgentError.of(MSG, **params)` carries the code and raw parameters, so a front end words the
refusal in the player's language (`barbu.i18n.word_error`); ``str(e)`` stays English.
"""

from __future__ import annotations

from ..core.words import N_, message

NEEDS_ARGUMENT = message(
    "agent-needs-argument", N_("{kind}: needs an argument after the colon, e.g. {kind}:trained.npz")
)
NO_PLUGIN = message(
    "agent-no-plugin",
    N_("unknown computer player {kind!r}: no installed package provides it (policy: comes with barbu's rl extra)"),
)
UNREADABLE = message(
    "agent-unreadable",
    N_(
        "cannot read the computer player {spec!r}; write a name such as "
        "{kinds}, optionally with settings: search(samples=20)"
    ),
)
UNKNOWN_CHOOSE = message("agent-unknown", N_("unknown computer player {kind!r}; choose from: {kinds}"))
UNKNOWN = message("agent-unknown-besigue", N_("unknown computer player {kind!r}"))
NO_SETTINGS = message("agent-no-settings", N_("the {kind} player takes no settings"))
UNKNOWN_SETTING = message(
    "agent-unknown-setting", N_("unknown setting {setting!r} for the {kind} player; settings are: {settings}")
)
NOT_A_NUMBER = message("agent-not-a-number", N_("{key} must be a number, not {value!r}"))
NOT_POSITIVE = message("agent-not-positive", N_("{key} must be positive"))
LINE_UP = message("agent-line-up", N_("{rules} is played by {n} players: give {n} computer players, not {given}"))
NO_COMPLETE_DEAL = message("agent-no-complete-deal", N_("the matches produced no complete duplicate deal"))
DEALS_AT_LEAST_ONE = message("agent-deals-at-least-one", N_("--deals must be at least 1"))
LEARNED_NEEDS_NUMPY = message(
    "agent-learned-needs-numpy",
    N_(
        "the expert's learned inference (learned=1) needs numpy: pip install 'barbu[learned]', or choose "
        "expert(learned=0)"
    ),
)
LEARNED_MISSING = message(
    "agent-learned-missing",
    N_(
        "the expert's learned inference needs numpy, which is not installed (pip install 'barbu[learned]'): "
        "the expert plays without it, as expert(learned=0) does"
    ),
)


class MissingExtraWarning(UserWarning):
    """A part of barbu that needs an extra that is not installed: said once, the game goes on without it."""
