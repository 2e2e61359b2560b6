"""The guided first deal ("Learn to play"): four short scripted lessons on the real classic engine.

Each lesson is a fixed deal of the classic game (issue 30): (1) a negative contract, No queens: why you
duck and why a void is the moment to throw a queen away; (2) a doubling round: whom you may double, the
dealer who only redoubles, the obligation to double each dealer; (3) Trumps: trumps draw trumps, follow
suit, trump and overtrump when void; (4) Domino: open rows from the starting rank, build in suit, pass only
when nothing fits.  The table says what to do and why before each of the learner's decisions (a *step*),
refuses a wrong card with the step's lesson and an illegal one with the engine's refusal and the lesson,
and ends by pointing to the next lesson, and after the last to a real match.

Nothing is random: the hands are fixed, the draw for the dealer too, and the three other seats play a
script and then a simple rule that reads only their own view (`move_for`).  So a lesson is fully given by
its key and the learner's actions, and a front end without memory (the web page) can rebuild it::

    state = replay("trumps", ["contract trumps", "trump S"])   # the learner's actions so far, as text
    state.view            # the learner's view (Match.view(seat)): never another seat's hand
    state.message         # the step's explanation and what to do: a `Say` (msgid + params)
    state.your_turn       # the learner acts now (else the lesson is over)
    state.legal           # the engine's legal actions now; state.expected: the ones the lesson accepts
    state.refusal         # the last refused action: a `Refusal` (engine code or "lesson", and the lesson)
    state.finished        # the lesson is over: state.message is its closing, state.next_lesson the next key
    state.actions         # the learner's accepted actions, as text (what to send back next time)

Step by step (the terminal): ``play = LessonPlay("no-queens")``; the table plays the other seats with
``play.move_for(seat)`` and ``play.apply_other(seat, action)`` (or ``play.advance()`` does them all), and
the learner's choices with ``play.act(action)``, which returns a `Refusal` or None.  ``play.state()`` is
the same `LessonState` as `replay` gives.  Every text is a msgid of the ``guide`` catalog marked with
``N_``; ``say.worded(words)`` writes it in a language, its cards in that language's letters.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..classic.match import Match
from ..classic.view import View
from ..core.actions import NO_DOUBLE, PASS, Deal, Draw, Pass
from ..core.cards import CARDS, CardSet, parse_card
from ..core.errors import BarbuError
from ..core.words import ENGLISH, N_, Message, Words

SEAT = 0  # the learner sits at seat 0: West (1) plays after him, then North (2) and East (3)
QUIET = "classic(doubling=none, undoubled_negative=play)"  # card play alone: the doubling has its own lesson
LESSON_CODE = "lesson"  # the refusal code of a legal action that is not the lesson's
UNKNOWN_LESSON = Message("unknown-lesson", N_("there is no lesson '{key}'; the lessons are {keys:list}"))


@dataclass(frozen=True)
class Say:
    """A text to show: a msgid of the ``guide`` catalog and its raw parameters (cards as ints, by kind)."""

    text: str
    params: tuple[tuple[str, Any], ...] = ()

    def worded(self, words: Words = ENGLISH) -> str:
        return words.render(Message(LESSON_CODE, self.text), dict(self.params))


def say(text: str, **params: Any) -> Say:
    """A `Say`; card parameters may be given as text ("KD") and are kept as card ints."""
    return Say(text, tuple((k, parse_card(v) if isinstance(v, str) else v) for k, v in params.items()))


@dataclass(frozen=True)
class Step:
    """One decision of the learner: what to do and why, the actions accepted, the lesson if he errs."""

    explain: Say
    expect: tuple[str, ...]  # accepted actions in the engine's notation ("TD", "double 3", "rank 8", "pass")
    why: Say  # said with the refusal of a wrong card, legal or not


@dataclass(frozen=True)
class Lesson:
    key: str
    title: str  # msgid
    rules: str
    dealer: int
    hands: tuple[str, ...]  # seat 0 first, in the engine's card notation
    script: dict[int, tuple[str, ...]]  # each other seat's first actions; then `move_for`'s simple rule
    steps: tuple[Step, ...]
    done: Say  # the closing message


@dataclass(frozen=True)
class Refusal:
    """An action the lesson did not take: the engine's code and parameters (or "lesson"), and the lesson."""

    action: str
    code: str
    lesson: Say
    error: BarbuError | None = None  # the engine's refusal, for `word_error`; None for a legal but wrong action

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.error.params) if self.error is not None and self.error.params else {}


