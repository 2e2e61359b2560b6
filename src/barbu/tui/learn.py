"""``barbu learn``: the guided first deal in the terminal, then a real match if the learner wants one."""

from __future__ import annotations

from textual import events

from .app import BarbuApp
from .lesson_screen import LessonScreen


class LessonApp(BarbuApp):
    """The lessons alone; at their end, a real match against the computer with the default settings, or goodbye."""

    def __init__(self, delay: float = 0.6, key: str | None = None) -> None:
        super().__init__()
        self.lesson_delay = delay
        self.first = key

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # not BarbuApp's setup screen: the lesson first
        screen = (
            LessonScreen(delay=self.lesson_delay) if self.first is None else LessonScreen(self.first, self.lesson_delay)
        )
        self.push_screen(screen, self.after_lessons)

    def after_lessons(self, what: str | None) -> None:
        if what == "match":
            self.start(self.settings)
        else:
            self.exit(0)
