"""The expert player: the search player's sampling, with likely deals weighed and the ends of deals solved exactly.

Two things make it stronger than `search`, which it otherwise is:

- **Better playouts.**  Each sampled deal is played out by the rule player until
  the hands are small; from there the deciding seat plays its best response to
  the others' rule cards, every line of its own cards tried (`rollout` with
  ``end_cards`` and ``root``): the playouts already take the others for rule
  players, and now the seat itself no longer throws away the end of a deal
  with rules of thumb.  The engine still scores the deal (doubles included,
  and the response weighs them).  Contract and doubling choices use the same
  playouts, and so do the contracts' baselines.  With ``respond=0`` every seat
  plays the exact solver's card for itself at the end instead (a paranoid
  solve per seat), as the expert did before.  Domino and Success are the
  rule player's to the end, as in the search player's playouts: neither the
  layout solver's end nor a best response measured stronger there, and both
  cost time (docs/benchmarks.md, "Domino alone").
- **Inference.**  Once the contract is known, the deals it searches are not
  drawn blindly.  In the Barbu families they are drawn from a small trained
  network's card locations (`barbu.agents.learned_inference`): it reads the
  seat's view once and places each unseen card, and every deal drawn fits the
  view.  That is fast enough for twice the deals (80) in about a third of the
  time the chains took for 40, and measured stronger (docs/benchmarks.md,
  "Learned inference").  Where the network does not apply (the Scottish game,
  whose pass-ons tie the hands together), or with ``learned=0``, each deal
  starts as one fitting what the seat has seen and is moved, a swap of two
  unseen cards at a time, towards the deals that explain the declarer's
  contract, the others' doubles and the cards they have played this deal
  (`barbu.agents.inference`, Markov chains), 40 of them.  The network needs numpy (the ``learned``
  extra): without it the expert plays as with ``learned=0`` and says so once (`learned_inference`);
  ``learned=1`` without numpy is refused in words.

Handed the true match (`sees_all`), the same code is the perfect-information
player the expert is measured against: its only world is the real deal.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from ..classic.match import PLAY, Match
from ..classic.sampler import determinize, own_match_class, sample_hands
from ..classic.view import NoConsistentDeal, View
from ..core.actions import NameRank
from ..core.errors import AgentError
from ..solver.position import spec_of
from .inference import DealModel, deal_history, likely_hands
from .passon_inference import passon_likelihood
from .refusals import LEARNED_MISSING, LEARNED_NEEDS_NUMPY, MissingExtraWarning
from .rule import rules_info
from .search import DEFAULT_SECONDS, SearchAgent

DEFAULT_SAMPLES = 40
#: Deals a decision looks at when the learned network draws them (the Barbu families): it draws 80 in less time
#: than the chains take to move 40.
LEARNED_SAMPLES = 80
DEFAULT_STEPS = 60  # swaps proposed to each sampled deal
DEFAULT_SURPRISE = 0.1
#: From how many cards a hand the playouts are solved, by players: the solver's time grows with the cards
#: left in all hands, so about twenty cards in all.
END_CARDS_BY_PLAYERS = {3: 6, 4: 5, 5: 4, 6: 3}
#: The Domino starting rank: every rank is tried on the first ``RANK_FIRST`` deals, only the best ``RANK_KEPT``
#: on the rest.  Thirteen ranks on every deal made it the expert's slowest decision (0.16 s of processor time,
#: 0.2 s with the layout solver's end; past the 0.9 s cap on a busy machine); this way it costs two thirds
#: as much, and 97 of 100 choices are the same (after 10 deals with the best 4 kept, 91 of 100).
RANK_FIRST = 20
RANK_KEPT = 4
DEFAULT_BID_SURPRISE = 0.7  # per contract open to the declarer that its hand suits better than the one chosen
DEFAULT_DOUBLE_SURPRISE = 0.6  # per doubling turn unlike the rule player's with that hand


_LEARNED: list[ModuleType | None] = []  # `learned_inference` once imported; None when numpy is missing
_TOLD: list[bool] = []  # the missing numpy was said (once a process)


def _learned_module() -> ModuleType | None:
    """The learned inference's module, imported on first use; None when numpy is not installed."""
    if not _LEARNED:
        try:
            from . import learned_inference
        except ImportError as e:
            if (e.name or "").partition(".")[0] != "numpy":
                raise
            _LEARNED.append(None)
        else:
            _LEARNED.append(learned_inference)
    return _LEARNED[0]


def learned_inference() -> ModuleType | None:
    """The learned inference's module, or None when numpy is not installed: then the first call says so
    once, in plain words (a `MissingExtraWarning`), and the expert plays as with ``learned=0``."""
    if _learned_module() is None and not _TOLD:
        _TOLD.append(True)
        from ..i18n import words  # the process's language (the command line, the terminal game)

        warnings.warn(words().render(LEARNED_MISSING, {}), MissingExtraWarning, stacklevel=2)
    return _LEARNED[0]


