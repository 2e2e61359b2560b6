"""What every table screen shares: the command line under the table."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.screen import Screen

from ..core.words import N_
from ..i18n import _
from .widgets import CommandInput

#: The words a person may type at any table for the commands of the keys, each with the action it runs.
#: Every word works in English; the words of the current language work as well.
COMMAND_WORDS: dict[str, str] = {
    # TRANSLATORS: typed at the table (one lowercase word or two): the commands of F1, F2, F3, F4, Ctrl+Z...
    N_("help"): "help",
    "?": "help",
    N_("rules"): "help",
    N_("last"): "last_trick",
    N_("last trick"): "last_trick",
    N_("tricks"): "last_trick",
    N_("scores"): "scoresheet",
    N_("scoresheet"): "scoresheet",
    N_("sheet"): "scoresheet",
    N_("save"): "save",
    N_("quit"): "quit",
    N_("exit"): "quit",
    N_("hint"): "hint",
    N_("undo"): "take_back",
    N_("take back"): "take_back",
}


class CommandScreen(Screen):
    """A table with a command line: Enter on an empty line acts on what the cursor is on, a known word
    (``TYPED_COMMANDS``: word → the action of its key) runs that action, and any other text is a move to play."""

    # Not COMMANDS: Textual's Screen.COMMANDS holds the command palette's providers.
    TYPED_COMMANDS: ClassVar[dict[str, str]] = {}
    # An action of COMMAND_WORDS that this table names otherwise ("scoresheet": "scores").
    ACTIONS: ClassVar[dict[str, str]] = {}
    session: Any  # the game behind the table; its save() writes the record and gives the path (None: saving is off)

    @on(CommandInput.Submitted)
    async def on_command(self, event: CommandInput.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if not text:
            self.activate()
            return
        command = self.command(" ".join(text.lower().split()))
        if command:
            await self.run_action(command)
            return
        self.submit(text)

    def command(self, word: str) -> str | None:
        """The action a typed word names (in English or the current language), None for a move."""
        if word in self.TYPED_COMMANDS:
            return self.TYPED_COMMANDS[word]
        for english, action in COMMAND_WORDS.items():
            if _(english).lower() == word:
                return self.ACTIONS.get(action, action)
        return None

    def action_clear(self) -> None:
        self.query_one(CommandInput).value = ""
        self.say("")

    def action_save(self) -> None:
        try:
            path = self.session.save()
        except OSError as e:
            self.say(_("Could not save the record: {error}").format(error=e), error=True)
            return
        self.say(
            _("Saved to {path}. Resume with: barbu play --resume {path}").format(path=path)
            if path
            else _("Saving is off.")
        )

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