@dataclass(frozen=True)
class LessonState:
    lesson: str
    number: int  # 1-based, of `total`
    total: int
    title: str  # msgid
    view: View
    message: Say
    your_turn: bool
    legal: tuple[Any, ...]
    expected: tuple[Any, ...]
    refusal: Refusal | None
    finished: bool
    next_lesson: str | None
    actions: tuple[str, ...] = field(default=())


def _step(explain: Say, expect: tuple[str, ...], why: Say) -> Step:
    """A step; a text naming ``{fits:cards}`` lists every card the step accepts, taken from ``expect`` (never
    typed twice, so no card that fits is left out)."""
    fits = tuple(parse_card(a) for a in expect if _is_card_text(a))
    explain, why = (
        Say(x.text, x.params + (("fits", fits),)) if "{fits:cards}" in x.text else x for x in (explain, why)
    )
    return Step(explain, expect, why)


def _is_card_text(action: str) -> bool:
    try:
        parse_card(action)
    except (BarbuError, ValueError):
        return False
    return True


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        key="no-queens",
        title=N_("A negative contract: No queens"),
        rules=QUIET,
        dealer=2,
        hands=(
            "QS 7S 3S 2S QH 9H 6H 3H 2H AD TD 6D 4D",
            "AS KS JS TS AH KH JH TH JD 3D 2D AC KC",
            "9S 8S 6S 8H 7H KD 8D 5D QC JC TC 5C 2C",
            "5S 4S 5H 4H QD 9D 7D 9C 8C 7C 6C 4C 3C",
        ),
        script={2: ("contract no-queens", "KD", "5C"), 3: ("9D", "3C"), 1: ("2D", "KC", "AC")},
        steps=(
            _step(
                say(
                    N_(
                        "North deals and chooses No queens: each queen you take costs you 6 points, so you "
                        "want to take no trick with a queen in it. North leads {card:card}. You must follow "
                        "suit: play a diamond lower than the king ({fits:cards}), and North keeps the trick."
                    ),
                    card="KD",
                ),
                ("TD", "6D", "4D"),
                say(
                    N_(
                        "Duck: with {card:card} you would take the trick, and every queen played to it. "
                        "Play a diamond under the king."
                    ),
                    card="AD",
                ),
            ),
            _step(
                say(
                    N_(
                        "North leads {card:card} and you have no club: you may play any card. That is the "
                        "moment to throw a queen away, on a trick you cannot win. Play {one:card} or "
                        "{other:card}."
                    ),
                    card="5C",
                    one="QS",
                    other="QH",
                ),
                ("QS", "QH"),
                say(
                    N_(
                        "You have no club, so this trick cannot be yours: throw a queen on it, {one:card} or "
                        "{other:card}, before a lead in its suit makes you take it."
                    ),
                    one="QS",
                    other="QH",
                ),
            ),
            _step(
                say(
                    N_(
                        "West took your queen: 6 points against him. He leads {card:card}, and you still "
                        "have no club: throw your other queen."
                    ),
                    card="AC",
                ),
                ("QS", "QH"),
                say(N_("Another club you cannot win: get rid of your other queen now.")),
            ),
        ),
        done=say(
            N_(
                "Well played: West took your two queens and you have nothing left to fear. The rest "
                "of a negative deal goes the same way: duck under the high cards, and throw away the "
                "dangerous ones when you cannot follow suit. Next: the doubling round."
            )
        ),
    ),
    Lesson(
        key="doubling",
        title=N_("The doubling round"),
        rules="classic",
        dealer=3,
        hands=("7S 5S 3S 2S 3H 2H 6D 5D 4D 2D 6C 4C 3C", "", "", ""),
        script={3: ("contract no-hearts", "double 0"), 1: ("double 0",), 2: ("pass",)},
        steps=(
            _step(
                say(
                    N_(
                        "East deals and chooses No hearts. Before the play comes the doubling round, once "
                        "round the table from the dealer's left: you first. To double a player is to bet "
                        "that you will score better than he does in this deal; at the end the difference "
                        "between your two scores changes hands. With only {one:card} and {two:card} in "
                        "hearts your hand is safe: double East, the dealer."
                    ),
                    one="3H",
                    two="2H",
                ),
                ("double 3",),
                say(
                    N_(
                        "Your hand is safe, so double East. Besides, over a dealer's seven deals each "
                        "player must double him at least twice: a good hand is the time to do it."
                    )
                ),
            ),
            _step(
                say(
                    N_(
                        "West doubled you, North passed, and East, the dealer, redoubled you: the dealer "
                        "never doubles first, he may only redouble those who doubled him, and the stake "
                        "between you two is now twice. West doubled you after your turn, so you may still "
                        "redouble him: do it."
                    )
                ),
                ("double 1",),
                say(N_("Your hand is safe: redouble West and the difference between you two counts twice.")),
            ),
        ),
        done=say(
            N_(
                "The doubling round is over and East leads. At the end of the deal each pair that "
                "doubled settles apart: the lower score pays the higher the difference, twice when "
                "redoubled. In Trumps and Domino, the positive contracts, you may only double the "
                "dealer. Next: Trumps."
            )
        ),
    ),
    Lesson(
        key="trumps",
        title=N_("Trumps"),
        rules=QUIET,
        dealer=0,
        hands=(
            "AS QS TS 7S 4S 3S 4H 3H AD KD 5D 3D 2D",
            "JS 6S AH 8H 7H 6D 4D AC KC QC JC TC 2C",
            "9S 8S KH QH JH TH 9H QD JD TD 9D 8D 7D",
            "KS 5S 2S 6H 5H 2H 9C 8C 7C 6C 5C 4C 3C",
        ),
        script={1: ("6S", "AH", "2C"), 2: ("8S", "9H", "9S")},
        steps=(
            _step(
                say(
                    N_(
                        "This time you deal, so you choose the contract. Your long, high spades are made "
                        "for Trumps, where every trick you take scores 5 points: choose Trumps."
                    )
                ),
                ("contract trumps",),
                say(N_("This hand is made for Trumps: choose Trumps.")),
            ),
            _step(
                say(N_("Now name the trump suit: your longest and strongest, spades.")),
                ("trump S",),
                say(N_("Name spades: six of them, with the ace and the queen.")),
            ),
            _step(
                say(
                    N_(
                        "You lead. Lead {card:card}: a round of trumps draws the others' trumps, so that "
                        "later they cannot trump your winners. When trumps are led everyone must follow, "
                        "and play higher than the best trump so far if he can."
                    ),
                    card="AS",
                ),
                ("AS",),
                say(N_("Lead {card:card}: it cannot lose, and it draws three of their trumps."), card="AS"),
            ),
            _step(
                say(
                    N_(
                        "Your {card:card} took the trick. Now lead a small heart, {one:card} or {two:card}: "
                        "you give up the lead, and you have no club, so when clubs come you will trump "
                        "them."
                    ),
                    card="AS",
                    one="4H",
                    two="3H",
                ),
                ("4H", "3H"),
                say(
                    N_("Lead a small heart, {one:card} or {two:card}: keep your trumps and your diamonds for later."),
                    one="4H",
                    two="3H",
                ),
            ),
            _step(
                say(
                    N_(
                        "West won with {ace:card} and leads a club. North has no club: he must trump, and "
                        "did, with {trump:card}. You have no club either, so you must trump too, and higher "
                        "than North when you can: {card:card} is enough."
                    ),
                    ace="AH",
                    trump="9S",
                    card="TS",
                ),
                ("TS",),
                say(
                    N_("{card:card} beats North's {trump:card} and keeps your queen for later: play {card:card}."),
                    card="TS",
                    trump="9S",
                ),
            ),
        ),
        done=say(
            N_(
                "The trick is yours with {card:card}. Follow suit when you can; when you cannot, you "
                "must trump, and overtrump a trump already played. Every trick scores 5. Next: "
                "Domino."
            ),
            card="TS",
        ),
    ),
    Lesson(
        key="domino",
        title=N_("Domino"),
        rules=QUIET,
        dealer=0,
        hands=(
            "8S 8H AS KS 2S AH KH AD KD 2D AC KC 2C",
            "QS JS TS QH JH TH 9H QC JC TC 9C 8C 7C",
            "9S 7S 6S 5S 4S 3S 7H 6H 5H 4H 6C 5C 4C",
            "3H 2H QD JD TD 9D 8D 7D 6D 5D 4D 3D 3C",
        ),
        script={1: ("8C", "9C"), 2: ("9S", "7H"), 3: ("8D", "7D")},
        steps=(
            _step(
                say(
                    N_(
                        "Last contract: you deal, choose Domino. No tricks here: everyone lays his cards "
                        "in rows on the table, and the first to be rid of all his cards scores most."
                    )
                ),
                ("contract domino",),
                say(N_("For this lesson, choose Domino.")),
            ),
            _step(
                say(
                    N_(
                        "Name the starting rank of the rows: every row opens with a card of that rank. You "
                        "hold two eights: name 8."
                    )
                ),
                ("rank 8",),
                say(N_("Name 8: you hold two of them, so you can open two rows.")),
            ),
            _step(
                say(
                    N_("You lay first, and a row can only open with an 8: lay {one:card} or {two:card}."),
                    one="8S",
                    two="8H",
                ),
                ("8S", "8H"),
                say(N_("Only an 8 can open a row: lay {one:card} or {two:card}."), one="8S", two="8H"),
            ),
            _step(
                say(
                    N_(
                        "Each row grows in its suit, one rank up or down from the 8: a 9 or a 7 of a row "
                        "on the table, and so on. Another 8 opens a new row. Lay your other 8: you may not "
                        "pass while a card of yours fits."
                    )
                ),
                ("8S", "8H"),
                say(N_("Lay your other 8: it is the only card of yours that fits now.")),
            ),
            _step(
                say(N_("Nothing in your hand fits the rows now: you must pass.")),
                ("pass",),
                say(N_("No card of yours fits the rows: pass.")),
            ),
        ),
        done=say(
            N_(
                "That is Domino: lay when you can, pass only when nothing fits, and keep the cards "
                "that block the others for last. The lessons have shown {seen:count} of the {total:count} "
                "contracts; the {others:count} others are negative ones, played like No queens: duck the "
                "cards that cost. Now start a real match against the computer."
            )
        ),
    ),
)