class ExpertAgent(SearchAgent):
    """Search with solved deal ends and inference from the others' contract, doubles and cards."""

    name = "expert"
    sees_all = False  # True for the perfect-information twin, whose ``match`` the arena sets

    def __init__(
        self,
        seed: int | None = None,
        samples: int | None = None,
        seconds: float = DEFAULT_SECONDS,
        steps: int = DEFAULT_STEPS,
        surprise: float = DEFAULT_SURPRISE,
        end_cards: int | None = None,
        respond: bool = True,
        learned: bool | None = None,
    ) -> None:
        super().__init__(seed, samples=samples or DEFAULT_SAMPLES, seconds=seconds, exact_tricks=0)
        #: The deals a decision looks at as asked for; None: by the sampler (`samples_for`).
        self.asked_samples = samples
        self.steps = steps
        #: Draw the deals from the trained network's card locations (`learned_inference`) instead of the chains,
        #: where the network applies (the Barbu families).  By default (None) when numpy is installed; asked
        #: for (``learned=1``) without numpy, refused.
        if learned is None:
            learned = learned_inference() is not None
        elif learned and _learned_module() is None:
            raise AgentError.of(LEARNED_NEEDS_NUMPY)
        self.learned = bool(learned)
        self.surprise = surprise
        self.end_cards = end_cards  # type: ignore[assignment]  # None: by the number of players
        #: End the playouts' trick play with this seat's best response to the others' rule cards instead of
        #: every seat's exact best against all the others.
        self.respond = respond
        self.match: Match | None = None  # the true match, for the perfect-information twin only
        #: The phases in which the twin looks at the true match (None: all); elsewhere it samples as the expert
        #: does.  To measure what seeing the cards is worth in each kind of decision (benchmarks/strength.py).
        self.sees_in: frozenset[str] | None = None
        self.bid_surprise = DEFAULT_BID_SURPRISE
        self.double_surprise = DEFAULT_DOUBLE_SURPRISE

    def act(self, view: View) -> Any:
        self.samples = self.samples_for(view)
        return super().act(view)

    def samples_for(self, view: View) -> int:
        """The deals to look at: as asked, else `LEARNED_SAMPLES` where the network draws them (a Barbu family
        with ``learned``), `DEFAULT_SAMPLES` where the chains move them (the Scottish game, ``learned=0``)."""
        if self.asked_samples:
            return self.asked_samples
        return LEARNED_SAMPLES if self.learned and own_match_class(view.rules) is None else DEFAULT_SAMPLES

    def solved_end(self, players: int) -> int:
        return self.end_cards if self.end_cards is not None else END_CARDS_BY_PLAYERS.get(players, 3)

    def responding_seat(self, view: View) -> int:
        return view.seat if self.respond else -1

    def narrowed(self, legal, live: list[int], scores: list[float], done: int) -> list[int]:
        """After ``RANK_FIRST`` deals only the best ``RANK_KEPT`` starting ranks are tried (a fixed rule: the
        choice stays the same for a seed)."""
        if done == RANK_FIRST and len(live) > RANK_KEPT and isinstance(legal[0], NameRank):
            return sorted(sorted(live, key=lambda i: -scores[i])[:RANK_KEPT])
        return live

    def worlds(self, view: View, sign: int, deadline: float) -> Iterator[Match]:
        if self.match is not None and (self.sees_in is None or view.phase in self.sees_in):
            # perfect information: the real deal is the only world
            yield self.match.clone()
            return
        inference = learned_inference() if self.learned else None  # numpy is imported only when asked for
        if inference is not None and inference.supports(view):
            yield from (determinize(view, hands) for hands in inference.learned_hands(view, self.samples, self.rng))
            return
        if view.phase not in ("play", "doubling", "domino") or self.steps <= 0:
            yield from super().worlds(view, sign, deadline)
            return
        yield from self.likely_worlds(view, sign, deadline)

    def likely_worlds(self, view: View, sign: int, deadline: float) -> list[Match]:
        """Up to ``samples`` matches of deals fitting the view, moved towards the deals that explain the others'
        contract, doubles and cards best (`likely_hands`)."""
        drawn: list[list[int]] = []
        for _ in range(self.samples):
            try:
                drawn.append(sample_hands(view, self.rng))
            except NoConsistentDeal:
                continue
        if not drawn:
            return []
        model = self.deal_model(view, determinize(view, drawn[0]), sign)
        passes = (lambda hands: passon_likelihood(view, hands)) if view.passes else None
        # The chains may take half the time left: the search needs the rest.
        until = time.perf_counter() + (deadline - time.perf_counter()) / 2
        moved = likely_hands(model, drawn, self.steps, self.rng, passes, until)
        if time.perf_counter() > until:  # the chains may have stopped short: counted as a cut decision
            self.cut = True
        return [determinize(view, hands) for hands in moved]

    def deal_model(self, view: View, world: Match, sign: int) -> DealModel:
        """The others' evidence this deal, as seen from ``view``; ``world`` is any match fitting the view."""
        spec = None
        if world.phase == PLAY:
            try:
                spec = spec_of(world)
            except (ValueError, AttributeError, KeyError):
                spec = None
        history = deal_history(view, list(world.hands)) if own_match_class(view.rules) is None else None
        rules, contracts, _ = rules_info(view.rules)
        return DealModel(
            view,
            contracts.get(view.contract or ""),
            contracts,
            rules,
            spec,
            world.trump_mask,
            sign,
            self.surprise,
            self.bid_surprise,
            self.double_surprise,
            history,
        )
