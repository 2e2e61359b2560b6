"""The agent protocol, and computer players by name.

An agent gets a seat's view (which holds the legal actions) and returns one
of them.  A name may carry settings, e.g. ``search(samples=20, seconds=0.5)``.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from ..core.errors import AgentError
from ..classic.view import View


class Agent(Protocol):
    name: str

    def act(self, view: View) -> Any:
        """Choose one of ``view.legal``.  The view is all the agent may know."""
        ...


#: The computer players by name, weakest first.  Front ends offer these as strengths.
AGENT_KINDS: tuple[str, ...] = ("random", "rule", "search")

#: Computer players from other packages are named ``kind:argument`` (``policy:trained.npz``): the kind is an
#: entry point of this group, a function ``(argument, seed, game)`` returning an agent, where ``game`` is
#: ``"barbu"`` or ``"besigue"`` (the training adapters install ``policy``: `barbu.rl.policy`).
PLUGIN_GROUP = "barbu.agents"

_SPEC = re.compile(r"^\s*([a-z]+)\s*(?:\((.*)\))?\s*$")
_SETTINGS = {"samples": int, "seconds": float, "exact_tricks": int}


def plugin_factory(kind: str) -> Any:
    """The installed factory of a ``kind:argument`` computer player, or None."""
    from importlib.metadata import entry_points
    for ep in entry_points(group=PLUGIN_GROUP):
        if ep.name == kind:
            return ep.load()
    return None


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``search(samples=20)`` → ("search", {"samples": 20}); ``policy:p.npz`` → ("policy", {"argument": "p.npz"});
    errors name what was wrong."""
    kind, colon, argument = spec.partition(":")
    if colon and re.fullmatch(r"[a-z]+", kind.strip().lower()):
        kind = kind.strip().lower()
        if not argument.strip():
            raise AgentError(f"{kind}: needs an argument after the colon, e.g. {kind}:trained.npz")
        if plugin_factory(kind) is None:
            raise AgentError(f"unknown computer player {kind!r}: no installed package provides it "
                             f"(policy: comes with barbu's rl extra)")
        return kind, {"argument": argument.strip()}
    m = _SPEC.match(spec.lower())
    if not m:
        raise AgentError(f"cannot read the computer player {spec!r}; write a name such as "
                         f"{', '.join(AGENT_KINDS)}, optionally with settings: search(samples=20)")
    kind, body = m.group(1), m.group(2)
    if kind not in AGENT_KINDS:
        raise AgentError(f"unknown computer player {kind!r}; choose from: {', '.join(AGENT_KINDS)}")
    settings: dict[str, Any] = {}
    if body and body.strip():
        if kind != "search":
            raise AgentError(f"the {kind} player takes no settings")
        for part in body.split(","):
            key, eq, value = part.partition("=")
            key = key.strip()
            if not eq or key not in _SETTINGS:
                raise AgentError(f"unknown setting {part.strip()!r} for the search player; "
                                 f"settings are: {', '.join(_SETTINGS)}")
            try:
                settings[key] = _SETTINGS[key](value.strip())
            except ValueError:
                raise AgentError(f"{key} must be a number, not {value.strip()!r}") from None
            if settings[key] <= 0 and key != "exact_tricks":
                raise AgentError(f"{key} must be positive")
    return kind, settings


def is_computer_player(spec: str) -> bool:
    """A strength front ends may offer: one of ``AGENT_KINDS``, or an installed ``kind:argument`` player."""
    if spec in AGENT_KINDS:
        return True
    try:
        return "argument" in parse_agent_spec(spec)[1]
    except AgentError:
        return False


def make_agent(kind: str, seed: int | None = None) -> Agent:
    """An agent by name (one of ``AGENT_KINDS``, with optional settings), seeded so that matches replay."""
    from .random_agent import RandomAgent
    from .rule import RuleAgent
    from .search import SearchAgent
    name, settings = parse_agent_spec(kind)
    if "argument" in settings:
        return plugin_factory(name)(settings["argument"], seed, "barbu")
    if name == "random":
        return RandomAgent(seed)
    if name == "rule":
        return RuleAgent(seed)
    return SearchAgent(seed, **settings)
