"""The core's messages: malformed cards, suits, ranks and chance events (codes and English msgids)."""

from .words import N_, message

NOT_A_CARD = message(
    "not-a-card",
    N_("{text!r} is not a card: write a rank (2-9, T or 10, J, Q, K, A) and a suit (S, H, D, C), like QH or 10s"),
)
HAND_NEEDS_FOUR_SUITS = message(
    "hand-needs-four-suits", N_("{text!r}: a hand in suit form needs four suits separated by dots")
)
HAND_BAD_RANK = message("hand-bad-rank", N_("{text!r}: {char!r} is not a rank"))
NOT_A_SUIT = message("not-a-suit", N_("{text!r} is not a suit: write S, H, D, C (or spades, hearts, diamonds, clubs)"))
NOT_A_RANK = message("not-a-rank", N_("{text!r} is not a rank: write 2-9, T (or 10), J, Q, K or A"))
EMPTY_CHANCE = message("empty-chance", N_("an empty chance event"))
DEAL_HAND_COUNT = message("deal-hand-count", N_("a deal lists {players:count} hands, this one lists {n:count}"))
NOT_A_CHANCE = message("not-a-chance", N_("{text!r} is not a chance event (draw … or deal …)"))

# Shared by every game's state machine.
MATCH_OVER = message("match-over", N_("the match is over"))
NOTHING_TO_UNDO = message("nothing-to-undo", N_("there is nothing to undo"))
NOT_YOUR_TURN = message("not-your-turn", N_("it is not your turn: waiting for {seat:seat}"))
NOT_YOUR_TURN_CHANCE = message("not-your-turn-chance", N_("it is not your turn: waiting for chance"))
NOT_A_CARD_NUMBER = message("not-a-card-number", N_("{action} is not a card"))
YOU_DO_NOT_HOLD = message("you-do-not-hold", N_("you do not hold {card:card}"))
YOU_DO_NOT_HOLD_CARDS = message("you-do-not-hold-cards", N_("you do not hold {cards:cards}"))
NO_CHANCE_DUE = message("no-chance-due", N_("no chance event is due now"))