BY_KEY = {lesson.key: lesson for lesson in LESSONS}
KEYS = tuple(BY_KEY)


def contracts_shown() -> tuple[frozenset[str], frozenset[str]]:
    """The contracts the lessons declare (in their scripts or by the learner), and those of the game they do
    not; the closing counts them rather than claiming every kind was seen."""
    shown = {
        a.split()[1]
        for x in LESSONS
        for a in (*(b for acts in x.script.values() for b in acts), *(b for st in x.steps for b in st.expect))
        if a.startswith("contract ")
    }
    every = {c.key for c in Match(QUIET, 0).contracts}
    return frozenset(shown & every), frozenset(every - shown)


def _closing(done: Say) -> Say:
    """The last lesson's closing with the contracts counted (`contracts_shown`)."""
    if "{seen:count}" not in done.text:
        return done
    shown, others = contracts_shown()
    counts = (("seen", len(shown)), ("total", len(shown) + len(others)), ("others", len(others)))
    return Say(done.text, done.params + counts)


LESSONS = tuple(replace(x, done=_closing(x.done)) for x in LESSONS)
BY_KEY = {lesson.key: lesson for lesson in LESSONS}


def lesson(key: str) -> Lesson:
    """The lesson ``key``; an unknown key is a `BarbuError` in plain words."""
    found = BY_KEY.get(key)
    if found is None:
        raise BarbuError.of(UNKNOWN_LESSON, key=str(key)[:40], keys=list(KEYS))
    return found


