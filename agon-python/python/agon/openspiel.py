"""Agon as an OpenSpiel game.

>>> import agon.openspiel, pyspiel
>>> agon.openspiel.register()
>>> game = pyspiel.load_game("agon")                       # the standard rules
>>> game = pyspiel.load_game("agon", {"rules": "capture=ring", "max_plies": 300})

The game is registered through pyspiel's Python-game API, so OpenSpiel's C++ and Python
tools (``random_sim_test``, MCTS, AlphaZero, evaluation) run on it; each state wraps an
``agon.Game`` and asks it every rule question.

Parameters: ``rules`` (a rule-set name, default ``"standard"``; any name ``agon.Rules``
accepts, and because OpenSpiel's game strings reserve ``=`` and ``,`` the same name may be
written with ``:`` and ``+`` instead: ``"capture:ring+repetition:off"``, the spelling the
game's own string uses) and ``max_plies`` (default 1000, as agon-selfplay: a game still going after that
many plies is a draw, termination ``move-limit``, so that ``max_game_length`` is finite).

Players: 0 is White, 1 is Black. The current player is the side that *decides* the next
action, which under ``queen-relocated-by=opponent`` is not always the side to move. Actions
are ``agon.action_id`` ids (``num_distinct_actions() == agon.ACTION_COUNT``); returns are
+1/-1 for a win and 0 for a draw. The observation tensor is ``agon.Game.observation()``
flattened (shape ``agon.OBSERVATION_SHAPE``).
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import agon

__all__ = ["GAME_TYPE", "AgonGame", "AgonState", "AgentBot", "HeuristicEvaluator", "RolloutEvaluator", "register"]

#: The parameters and their defaults.
DEFAULT_PARAMETERS = {"rules": "standard", "max_plies": 1000}

GAME_TYPE = pyspiel.GameType(
    short_name="agon",
    long_name="Agon (Queen's Guard)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMETERS,
)

_PLAYER = {"white": 0, "black": 1}


def _to_parameter(rules: agon.Rules) -> str:
    """A rule-set name in the spelling OpenSpiel's game strings allow."""
    return str(rules).replace("=", ":").replace(",", "+")


def _from_parameter(text: str) -> str:
    """A rule-set name from either spelling."""
    return text.replace(":", "=").replace("+", ",")


class AgonGame(pyspiel.Game):
    """Agon under one rule set (parameter ``rules``) with a ply limit (``max_plies``)."""

    def __init__(self, params=None):
        params = {**DEFAULT_PARAMETERS, **(params or {})}
        self.rules = agon.Rules.parse(_from_parameter(str(params["rules"])))
        self.max_plies = int(params["max_plies"])
        if self.max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {self.max_plies}")
        info = pyspiel.GameInfo(
            num_distinct_actions=agon.ACTION_COUNT,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_plies,
        )
        params = {"rules": _to_parameter(self.rules), "max_plies": self.max_plies}
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self):
        """The start of a game."""
        return AgonState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The board observer (planes), or the perfect-recall observer for info states."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class AgonState(pyspiel.State):
    """A state: an ``agon.Game`` (attribute ``game``) and the ply limit."""

    def __init__(self, game: AgonGame):
        super().__init__(game)
        self.game = agon.Game(game.rules)
        self._max_plies = game.max_plies

    def current_player(self):
        """The deciding side (0 White, 1 Black), or TERMINAL."""
        if self.game.is_over():
            return pyspiel.PlayerId.TERMINAL
        return _PLAYER[self.game.decider()]

    def _legal_actions(self, player):
        return self.game.legal_action_ids()

    def _apply_action(self, action):
        self.game.play(int(action))
        if not self.game.is_over() and self.game.ply() >= self._max_plies:
            self.game.adjudicate_move_limit()

    def _action_to_string(self, player, action):
        return agon.action_from_id(int(action))

    def is_terminal(self):
        return self.game.is_over()

    def returns(self):
        """+1/-1 for a win, 0 for a draw or a game still going."""
        score = self.game.white_score()
        if score is None:
            return [0.0, 0.0]
        white = 2.0 * score - 1.0
        return [white, 0.0 - white]  # not -0.0 for a draw

    def __str__(self):
        return self.game.position()


class BoardObserver:
    """The observation: ``agon.Game.observation()`` planes (PyObserver interface)."""

    def __init__(self, params):
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        self.tensor = np.zeros(int(np.prod(agon.OBSERVATION_SHAPE)), np.float32)
        self.dict = {"observation": self.tensor.reshape(agon.OBSERVATION_SHAPE)}

    def set_from(self, state, player):
        self.tensor[:] = state.game.observation().reshape(-1)

    def string_from(self, state, player):
        return state.game.position()


class RolloutEvaluator:
    """An evaluator for OpenSpiel's ``mcts.MCTSBot`` whose random rollouts run in Rust
    (``agon.Game.random_playout``, the GIL released): the same estimate as OpenSpiel's
    ``RandomRolloutEvaluator``, many times faster on Agon's long games. Deterministic for a
    seed. A rollout still going after ``max_plies`` more plies counts as a draw."""

    def __init__(self, n_rollouts: int = 1, seed: int = 0, max_plies: int = 1000):
        self.n_rollouts = n_rollouts
        self.max_plies = max_plies
        self._rng = np.random.default_rng(seed)

    def evaluate(self, state):
        """Mean returns of ``n_rollouts`` random playouts from ``state``."""
        total = np.zeros(2)
        for _ in range(self.n_rollouts):
            game = state.game.copy()
            game.random_playout(int(self._rng.integers(2**63)), game.ply() + self.max_plies)
            score = game.white_score()
            white = 0.0 if score is None else 2.0 * score - 1.0
            total += (white, -white)
        return total / self.n_rollouts

    def prior(self, state):
        """Uniform priors over the legal actions."""
        actions = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(actions)) for action in actions]


class HeuristicEvaluator:
    """An evaluator for OpenSpiel's ``mcts.MCTSBot`` that uses the static evaluation of
    agon's agents (``agon.Game.evaluate``) instead of rollouts: ``tanh(score / scale)`` for
    White, its negation for Black; finished games give their returns."""

    def __init__(self, scale: float = 300.0):
        self.scale = scale

    def evaluate(self, state):
        """Values for both players, in [-1, 1]."""
        if state.is_terminal():
            return np.array(state.returns())
        score = state.game.evaluate()
        if score is None:  # the side to move has no action: it loses (or passes)
            white = 0.0
        else:
            white = float(np.tanh(score / self.scale))
        return np.array([white, -white])

    def prior(self, state):
        """Uniform priors over the legal actions."""
        actions = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(actions)) for action in actions]


class AgentBot(pyspiel.Bot):
    """An agon computer player (``agon.Agent`` spec, e.g. ``"alphabeta:depth=3"``) as an
    OpenSpiel bot, to play against OpenSpiel's own bots."""

    def __init__(self, spec: str, seed: int = 0):
        super().__init__()
        self.agent = agon.Agent(spec, seed)

    def step(self, state):
        return agon.action_id(self.agent.choose(state.game))

    def restart_at(self, state):
        self.agent.new_game()


def register() -> None:
    """Registers the game ``"agon"`` with pyspiel (again is harmless)."""
    if "agon" not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, AgonGame)
