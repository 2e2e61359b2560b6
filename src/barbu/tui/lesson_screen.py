""" "Learn to play" at the terminal: the guided first deal (`barbu.guide.lesson`) on the real table.

The lesson screen is the Barbu table (`TableScreen`, on the shared loop of `CardTableScreen`) with a lesson
behind it instead of a match: the other seats play the lesson's script at the table's pace, the learner's
decision box shows the step's explanation, a wrong card is refused with the step's lesson (and the
engine's reason when the card is not even legal), and at the end a dialog offers the next lesson, a real
match against the computer, or the way back.  The setup screen opens it ("Learn to play"), and
`barbu.tui.learn` runs it alone (``barbu learn``).
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..classic.view import View
from ..core.errors import BarbuError
from ..core.words import N_
from ..guide.lesson import KEYS, SEAT, LessonPlay, Refusal
from ..i18n import _, current, number, word_error, words
from ..play.labels import rules_info, typed_action
from .one_deal import OneDealSession
from .table import TableScreen
from .table_base import sentence

LEARN_TITLE = N_("Learn to play")


class LessonRefused(BarbuError):
    """The learner's choice, refused by the lesson: the table shows it as it shows any refusal."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.code)
        self.refusal = refusal


class LessonSession(OneDealSession):
    """A lesson behind the table, with the calls the table makes of a `Session`; nothing is saved."""

    save_path = None
    compare = None  # a lesson is not compared with the expert

    def __init__(self, key: str) -> None:
        self.key = key
        self.play = LessonPlay(key)
        self.match = self.play.match
        self.seat = SEAT
        self.agents = {s: _Scripted(self.play, s) for s in range(self.match.n) if s != SEAT}

    @property
    def players(self) -> int:
        return self.match.n

    @property
    def moves(self) -> int:
        return len(self.match.history)

    @property
    def is_over(self) -> bool:
        return self.play.finished

    def view(self) -> View:
        return self.match.view(self.seat)

    def to_act(self) -> int | None:
        """None once the lesson is over: the table then shows its end (`LessonScreen._show_match_over`)."""
        return None if self.play.finished else self.match.to_act()

    def human_to_act(self) -> bool:
        return self.play.learner_to_act()

    def bot_view(self, seat: int) -> View:
        return self.match.view(seat)

    def apply_bot(self, seat: int, action: Any) -> None:
        self.play.apply_other(seat, action)

    def apply_human(self, choice: Any) -> Any:
        """The learner's choice (typed in his language, or picked): taken, or `LessonRefused`."""
        try:
            # typed in his words, the players by their places ("contre ouest nord"), as at a real table
            action = typed_action(self.match, choice, SEAT, self.match.n) if isinstance(choice, str) else choice
        except BarbuError as e:  # not read in the learner's words: refused, with the step's lesson
            raise LessonRefused(self.play.refuse(str(choice), e)) from None
        refusal = self.play.act(action)
        if refusal is not None:
            raise LessonRefused(refusal)
        return action

    def play_chance(self) -> Any:
        raise NotImplementedError("a lesson deals its cards itself")  # the table never asks: no seat is chance

    def take_back(self, skip_forced: bool = False) -> int:
        raise BarbuError(_("a lesson takes nothing back: choose again"))


class _Scripted:
    """The move a lesson gives another seat, asked for the way the table asks a computer player."""

    def __init__(self, play: LessonPlay, seat: int) -> None:
        self.play, self.seat = play, seat

    def act(self, view: View) -> Any:
        return self.play.move_for(self.seat)