def next_lesson(key: str) -> str | None:
    i = KEYS.index(key)
    return KEYS[i + 1] if i + 1 < len(KEYS) else None


def deal_of(hands: tuple[str, ...]) -> Deal:
    """The hands given, the cards left dealt out to the empty ones in turn (highest first): fixed, not random."""
    masks = [CardSet.parse(h.replace(" ", ",")).mask if h else 0 for h in hands]
    rest = [c for c in reversed(CARDS) if not any(m >> c & 1 for m in masks)]
    empty = [s for s, h in enumerate(hands) if not h]
    for i, c in enumerate(rest):
        masks[empty[i % len(empty)]] |= 1 << c
    return Deal(tuple(masks))


def _top_of(cards: tuple[int, ...], trump: int | None) -> int:
    """The card winning a trick so far."""
    trumps = [c for c in cards if trump is not None and c // 13 == trump]
    led = cards[0] // 13
    return max(trumps or [c for c in cards if c // 13 == led])


def simple_move(v: View, positive: bool, penalty: int) -> Any:
    """A plain player's choice from his own view only: no script, nothing random.

    Tricks: win as cheaply as you can in a positive contract; in a negative one duck under the best card,
    throw away your worst card when void, and lead your lowest.  Domino: lay the first card that fits.
    """
    legal = v.legal
    if v.phase == "domino":
        cards = [a for a in legal if not isinstance(a, Pass)]
        return cards[0] if cards else PASS
    if v.phase == "doubling":
        return NO_DOUBLE if NO_DOUBLE in legal else legal[0]
    if v.phase != "play":
        return legal[0]
    by_rank = sorted(legal, key=lambda c: (c % 13, c))
    if not v.trick:
        return by_rank[-1] if positive else by_rank[0]
    top = _top_of(v.trick, v.trump)
    winners = [c for c in by_rank if _top_of(v.trick + (c,), v.trump) == c]
    if positive:
        return winners[0] if winners else by_rank[0]
    losers = [c for c in by_rank if c not in winners]
    if losers:
        if losers[0] // 13 == top // 13:
            return losers[-1]  # under the best card, the highest that still loses
        dangerous = [c for c in losers if penalty >> c & 1]
        return (dangerous or losers)[-1]
    return by_rank[0]


class LessonPlay:
    """One lesson under way: the engine's match, the step reached, the learner's actions, the last refusal."""

    def __init__(self, key: str) -> None:
        self.lesson = lesson(key)
        self.match = Match(self.lesson.rules, seed=0)
        cards = [0, 1, 2, 3]  # the draw for the dealer: the 2, 3, 4, 5 of spades, and the ace to the dealer
        cards[self.lesson.dealer] = 12
        self.match.apply(Draw(tuple(cards)))
        self.match.apply(deal_of(self.lesson.hands))
        self.step = 0
        self.actions: list[str] = []
        self.refusal: Refusal | None = None
        self.scripted = {seat: 0 for seat in self.lesson.script}

    # ---------------------------------------------------------------- whose turn
    @property
    def finished(self) -> bool:
        m = self.match
        return m.deal_no > 0 or (self.step >= len(self.lesson.steps) and m.to_act() == SEAT)

    def learner_to_act(self) -> bool:
        return not self.finished and self.match.to_act() == SEAT

    def other_to_act(self) -> int | None:
        """The other seat to play now, if any (None at the learner's turn and at the end)."""
        actor = self.match.to_act()
        return None if self.finished or actor is None or actor == SEAT or actor < 0 else actor

    # ---------------------------------------------------------------- the other seats
    def move_for(self, seat: int) -> Any:
        """The move of another seat: its script first (where the learner's choice left it legal), then
        `simple_move` from its own view."""
        m = self.match
        script = self.lesson.script.get(seat, ())
        k = self.scripted.get(seat, 0)
        if k < len(script):
            action = m.parse_action(script[k])
            if action in m.legal_actions():
                return action
        c = m.contract
        return simple_move(m.view(seat), bool(c and c.positive), c.penalty_mask if c else 0)

    def apply_other(self, seat: int, action: Any) -> None:
        """Play another seat's move (the one `move_for` gave)."""
        self.match.apply(action, seat=seat)
        if seat in self.scripted:
            self.scripted[seat] += 1

    def advance(self) -> None:
        """Play the other seats up to the learner's next step, or to the end of the lesson."""
        while (seat := self.other_to_act()) is not None:
            self.apply_other(seat, self.move_for(seat))

    # ---------------------------------------------------------------- the learner
    def expected(self) -> tuple[Any, ...]:
        """The legal actions the current step accepts (none at the end)."""
        if not self.learner_to_act():
            return ()
        legal = self.match.legal_actions()
        return tuple(a for a in legal if str(a) in self.lesson.steps[self.step].expect)

    def act(self, choice: Any) -> Refusal | None:
        """The learner's action (an action or its text): taken if the step accepts it, else refused."""
        m = self.match
        text = str(choice)
        if self.finished or m.to_act() != SEAT:
            self.refusal = Refusal(
                text,
                "lesson-over" if self.finished else "not-your-turn",
                self.lesson.done if self.finished else self.message(),
            )
            return self.refusal
        try:
            action = m.parse_action(choice) if isinstance(choice, str) else choice
            if action not in m.legal_actions():
                m.clone().apply(action, seat=SEAT)  # raises the engine's refusal, with its code
            text = str(action)
        except BarbuError as e:
            return self.refuse(text, e)
        if action not in self.expected():
            return self.refuse(text)
        m.apply(action, seat=SEAT)
        self.actions.append(text)
        self.step += 1
        self.refusal = None
        return None

    def refuse(self, text: str, error: BarbuError | None = None) -> Refusal:
        """Refuse the learner's ``text`` with the step's lesson: the engine's ``error`` with it if it was
        not legal (a front end that reads typed text in the learner's language refuses its misreadings here)."""
        why = self.lesson.steps[min(self.step, len(self.lesson.steps) - 1)].why
        self.refusal = Refusal(text, (error.code or "illegal") if error else LESSON_CODE, why, error)
        return self.refusal

    # ---------------------------------------------------------------- what the learner sees
    def message(self) -> Say:
        """The current step's explanation, or the lesson's closing once it is over."""
        if self.finished:
            return self.lesson.done
        return self.lesson.steps[min(self.step, len(self.lesson.steps) - 1)].explain

    def state(self) -> LessonState:
        key = self.lesson.key
        turn = self.learner_to_act()
        return LessonState(
            lesson=key,
            number=KEYS.index(key) + 1,
            total=len(KEYS),
            title=self.lesson.title,
            view=self.match.view(SEAT),
            message=self.message(),
            your_turn=turn,
            legal=tuple(self.match.legal_actions()) if turn else (),
            expected=self.expected(),
            refusal=self.refusal,
            finished=self.finished,
            next_lesson=next_lesson(key),
            actions=tuple(self.actions),
        )


def start(key: str) -> LessonPlay:
    """A lesson at the learner's first step."""
    play = LessonPlay(key)
    play.advance()
    return play


def replay(key: str, actions: list[str] | tuple[str, ...]) -> LessonState:
    """The lesson after the learner's ``actions`` (texts in the engine's notation), each taken or refused
    in turn; the state tells the last refusal, if the last action was refused."""
    play = start(key)
    for a in actions:
        play.act(a)
        play.advance()
    return play.state()


__all__ = [
    "KEYS",
    "LESSONS",
    "Lesson",
    "LessonPlay",
    "LessonState",
    "Refusal",
    "Say",
    "Step",
    "lesson",
    "next_lesson",
    "replay",
    "simple_move",
    "start",
]
