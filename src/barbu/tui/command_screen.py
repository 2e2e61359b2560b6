"""What every table screen shares: the command line under the table."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.screen import Screen

from .widgets import CommandInput


class CommandScreen(Screen):
    """A table with a command line: Enter on an empty line acts on what the cursor is on, a known word
    (``COMMANDS``: word → the action of its key) runs that action, and any other text is a move to play."""

    COMMANDS: dict[str, str] = {}

    @on(CommandInput.Submitted)
    async def on_command(self, event: CommandInput.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if not text:
            self.activate()
            return
        command = self.COMMANDS.get(" ".join(text.lower().split()))
        if command:
            await self.run_action(command)
            return
        self.submit(text)

    def activate(self) -> None:
        """Enter on an empty command line."""
        raise NotImplementedError

    def submit(self, choice: Any) -> bool:
        """Play a move given as text or as an action; False (and the reason shown) when it is refused."""
        raise NotImplementedError
