"""What the puzzles refuse: an unknown puzzle, an answer given twice or to a puzzle not offered, a card that is not
one, a choice nobody has puzzles for, too many answers from one address."""

from ...core.words import N_
from ..common.errors import CONFLICT, FAILED, LIMITED, MISSING, UNAUTHORIZED, refusal

NO_PUZZLE = refusal("puzzle-not-found", N_("there is no puzzle {id}"), MISSING)
NONE_LEFT = refusal(
    "puzzle-none-left", N_("there is no puzzle left for you with these choices: choose others"), MISSING
)
ANSWERED = refusal("puzzle-answered", N_("you have answered this puzzle already: each is answered once"), CONFLICT)
NOT_OFFERED = refusal(
    "puzzle-not-offered", N_("this puzzle was not offered to you: open it first, then answer"), CONFLICT
)
NOT_A_CARD = refusal("puzzle-not-a-card", N_("answer with one of the cards you may play, e.g. {example}"))
BAD_MODE = refusal("puzzle-bad-mode", N_("a puzzle is asked for as {modes}"))
BAD_CHOICE = refusal("puzzle-bad-choice", N_("{field} is not one of the puzzles' choices"))
NOT_YOURS = refusal("puzzle-not-yours", N_("log in to play the puzzles found in your own matches"), UNAUTHORIZED)
TOO_MANY = refusal(
    "puzzle-too-many", N_("too many puzzle answers from your address: try again in {n} minutes"), LIMITED
)
TOO_MANY_GUESTS = refusal(
    "puzzle-too-many-guests", N_("too many new puzzle solvers from your address: try again in {n} minutes"), LIMITED
)
BROKEN = refusal(
    "puzzle-broken", N_("this puzzle no longer sets up its position; please tell the server's operator"), FAILED
)
