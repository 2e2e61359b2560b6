"""The games as OpenSpiel Python games: ``python_barbu`` (every preset) and ``python_besigue``.

``register()`` adds them to ``pyspiel``; then ``pyspiel.load_game("python_barbu",
{"rules": "salad", "players": 5, "deals": 1})`` or, as a game string,
``python_barbu(rules=salad,players=5,deals=1)``.  Deals, draws and cuts are
explicit chance nodes, one card at a time (`barbu.rl.chance`); decisions are
the family's tokens (`barbu.rl.codec`), a large decision being several
consecutive moves of the same player.  Rewards are each deal's points as it
ends (``returns()`` their sum), negated in the lowest-wins French game.
``deals`` (default 1) is how many deals a game lasts; 0 plays the whole match.

Tensors: the observation tensor is the seat's observation (`barbu.rl.observe`);
the information-state tensor adds, for the Barbu family, the hand as dealt and
the order of the tricks (which trick each card fell in), so that the card play
of the deal is recalled exactly.  The strings are the same, in words.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..besigue.game import BesigueGame
from ..besigue.sampler import sample_game
from ..classic.match import Match
from ..classic.sampler import determinize, sample_hands
from ..core.cards import CardSet, cards_of
from ..core.game import CHANCE
from .chance import chance_event, chance_outcomes
from .codec import barbu_token_names, besigue_token_names
from .rules import rules_text
from .table import Table

_EXTRA = 104  # the information state's additions for the Barbu family: dealt hand (52), trick of each card (52)
_PARAMS = {"rules": "classic", "deals": 1, "players": 0}  # players 0: the ruleset's own count


def _game_type(short: str, long: str, low: int, high: int) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_PARAMS, rules="besigue") if "besigue" in short else dict(_PARAMS),
    )


BARBU_TYPE = _game_type("python_barbu", "Barbu (every preset of the barbu project)", 3, 6)
BESIGUE_TYPE = _game_type("python_besigue", "Bésigue (the barbu project)", 2, 2)


class BarbuSpielGame(pyspiel.Game):
    """One ruleset, ``deals`` deals long."""

    game_type = BARBU_TYPE

    def __init__(self, params: dict | None = None) -> None:
        p = dict(self.game_type.parameter_specification)
        p.update(params or {})
        deals = int(p["deals"])
        # python_barbu(rules=salad,players=5): the game string cannot hold salad(players=5)'s parentheses
        self.rules = rules_text(str(p["rules"]), int(p["players"]) or None)
        self.deals = deals or None
        probe = Table(self.rules, deals=self.deals, auto_chance=False)
        spec = probe.spec
        self.spec = spec
        per_deal = 2000  # moves in one deal, chance steps included: far above any real deal
        length = per_deal * (self.deals or _match_deals(probe))
        bound = 1e5 * (self.deals or _match_deals(probe))
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_actions,
            max_chance_outcomes=64 if spec.besigue else 52,
            num_players=spec.players,
            min_utility=-bound,
            max_utility=bound,
            max_game_length=length,
        )
        super().__init__(self.game_type, info, p)
        self.token_names = besigue_token_names() if spec.besigue else barbu_token_names()

    def new_initial_state(self) -> "BarbuSpielState":
        return BarbuSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
        """The seat's own observation or information state; a public-only or all-players observer would need
        tensors this game does not build, and is refused rather than handed the seat's private cards."""
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info
        ):
            raise ValueError("this game observes from one seat only: private_info=SINGLE_PLAYER, public_info=True")
        # None is the observation, as in OpenSpiel's own Python games
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.spec, info_state=perfect)


class BesigueSpielGame(BarbuSpielGame):
    game_type = BESIGUE_TYPE


def _match_deals(t: Table) -> int:
    """An upper bound on a whole match's deals (Bésigue plays to a target: its bound is generous)."""
    return t.game.total_deals + 10 if isinstance(t.game, Match) else 200


