"""Error types: each says what was wrong in words a player understands."""


class BarbuError(Exception):
    """Base class of every error the package raises on purpose."""


class ParseError(BarbuError, ValueError):
    """A text (card, action, ruleset) that is not well formed."""


class IllegalAction(BarbuError):
    """A well-formed action that the rules do not allow now; the state is unchanged."""


class RulesetError(BarbuError, ValueError):
    """An unknown preset or option, or a value the option does not allow."""


class RecordError(BarbuError):
    """A match record that cannot be read; ``line`` is its 1-based line number when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class UnreadableFile(RecordError):
    """A record file that is missing, unreadable or not text: not a malformed record."""


class AgentError(BarbuError, ValueError):
    """An unknown computer player or setting, or a line-up that does not fit the table."""
