"""The search bot: Perfect-Information Monte Carlo over deals consistent with the seat's view.

For each decision it samples hands for the other seats that fit everything
the view shows (`sample_hands`), rebuilds each sample as a full match
(`determinize`), tries every legal action on it and plays the deal out: with
the rule-based policy for every seat, or with an exact search of the last
tricks when few cards are left.  The action with the best mean result for
this seat wins.  Contracts are judged against what a contract earns on an
average hand, so that a contract is kept for a hand that suits it.

The budget is a number of sampled deals, capped by a time limit; with the
cap unreached the bot is deterministic for a given seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from ..classic.chinese import Arrangements
from ..classic.contracts import CHINESE
from ..classic.match import CHANCE, DEAL, DECLARE, DOMINO_PLAY, PLAY, Match, settle
from ..classic.sampler import determinize, sample_hands
from ..classic.state import Points
from ..classic.view import NoConsistentDeal, View, make_view
from ..core.actions import PASS, Declare, PassOn
from ..core.cards import CARDS
from ..solver import fast
from ..solver.layout import LayoutSolver, affordable_cards, layout_action, layout_spec_of, layout_state_of
from ..solver.position import Spec, State, objective, spec_of, state_of
from ..solver.pure import _Play, after_card
from .bidding import contract_merit
from .cardplay import choose_domino_card, choose_trick_card
from .rule import RuleAgent, row_move, rules_info

DEFAULT_SAMPLES = 40
DEFAULT_SECONDS = 0.9
DEFAULT_EXACT_TRICKS = 2
MAX_CANDIDATES = 10  # long lists (Scottish calls and pass-ons) are cut to the rule bot's best few


def rollout(m: Match, policy: RuleAgent, sign: int, end_cards: int = 0, root: int = -1) -> tuple[Points, ...]:
    """Play the current deal of ``m`` to its end with the rule-based policy; the deal's utilities by seat.

    With ``end_cards``, a seat holding at most that many cards in trick play takes the card the exact
    solver rates best for it (its points if the others all play against it) instead of the rule
    player's: the end of a deal, where the rule player's judgement is weakest, is played as it should be.
    Once the rest of the deal is plain card play the compiled core plays it (`rollouts`: the same
    cards, the same value); ``m`` is spent either way (played on to where the core took over, or to the
    deal's end), so pass a copy you no longer need.
    In a layout game (Domino, Success, Patience) ``end_cards`` turns on the layout solver instead, once
    few enough cards are left in all hands for a solve of a few milliseconds (`affordable_cards`): from
    there each seat plays the max^n move (its own best points); one solve serves the rest of the deal.
    With a ``root`` seat, Domino and Success are played by the rule player to the end (Patience keeps
    the solver's end).
    With a ``root`` seat, trick play ends otherwise: once ``root`` holds at most ``end_cards`` cards, it plays
    its best response to the others' rule cards (`best_response`), the opponents the playouts assume.  The
    Scottish game's deals, which the engine plays (it scores them call by call), take the response's cards
    from the compiled core (`respond_line`) and play them through the engine.
    """
    if plays_in_core(m):
        return rollouts([m], policy, sign, end_cards, root)[0]
    return _engine_rollout(m, policy, sign, end_cards, root=root)


def _engine_rollout(
    m: Match, policy: RuleAgent, sign: int, end_cards: int, core: bool = True, root: int = -1
) -> tuple[Points, ...]:
    """`rollout` through the engine, action by action (the pure path, and every deal the core cannot play);
    with ``core``, the card play is handed to the compiled core once it starts (after a contract or doubles)."""
    target = len(m.results) + 1
    contract = m.contract
    n = m.n
    results = m.results
    high_ace = m.rules.domino_ace == "high"
    plain = type(m) is Match
    spec: Spec | None = None
    layout: LayoutEnd | None | bool = None  # the layout solver, once the deal is a layout game (False: none)
    while len(results) < target:
        ph = m.phase
        if ph == PLAY:
            if core and plays_in_core(m):
                return rollouts([m], policy, sign, end_cards, root)[0]
            if root >= 0 and end_cards and m.hands[root].bit_count() <= end_cards:
                if spec is None:
                    spec = solver_spec(m, sign)
                line = respond_line(m, spec, root, sign) if spec is not None else []
                if line:
                    for c in line:
                        if m.phase != PLAY:  # the engine saw the deal decided sooner: it has scored it
                            break
                        m.apply(CARDS[c])
                    continue
                root = -1
            s = m.turn
            legal = m._play_mask()
            if root < 0 and legal & (legal - 1) and end_cards and m.hands[s].bit_count() <= end_cards:
                if spec is None:
                    spec = solver_spec(m, sign)
                c = best_exact_card(spec, m) if spec else -1
                if c < 0:
                    end_cards = 0
                    continue
            elif legal & (legal - 1):
                hand = m.hands[s]
                c = choose_trick_card(
                    contract,  # type: ignore[arg-type]
                    sign,
                    hand,
                    legal,
                    m.trick,
                    m.trump_mask,
                    m.in_hands & ~hand,
                    n,
                    hand.bit_count(),
                )
            else:
                c = legal.bit_length() - 1
            m.apply(CARDS[c])
        elif ph == DOMINO_PLAY:
            s = m.turn
            if end_cards and layout is None:
                # With a responding seat, Domino and Success are the rule player's to the end, as the search
                # player's: ending them with the layout solver (every seat for itself) or with the seat's best
                # response to the rule moves measured no stronger there, and slower (docs/benchmarks.md,
                # "Domino alone").  The Scottish Patience keeps the solver's end.
                layout = False if root >= 0 and plain else layout_solver(m)
            if isinstance(layout, LayoutEnd) and m.in_hands.bit_count() <= layout.most:
                m.apply(layout_action(layout.solver.best_move(layout_state_of(m))))
                continue
            if plain:
                legal = m.hands[s] & m.playable
                if legal:
                    m.apply(CARDS[choose_domino_card(m.hands[s], legal, m.layout, m.rank, high_ace, m.deck)])
                else:
                    m.apply(PASS)
            else:  # a family's own rows (Patience: runs and sets too)
                assert contract is not None  # in play
                m.apply(row_move(m.hands[s], m.legal_actions(), m.layout, m.rank, contract, high_ace, m.deck))
        else:
            actor = m.to_act()
            if actor is None:
                break
            if actor == CHANCE:  # a cut inside the deal (the Scottish Silly Round)
                m.apply(m.sample_chance())
            else:
                m.apply(policy.act(make_view(m, actor)), seat=actor)
            contract = m.contract
    last = results[-1].added
    return tuple(sign * x for x in last)


def plays_in_core(m: Match) -> bool:
    """Whether the rest of ``m``'s deal is plain card play that the compiled core can play out: a classic
    match (not the Scottish one, whose deal may still hold a cut) in trick play, with the core built."""
    return fast.rule_playouts is not None and type(m) is Match and m.phase == PLAY


def rollouts(
    ms: list[Match], policy: RuleAgent, sign: int, end_cards: int = 0, root: int = -1
) -> list[tuple[Points, ...]]:
    """`rollout` of each match (each `plays_in_core`), in one call of the compiled core for each kind of deal.

    The core plays the rule player's cards (and the exact solver's from ``end_cards`` cards a hand)
    and returns each deal's points in the solver's objective; the engine turns them back into base
    points and settles the doubles and series (`Match.points_added`), as the end of the deal would."""
    out: list[tuple[Points, ...]] = [()] * len(ms)
    groups: dict[tuple, list[int]] = {}  # the matches by the rules of their deal (one spec each)
    for i, m in enumerate(ms):
        weights = respond_weights(m, root) if root >= 0 else None
        groups.setdefault(
            (m.n, id(m.contract), m.trump_mask, m.head_mask, m.heart_mode, m.stop_mask, weights), []
        ).append(i)
    for key, indices in groups.items():
        spec = solver_spec(ms[indices[0]], sign)
        if spec is None:  # no solver picture of this deal: the engine plays it
            for i in indices:
                out[i] = _engine_rollout(ms[i], policy, sign, end_cards, core=False, root=root)
            continue
        pm = ms[indices[0]].contract.penalty_mask  # type: ignore[union-attr]
        assert fast.rule_playouts is not None  # rollouts() runs only where the core plays (plays_in_core)
        points = fast.rule_playouts(spec, pm, [state_of(ms[i]) for i in indices], end_cards, root, key[-1])
        for i, pts in zip(indices, points):
            added = ms[i].points_added([sign * x for x in pts])
            out[i] = tuple(sign * x for x in added)
    return out


def card_rollouts(
    m: Match, cards: Sequence[int], sign: int, end_cards: int = 0, root: int = -1
) -> list[tuple[Points, ...]] | None:
    """`rollout` after each of the seat to play's ``cards`` in ``m`` (which `plays_in_core`), in one call of the
    compiled core, without a copy of the match for each card: the positions after each card come straight
    from the solver's picture of ``m``.  None where the solver has no picture of the deal."""
    spec = solver_spec(m, sign)
    if spec is None:
        return None
    state = state_of(m)
    children = [after_card(spec, state, c) for c in cards]
    weights = respond_weights(m, root) if root >= 0 else None
    assert fast.rule_playouts is not None  # ``m`` plays_in_core
    points = fast.rule_playouts(spec, m.contract.penalty_mask, children, end_cards, root, weights)  # type: ignore[union-attr]
    # The deal's doubles and series are the same whichever card ends it: the match before the card settles them.
    return [tuple(sign * x for x in m.points_added([sign * x for x in pts])) for pts in points]


def respond_rule(m: Match, sign: int) -> Callable[[_Play, int, int], int]:
    """The rule player's card in a solver position of ``m``'s deal (the pure twin of the core's)."""
    contract, trump_mask, n = m.contract, m.trump_mask, m.n

    def card(p: _Play, hand: int, legal: int) -> int:
        return choose_trick_card(
            contract,  # type: ignore[arg-type]
            sign,
            hand,
            legal,
            p.trick,
            trump_mask,
            p.in_hands & ~hand,
            n,
            hand.bit_count(),
        )

    return card


def respond_weights(m: Match, root: int) -> tuple[int, ...]:
    """What each seat's points (in the solver's objective) are worth to ``root`` once the deal's doubles are
    settled: its own points, plus or minus the difference with each seat it doubled or was doubled by."""
    n = m.n
    return tuple(settle([int(s == t) for t in range(n)], m.business.values())[root] for s in range(n))


def respond_line(m: Match, spec: Spec, root: int, sign: int) -> list[int]:
    """The cards of the rest of ``m``'s deal (in trick play, ``spec`` its solver objective) with ``root``
    playing its best response to the others' rule cards: the compiled core's where it was built, else the
    pure `best_response` (the same cards)."""
    weights = respond_weights(m, root)
    if fast.respond_line is not None:
        return fast.respond_line(spec, m.contract.penalty_mask, state_of(m), root, weights)[1]  # type: ignore[union-attr]
    return best_response(spec, state_of(m), root, respond_rule(m, sign), weights)[1]


def best_response(
    spec: Spec, state: State, root: int, rule: Callable[[_Play, int, int], int], weights: Sequence[int] | None = None
) -> tuple[tuple[int, ...], list[int]]:
    """The rest of the deal with ``root`` playing its best against the ``rule`` cards of every other seat:
    each seat's final points (in the solver's objective) and the cards played.  Its best is the most of
    ``sum(weights[s] * points[s])`` (by default its own points).  Each of root's legal cards is tried,
    lowest first, and the first of the best is kept: the core's `rule_playouts` with a root does the same."""
    p = _Play(spec, state)
    w = tuple(weights) if weights is not None else tuple(int(s == root) for s in range(spec.n))

    def worth(v: tuple[int, ...]) -> int:
        return sum(a * b for a, b in zip(w, v))

    def rest() -> tuple[tuple[int, ...], list[int]]:
        if p.over():
            return p.score(), []
        turn = p.turn
        legal = p.legal()
        if turn == root and legal & (legal - 1):
            options = [c for c in range(52) if legal >> c & 1]
        else:
            options = [legal.bit_length() - 1 if not legal & (legal - 1) else rule(p, p.hands[turn], legal)]
        best: tuple[tuple[int, ...], list[int]] | None = None
        for c in options:
            p.play(c)
            value, line = rest()
            p.take_back(c)
            if best is None or worth(value) > worth(best[0]):
                best = (value, [c, *line])
        assert best is not None
        return best

    return rest()


class LayoutEnd(NamedTuple):
    """The layout solver of one playout's deal and from how many cards left it plays."""

    solver: LayoutSolver
    most: int


def layout_solver(m: Match) -> LayoutEnd | bool:
    """A layout solver for the deal ``m`` is playing, or False where it has no picture of it."""
    try:
        spec = layout_spec_of(m)
    except (ValueError, AttributeError, KeyError):
        return False
    return LayoutEnd(LayoutSolver(spec), affordable_cards(spec))


def solver_spec(m: Match, sign: int) -> Spec | None:
    """The exact solver's objective for the deal ``m`` is playing, or None where the solver has no picture of it."""
    try:
        return objective(spec_of(m), sign)
    except (ValueError, AttributeError, KeyError):
        return None


def best_exact_card(spec: Spec, m: Match) -> int:
    """The card the exact solver rates best for the seat to play (the lowest of equals)."""
    values = fast.move_values(spec, [state_of(m)])[0]
    best = max(v for _, v in values)
    return min(c for c, v in values if v == best)


def solve(m: Match, sign: int) -> tuple[Points, ...]:
    """Exact max^n value of the rest of the deal: each seat maximises its own points (card play only)."""
    if m.phase != PLAY:
        return tuple(sign * x for x in m.results[-1].added)
    s = m.turn
    legal = m._play_mask()
    best: tuple[Points, ...] | None = None
    while legal:
        b = legal & -legal
        legal ^= b
        child = m.clone() if legal or best is not None else m
        child.apply(CARDS[b.bit_length() - 1])
        v = solve(child, sign)
        if best is None or v[s] > best[s]:
            best = v
    assert best is not None
    return best


BASELINE_DEALS = 48


@lru_cache(maxsize=32)
def baseline_deals(rules: str, deals: int = BASELINE_DEALS) -> tuple[Match, ...]:
    """The same ``deals`` first deals of a match, ready for the declarer's choice, for every baseline."""
    rng = random.Random(12345)
    base = Match(rules, 1)
    while base.to_act() == CHANCE and base.phase != DEAL:
        base.play_chance()
    out = []
    for _ in range(deals):
        dealt = base.clone()
        dealt.apply(dealt.sample_chance(rng))
        if dealt.phase == DECLARE:  # not a redeal (the French rule on set-aside cards)
            out.append(dealt)
    return tuple(out)


@lru_cache(maxsize=4096)
def contract_baseline(rules: str, end_cards: int, key: str, respond: bool = False) -> float | None:
    """What the declarer makes at contract ``key`` on an average hand (rule-based play all round, the last
    ``end_cards`` cards of each hand played by the exact solver, or with ``respond`` by the declarer's
    best response: the same rollouts as the decisions')."""
    _, contracts, sign = rules_info(rules)
    if contracts[key].kind == CHINESE:
        return None
    policy = RuleAgent(0)
    total, count = 0.0, 0
    for dealt in baseline_deals(rules):
        for a in dealt.legal_actions():
            if a.contract == key:
                w = dealt.clone()
                w.apply(a)
                total += rollout(w, policy, sign, end_cards, dealt.declarer if respond else -1)[dealt.declarer]
                count += 1
    return total / count if count else None


def contract_baselines(
    rules: str, end_cards: int = 0, keys: Iterable[str] | None = None, respond: bool = False
) -> dict[str, float]:
    """`contract_baseline` of the contracts ``keys`` (all the ruleset's by default), each computed once
    per process: a decision pays only for the contracts it weighs."""
    _, contracts, _ = rules_info(rules)
    out = {}
    for key in contracts if keys is None else keys:
        value = contract_baseline(rules, end_cards, key, respond)
        if value is not None:
            out[key] = value
    return out


class SearchAgent:
    """PIMC search for every decision; ``samples`` deals per decision, at most ``seconds`` per decision."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = DEFAULT_SAMPLES,
        seconds: float = DEFAULT_SECONDS,
        exact_tricks: int = DEFAULT_EXACT_TRICKS,
    ) -> None:
        self.rng = random.Random(seed)
        self.policy = RuleAgent(seed)
        self.samples = samples
        self.seconds = seconds
        self.exact_tricks = exact_tricks
        self.end_cards = 0  # rollouts play the rule player's cards to the end (see `rollout`)
        self.last_samples = 0  # how many deals the last decision looked at (for benchmarks)
        self.last_values: list[tuple[Any, float]] = []  # (action, mean value) of the last search, best first
        #: Decisions the time cap cut short (fewer deals looked at than planned): past the cap the bot no
        #: longer replays for its seed, so the benchmarks count them (benchmarks/domino.py).
        self.capped = 0
        self.cut = False  # whether the time cap cut the current decision short

    def act(self, view: View) -> Any:
        self.last_values = []
        deadline = time.perf_counter() + self.seconds  # everything counts, the one-off baselines too
        legal: Sequence[Any] = view.legal
        if not legal:
            raise ValueError("the agent was asked to act with no legal action")
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal, Arrangements):
            return self.policy.act(view)
        _, contracts, sign = rules_info(view.rules)
        declaring = isinstance(legal[0], Declare)
        if declaring and any(contracts[a.contract].kind == CHINESE for a in legal):
            # Chinese poker cannot be played out quickly; judge it by hand, the rest by search.
            return self.policy.act(view)
        if len(legal) > MAX_CANDIDATES:
            legal = self.shortlist(view, legal, contracts, sign)
        end_cards = self.solved_end(view.players)
        root = self.responding_seat(view)
        baselines = (
            contract_baselines(view.rules, end_cards, {a.contract for a in legal}, root >= 0) if declaring else {}
        )
        scores = [0.0] * len(legal)
        seat = view.seat
        done = 0
        self.cut = False
        live = list(range(len(legal)))  # the actions still tried (`narrowed`): each on every deal so far
        for world in self.worlds(view, sign, deadline):
            values = self.world_values(world, [legal[i] for i in live], sign, end_cards, view.phase == "play", root)
            for i, value in zip(live, values):
                scores[i] += value[seat]
            done += 1
            if time.perf_counter() > deadline:
                self.cut = self.cut or done < self.samples
                break
            live = self.narrowed(legal, live, scores, done)
        self.capped += self.cut
        self.last_samples = done
        if not done:
            return self.policy.act(view)
        if declaring:
            for i, a in enumerate(legal):
                scores[i] -= baselines.get(a.contract, 0.0) * done
        best = max(live, key=lambda i: scores[i])
        self.last_values = sorted(((legal[i], scores[i] / done) for i in live), key=lambda x: -x[1])
        return legal[best]

    def narrowed(self, legal, live: list[int], scores: list[float], done: int) -> list[int]:
        """The actions (indices into ``legal``) still worth trying after ``done`` deals, each of ``live`` scored
        ``scores[i]`` in all: all of them here; a subclass may drop the hopeless ones to save time."""
        return live

    def world_values(
        self, world: Match, legal, sign: int, end_cards: int, cards: bool, root: int = -1
    ) -> list[tuple[Points, ...]]:
        """The value of each legal action (``cards``: they are the seat's cards) in one sampled deal, by seat:
        an exact solve of the last tricks, else a rollout; the compiled core plays the rollouts of the whole
        world in one call, straight from the world's position when the actions are cards."""
        exact = world.phase == PLAY and sum(h.bit_count() for h in world.hands) <= self.exact_tricks * world.n
        if cards and not exact and plays_in_core(world):
            values = card_rollouts(world, legal, sign, end_cards, root)
            if values is not None:
                return values
        finished = len(world.results)
        out: list[tuple[Points, ...]] = []
        batch: list[tuple[int, Match]] = []  # the actions the compiled core plays out, all in one call
        for i, a in enumerate(legal):
            w = world.clone()
            w.apply(a)
            if len(w.results) > finished:  # the action ended the deal (a decided deal stops): that is its value
                out.append(tuple(sign * x for x in w.results[-1].added))
            elif exact:
                out.append(solve(w, sign))
            elif plays_in_core(w):
                batch.append((i, w))
                out.append(())
            else:
                out.append(rollout(w, self.policy, sign, end_cards, root))
        if batch:
            for (i, _), value in zip(batch, rollouts([w for _, w in batch], self.policy, sign, end_cards, root)):
                out[i] = value
        return out

    def solved_end(self, players: int) -> int:
        """From how many cards a hand the playouts play the exact solver's cards (0: never)."""
        return self.end_cards

    def responding_seat(self, view: View) -> int:
        """The seat whose best response ends the playouts (`rollout`'s ``root``), or -1 for none."""
        return -1

    def worlds(self, view: View, sign: int, deadline: float) -> Iterator[Match]:
        """Up to ``samples`` full matches at the view's position, the unseen cards drawn at random."""
        for _ in range(self.samples):
            try:
                yield determinize(view, sample_hands(view, self.rng))
            except NoConsistentDeal:
                continue

    def shortlist(self, view: View, legal, contracts, sign: int) -> list:
        """The rule bot's favourite few of a long list of choices, for the search to compare."""
        first = legal[0]
        if isinstance(first, PassOn):
            return self.policy.pass_on_ranking(view, legal, contracts, sign)[:MAX_CANDIDATES]
        if isinstance(first, Declare):
            rules = rules_info(view.rules)[0]
            deck = view.deck & ~view.set_aside
            ranked = sorted(
                legal,
                key=lambda a: (
                    -contract_merit(
                        contracts[a.contract], view.hand, deck, view.players, sign, rules.domino_ace == "high"
                    )
                ),
            )
            return ranked[:MAX_CANDIDATES]
        return list(legal)
