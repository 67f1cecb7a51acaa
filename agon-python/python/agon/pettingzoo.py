"""Agon as a PettingZoo AEC environment with action masks.

>>> from agon.pettingzoo import env
>>> e = env(variant="capture=ring")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     observation, reward, termination, truncation, info = e.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = e.action_space(agent).sample(observation["action_mask"])
...     e.step(action)

Agents: ``"white"`` and ``"black"``. The selected agent is the side that *decides* the next
action (under ``queen-relocated-by=opponent`` it can be the same agent twice in a row).
Actions are ``agon.action_id`` ids in ``Discrete(agon.ACTION_COUNT)``. Observations are
dicts: ``"observation"`` is ``agon.Game.observation()`` (``float32`` planes of shape
``agon.OBSERVATION_SHAPE``, the same for both agents: the planes say whose turn it is) and
``"action_mask"`` an ``int8`` vector with a 1 at each legal action of the selected agent
(all 0 for the other). Rewards are +1/-1 for a win and 0 for a draw, at the end of the
game; a game still going after ``max_plies`` plies is truncated (both agents, reward 0).
``env.unwrapped.game`` is the ``agon.Game`` being played.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import agon

__all__ = ["env", "raw_env"]


def env(variant: str = "standard", max_plies: int = 1000, render_mode: str | None = None):
    """The environment with PettingZoo's usual wrappers (an illegal action ends the game
    with reward -1 for its agent; out-of-range actions and calls out of order are errors)."""
    wrapped = raw_env(variant=variant, max_plies=max_plies, render_mode=render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """The unwrapped environment (see the module's documentation)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "agon_v0", "is_parallelizable": False}

    def __init__(self, variant: str = "standard", max_plies: int = 1000, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {max_plies}")
        self.rules = agon.Rules.parse(str(variant))
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.possible_agents = ["white", "black"]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(agon.ACTION_COUNT) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, agon.OBSERVATION_SHAPE, np.float32),
                    "action_mask": spaces.Box(0, 1, (agon.ACTION_COUNT,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.game = agon.Game(self.rules)
        self._start_episode()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _start_episode(self):
        self.game = agon.Game(self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.game.decider()

    def reset(self, seed=None, options=None):
        """Starts a new game (the game has no chance: ``seed`` only seeds the action spaces'
        ``sample``)."""
        self._start_episode()
        if seed is not None:
            for offset, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + offset)

    def observe(self, agent):
        mask = self.game.action_mask() if agent == self.agent_selection and not self.game.is_over() else np.zeros(agon.ACTION_COUNT, np.int8)
        return {"observation": self.game.observation(), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.game.play(int(action))
        self.rewards = dict.fromkeys(self.agents, 0)
        if self.game.is_over():
            score = self.game.white_score()
            white = 0 if score is None else int(round(2 * score - 1))
            self.rewards = {"white": white, "black": -white}
            self.terminations = dict.fromkeys(self.agents, True)
            self._finish_infos()
        elif self.game.ply() >= self.max_plies:
            self.game.adjudicate_move_limit()
            self.truncations = dict.fromkeys(self.agents, True)
            self._finish_infos()
        if not (self.terminations[agent] or self.truncations[agent]):
            self.agent_selection = self.game.decider()
        else:
            # Both agents see the end; the other one first.
            self.agent_selection = "black" if agent == "white" else "white"
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish_infos(self):
        for a in self.agents:
            self.infos[a] = {"result": self.game.result(), "termination": self.game.termination()}

    def render(self):
        """The board as text (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