class BarbuSpielState(pyspiel.State):
    """An OpenSpiel state over a `Table` whose chance events wait for OpenSpiel's chance moves."""

    def __init__(self, game: BarbuSpielGame) -> None:
        super().__init__(game)
        self.table = Table(game.rules, deals=game.deals, auto_chance=False)
        self.table.reset(0)
        self.drawn: list[int] = []  # the outcomes of the chance event being drawn
        self.names = game.token_names
        self.last = [0.0] * self.table.n
        self.sums = [0.0] * self.table.n

    def current_player(self) -> int:
        seat = self.table.to_act
        if seat is None:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if seat == CHANCE else seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_tokens()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return chance_outcomes(self.table.game, self.drawn)

    def _apply_action(self, action: int) -> None:
        if self.table.to_act == CHANCE:
            self.drawn.append(int(action))
            event = chance_event(self.table.game, self.drawn)
            rewards = [0.0] * self.table.n
            if event is not None:
                self.drawn = []
                rewards = self.table.chance(event)
            # OpenSpiel reads rewards at decision nodes: chance steps add to those of the last move
            self.last = [a + b for a, b in zip(self.last, rewards)]
        else:
            rewards = self.table.step(int(action))
            self.last = rewards
        self.sums = [a + b for a, b in zip(self.sums, rewards)]

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> "BarbuSpielState":
        """A state ``player`` cannot tell from this one: the unseen cards dealt again consistently with
        its view (the project's samplers), another seat's half-spelled decision replaced by a random one.
        ISMCTS needs it."""
        table = self.table
        seat = table.to_act
        if seat is None or seat == CHANCE:
            raise RuntimeError("resampling is done at a decision")
        rng = random.Random(int(probability_sampler() * 2**62))
        game: Match | BesigueGame
        if isinstance(table.game, BesigueGame):
            sampled = sample_game(table.game.view(player), rng)
            sampled.results = list(table.game.results)
            sampled.rules, sampled.n = table.game.rules, table.game.n
            game = sampled
        else:
            v = table.game.view(player)
            game = determinize(v, sample_hands(v, rng))
        assert table.decision is not None  # a seat is deciding (checked above)
        other = self.clone()
        other.table.game = game
        other.table.decision = None
        other.table._settle(len(game.results))
        tokens = table.decision.prefix if player == seat else [None] * len(table.decision.prefix)
        for tok in tokens:
            other.table.decision.choose(rng.choice(sorted(other.table.decision.mask())) if tok is None else tok)
        return other

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}"
        return self.names[action]

    def is_terminal(self) -> bool:
        return self.table.to_act is None

    def rewards(self) -> list[float]:
        """The points paid since the previous decision (a deal's points once it ends)."""
        return list(self.last)

    def returns(self) -> list[float]:
        return list(self.sums)

    def __str__(self) -> str:
        g = self.table.game
        return f"{self.table.rules} deal {len(g.results) + 1} to act {self.table.to_act} totals {list(g.totals)}"


class Observer:
    """OpenSpiel's Python observer: ``tensor``/``dict`` filled by ``set_from``, words by ``string_from``."""

    def __init__(self, spec: Any, info_state: bool) -> None:
        self.spec = spec
        self.info_state = info_state
        extra = _EXTRA if info_state and not spec.besigue else 0
        self.tensor = np.zeros(spec.obs_size + extra, np.float32)
        self.dict = {"observation": self.tensor[: spec.obs_size]}
        if extra:
            self.dict["dealt"] = self.tensor[spec.obs_size : spec.obs_size + 52]
            self.dict["trick_of_card"] = self.tensor[spec.obs_size + 52 :]

    def set_from(self, state: BarbuSpielState, player: int) -> None:
        t = state.table
        t.observe(player, self.dict["observation"])
        if "dealt" in self.dict and isinstance(t.game, Match):  # the extra planes: the Barbu family's only
            v = t.game.view(player)
            self.dict["dealt"].fill(0.0)
            self.dict["trick_of_card"].fill(0.0)
            dealt = v.hand
            for i, (leader, cards) in enumerate(v.tricks):
                for k, c in enumerate(cards):
                    self.dict["trick_of_card"][c] = (i + 1) / 52.0
                    if (v.phase == "domino" and leader == player) or (
                        v.phase != "domino" and (leader + k) % v.players == player
                    ):
                        dealt |= 1 << c
            for k, c in enumerate(v.trick):
                self.dict["trick_of_card"][c] = (len(v.tricks) + 1) / 52.0
                if (v.leader + k) % v.players == player:
                    dealt |= 1 << c
            for c in cards_of(dealt):
                self.dict["dealt"][c] = 1.0

    def string_from(self, state: BarbuSpielState, player: int) -> str:
        """The seat's view in words; the information state adds this deal's public actions in order."""
        game = state.table.game
        decision = state.table.decision
        prefix = decision.prefix if decision is not None and state.table.to_act == player else []
        chosen = " ".join(state.names[x] for x in prefix)
        if isinstance(game, BesigueGame):
            d = game.view(player).to_dict()
            d.pop("legal", None)
            text = f"seat {player} {d}"
            if self.info_state:
                text += f" deals {[r['scores'] for r in game.results]}"
        else:
            v = game.view(player)
            text = (
                f"seat {player} phase {v.phase} hand {CardSet(v.hand)} contract {v.contract} trump {v.trump} "
                f"rank {v.rank} doubles {[str(b) for b in v.doubles]} trick {[str(c) for c in v.trick]} "
                f"totals {list(v.totals)}"
            )
            if self.info_state:
                text += f" actions {[str(a) for a in v.deal_actions]} deals {[r.scores for r in v.results]}"
        return text + (f" chosen {chosen}" if chosen else "")


def register() -> None:
    """Register ``python_barbu`` and ``python_besigue`` with pyspiel (again is harmless)."""
    names = set(pyspiel.registered_names())
    if "python_barbu" not in names:
        pyspiel.register_game(BARBU_TYPE, BarbuSpielGame)
    if "python_besigue" not in names:
        pyspiel.register_game(BESIGUE_TYPE, BesigueSpielGame)


register()
