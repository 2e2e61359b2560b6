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
    session: Any  # the game behind the table; its save() writes the record and gives the path (None: saving is off)

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

    def action_clear(self) -> None:
        self.query_one(CommandInput).value = ""
        self.say("")

    def action_save(self) -> None:
        try:
            path = self.session.save()
        except OSError as e:
            self.say(f"Could not save the record: {e}", error=True)
            return
        self.say(f"Saved to {path}. Resume with: barbu play --resume {path}" if path else "Saving is off.")

    async def action_quit(self) -> None:
        await self.app.action_quit()

    def activate(self) -> None:
        """Enter on an empty command line."""
        raise NotImplementedError

    def say(self, text: str, error: bool = False) -> None:
        """A line under the table: a note, or a refusal in the engine's words."""
        raise NotImplementedError

    def submit(self, choice: Any) -> bool:
        """Play a move given as text or as an action; False (and the reason shown) when it is refused."""
        raise NotImplementedError
