"""The Scottish game's refusals: stable codes and English msgids (worded by barbu.core.words)."""

from ..core.words import N_, message

NOT_A_PACK_DRAW = message(
    "not-a-pack-draw", N_("a card of the Unused Pack is being dealt to each player: {action} is not a draw")
)
PACK_DRAW_SHAPE = message("pack-draw-shape", N_("a draw is {n:count} different cards of the Unused Pack, one per seat"))
NOT_A_CUT = message("not-a-cut", N_("the Cutter is cutting the Unused Pack: {action} is not a cut"))
NOT_A_PASS_ON = message(
    "not-a-pass-on", N_("choose the three cards you pass on, like 'pass-on AS KH 7D', not {action}")
)
PASS_ON_THREE = message("pass-on-three", N_("you pass on exactly three cards"))
PASS_ON_NOT_IN_DECK = message("pass-on-not-in-deck", N_("you do not hold a card that is not in the deck"))
NAME_A_CALL = message("name-a-call-now", N_("the Caller must name a call, not {action}"))
UNKNOWN_CALL = message(
    "unknown-call",
    N_(
        "{call!r} is not a call: calls are aces, king, queens, hearts, tricks, "
        "groups of them like king+queens, patience and double-patience"
    ),
)
CALL_PART_PLAYED = message(
    "call-part-played", N_("{name:contract} cannot be called: part of it has already been played in this round")
)
CALL_BREAKS_GROUPS = message(
    "call-breaks-groups",
    N_(
        "{name:contract} cannot be called now: the seven calls must end up in at least two "
        "groups of two or more, or one group of three or more, and after this call that "
        "would no longer be possible"
    ),
)
CHAP_WITH_CARD = message("chap-with-card", N_("you may chap only when you cannot play: you have a card that fits"))
LAY_OUTSIDE_DECK = message("lay-outside-deck", N_("lay names cards of the deck"))
TIME_TO_LAY = message("time-to-lay", N_("it is time to lay a card, a run or a set, or chap (pass), not {action}"))
PATIENCE_ROW_NOT_OPENED = message(
    "patience-row-not-opened",
    N_("{card:card} cannot be laid: the {suit:suit} row has not been opened; it opens with its Jack"),
)
PATIENCE_NOT_NEXT = message(
    "patience-not-next", N_("{card:card} cannot be laid: a card must be next in rank to an end of its suit's row")
)
LAY_ONE = message("lay-one", N_("lay is for two or more cards at once; lay a single card by naming it"))
LAY_TO_GO_OUT = message(
    "lay-to-go-out",
    N_("in a Player Round several cards may be laid at once only to go out: they must be your whole hand"),
)
LAY_SHAPE = message(
    "lay-shape",
    N_("cards laid together must be a run in one suit or cards of one rank, each of which can be laid in turn now"),
)

# Typed actions.
NOT_A_CALL_WORD = message(
    "not-a-call-word",
    N_(
        "{text!r} is not a call: calls are aces, king, queens, hearts, tricks (join several "
        "with +, like king+queens), patience and double-patience"
    ),
)
NAME_A_CALL_TEXT = message(
    "name-a-call",
    N_("name a call: aces, king, queens, hearts, tricks, a group like king+queens, patience or double-patience"),
)
NAMED_TWICE = message("named-twice", N_("{text} is named twice"))
DRAW_TEXT = message(
    "pack-draw-text", N_("a draw lists one card of the Unused Pack per seat, like 'draw 4S Joker 2H 6C'")
)
PASS_ON_TEXT = message("pass-on-text", N_("name the three cards you pass on, like 'pass-on AS KH 7D'"))
LAY_TEXT = message("lay-text", N_("lay which cards? like 'lay 9H 8H 7H'"))
NOT_A_PACK_CARD = message(
    "not-a-pack-card", N_("{text!r} is not a card of the Unused Pack: write 2-6 and a suit (like 4S), Joker or Bridge")
)
