"""The agent protocol, and computer players by name.

An agent gets a seat's view (which holds the legal actions) and returns one
of them.  A name may carry settings, e.g. ``search(samples=20, seconds=0.5)``.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from ..classic.view import View
from ..core.errors import AgentError
from . import refusals as R


class Agent(Protocol):
    name: str

    def act(self, view: View) -> Any:
        """Choose one of ``view.legal``.  The view is all the agent may know."""
        ...


#: The computer players by name, weakest first.  Front ends offer these as strengths.
AGENT_KINDS: tuple[str, ...] = ("random", "rule", "search", "expert")

#: Players for measurement only, which the duplicate arena hands the true match: ``perfect`` is the expert
#: seeing every hand (`ExpertAgent` with ``match`` set).  No front end offers them.
MEASURE_KINDS: tuple[str, ...] = ("perfect",)

#: Computer players from other packages are named ``kind:argument`` (``policy:trained.npz``): the kind is an
#: entry point of this group, a function ``(argument, seed, game)`` returning an agent, where ``game`` is
#: ``"barbu"`` or ``"besigue"`` (the training adapters install ``policy``: `barbu.rl.policy`).
PLUGIN_GROUP = "barbu.agents"

_SPEC = re.compile(r"^\s*([a-z]+)\s*(?:\((.*)\))?\s*$")
_SEARCH_SETTINGS = {"samples": int, "seconds": float, "exact_tricks": int}
_EXPERT_SETTINGS = {
    "samples": int,
    "seconds": float,
    "steps": int,
    "surprise": float,
    "end_cards": int,
    "respond": int,
    "learned": int,
}
_SETTINGS = {"search": _SEARCH_SETTINGS, "expert": _EXPERT_SETTINGS, "perfect": _EXPERT_SETTINGS}
_MAY_BE_ZERO = ("exact_tricks", "end_cards", "steps", "respond", "learned")


def plugin_factory(kind: str) -> Any:
    """The installed factory of a ``kind:argument`` computer player, or None."""
    from importlib.metadata import entry_points

    for ep in entry_points(group=PLUGIN_GROUP):
        if ep.name == kind:
            return ep.load()
    return None


def parse_agent_spec(spec: str, measure: bool = False) -> tuple[str, dict[str, Any]]:
    """``search(samples=20)`` → ("search", {"samples": 20}); ``policy:p.npz`` → ("policy", {"argument": "p.npz"});
    errors name what was wrong."""
    kind, colon, argument = spec.partition(":")
    if colon and re.fullmatch(r"[a-z]+", kind.strip().lower()):
        kind = kind.strip().lower()
        if not argument.strip():
            raise AgentError.of(R.NEEDS_ARGUMENT, kind=kind)
        if plugin_factory(kind) is None:
            raise AgentError.of(R.NO_PLUGIN, kind=kind)
        return kind, {"argument": argument.strip()}
    m = _SPEC.match(spec.lower())
    if not m:
        raise AgentError.of(R.UNREADABLE, spec=spec, kinds=", ".join(AGENT_KINDS))
    kind, body = m.group(1), m.group(2)
    if kind not in AGENT_KINDS and not (measure and kind in MEASURE_KINDS):
        raise AgentError.of(R.UNKNOWN_CHOOSE, kind=kind, kinds=", ".join(AGENT_KINDS))
    settings: dict[str, Any] = {}
    if body and body.strip():
        known = _SETTINGS.get(kind)
        if known is None:
            raise AgentError.of(R.NO_SETTINGS, kind=kind)
        for part in body.split(","):
            key, eq, value = part.partition("=")
            key = key.strip()
            if not eq or key not in known:
                raise AgentError.of(R.UNKNOWN_SETTING, setting=part.strip(), kind=kind, settings=", ".join(known))
            try:
                settings[key] = known[key](value.strip())
            except ValueError:
                raise AgentError.of(R.NOT_A_NUMBER, key=key, value=value.strip()) from None
            if settings[key] < 0 or (settings[key] == 0 and key not in _MAY_BE_ZERO):
                raise AgentError.of(R.NOT_POSITIVE, key=key)
    return kind, settings


def is_computer_player(spec: str) -> bool:
    """A strength front ends may offer: one of ``AGENT_KINDS``, or an installed ``kind:argument`` player."""
    if spec in AGENT_KINDS:
        return True
    try:
        return "argument" in parse_agent_spec(spec)[1]
    except AgentError:
        return False


def make_agent(kind: str, seed: int | None = None, measure: bool = False) -> Agent:
    """An agent by name (one of ``AGENT_KINDS``, with optional settings), seeded so that matches replay.

    With ``measure``, the ``MEASURE_KINDS`` too: the caller must then set the ``match`` of a ``perfect``
    player to the true match before each decision (the duplicate arena does)."""
    from .expert import ExpertAgent
    from .random_agent import RandomAgent
    from .rule import RuleAgent
    from .search import SearchAgent

    name, settings = parse_agent_spec(kind, measure)
    if "argument" in settings:
        return plugin_factory(name)(settings["argument"], seed, "barbu")
    if name == "random":
        return RandomAgent(seed)
    if name == "rule":
        return RuleAgent(seed)
    if name == "perfect":  # the yardstick keeps the chains (tests/test_yardstick.py): it samples only with sees_in
        settings.setdefault("learned", 0)
    if name in ("expert", "perfect"):
        agent = ExpertAgent(seed, **settings)
        agent.sees_all = name == "perfect"
        return agent
    return SearchAgent(seed, **settings)