class LessonOver(ModalScreen[str]):
    """The lesson's closing words; dismissed with "next", "match" or "back"."""

    DEFAULT_CSS = "LessonOver { align: center middle; }"

    BINDINGS = [("escape", "choose('back')", N_("Back"))]

    def __init__(self, title: str, body: str, has_next: bool) -> None:
        super().__init__()
        self.title_text, self.body, self.has_next = title, body, has_next

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="dialog-title")
            yield Static(self.body, id="dialog-text")
            with Horizontal(id="dialog-buttons"):
                if self.has_next:
                    yield Button(_("Next lesson"), id="next", variant="primary")
                yield Button(_("Start a real match"), id="match", variant="success" if self.has_next else "primary")
                yield Button(_("Back"), id="back")

    def on_mount(self) -> None:
        self.query_one("#next" if self.has_next else "#match", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "back")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


class LessonScreen(TableScreen):
    """The table of a lesson; dismissed with "match" (start a real match) or None (back)."""

    session: LessonSession

    def __init__(self, key: str = KEYS[0], delay: float = 0.6) -> None:
        super().__init__(LessonSession(key), delay, confirm_forced=True)  # every step is the learner's own
        self.shown = ""  # the lesson's words on screen, kept while the other seats play

    def on_mount(self) -> None:
        super().on_mount()
        self.add_class("lesson")

    # ---------------------------------------------------------------- what the lesson adds to the table
    def heading(self) -> str:
        """ "Lesson 2 of 4", the lesson's place in the course."""
        return _("Lesson {n} of {total}").format(n=number(KEYS.index(self.session.key) + 1), total=number(len(KEYS)))

    def _draw_title(self, v: View, ended: Any) -> None:
        title = f"{_(LEARN_TITLE)} · {self.heading()}"
        self.query_one("#title", Static).update(f"[b]barbu[/b] — {escape(title)}")

    def _draw_decision(self, v: View) -> None:
        """The decision box says the lesson: the step's explanation, kept on screen while the others play."""
        super()._draw_decision(v)
        play = self.session.play
        self.query_one("#decision").border_title = _(play.lesson.title)
        mine = play.learner_to_act() or play.finished
        if mine or not self.shown:
            self.shown = play.message().worded(words())
        text = "[b]" + escape(self.shown) + "[/b]" if mine else escape(self.shown)
        if self.thinking is not None:
            text = (
                "[dim]"
                + escape(
                    _("{who} ({player}) is playing…").format(
                        who=self.seat_cap(self.thinking), player=self.session.player_kind(self.thinking)
                    )
                )
                + "[/]\n"
                + text
            )
        self.query_one("#prompt", Static).update(text)

    # ---------------------------------------------------------------- refusals, hints, the end
    def submit(self, choice: Any) -> bool:
        """As at the table, but a refusal says the step's lesson, after the engine's reason if it was illegal."""
        play = self.session.play
        play.refusal = None
        done = super().submit(choice)
        refusal = play.refusal
        if not done and refusal is not None:
            lesson = refusal.lesson.worded(words())
            if refusal.error is not None:
                lesson = sentence(word_error(refusal.error, current())) + " " + lesson
            self.say(lesson, error=True)
        return done

    def action_hint(self) -> None:
        """The hint of a lesson is its step's explanation, not a computer player's opinion."""
        play = self.session.play
        if play.learner_to_act():
            self.notify(play.lesson.steps[play.step].why.worded(words()), timeout=8, markup=False)

    def _show_match_over(self) -> None:
        self.paused = True
        play = self.session.play
        nxt = play.state().next_lesson
        self.redraw()

        def chosen(what: str | None) -> None:
            if what == "next" and nxt is not None:
                self.load(nxt)
            else:
                self.dismiss("match" if what == "match" else None)

        title = self.heading() + " — " + _(play.lesson.title)
        self.app.push_screen(LessonOver(title, escape(play.lesson.done.worded(words())), nxt is not None), chosen)

    def load(self, key: str) -> None:
        """Go on with lesson ``key`` at the same table (every lesson seats four, the learner at seat 0)."""
        self.session = LessonSession(key)
        self.info = rules_info(str(self.session.match.rules))
        self.paused = False
        self.ended = []
        self.recent.clear()
        self.decision_at = -1
        self.shown = ""
        self.say("")
        self.redraw()
        self.advance()
