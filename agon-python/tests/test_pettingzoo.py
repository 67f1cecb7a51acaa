"""agon.pettingzoo: an AEC environment with action masks, checked by PettingZoo's API test."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import agon  # noqa: E402
from agon.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize(
    "variant, max_plies",
    [("standard", 1000), ("queen-relocated-by=opponent,opening=placement", 300), ("ludii", 200)],
)
def test_pettingzoo_api_test(variant, max_plies):
    api_test(env(variant=variant, max_plies=max_plies), num_cycles=1000, verbose_progress=False)


def _play(e, seed):
    e.reset(seed=seed)
    rewards = {a: 0 for a in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        rewards[agent] += reward
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            assert list(np.flatnonzero(mask)) == e.unwrapped.game.legal_action_ids()
            assert agent == e.unwrapped.game.decider()
            action = e.action_space(agent).sample(mask)
        e.step(action)
    return rewards


def test_episodes_end_with_the_games_result():
    e = env(max_plies=3000)
    rewards = _play(e, 4)
    game = e.unwrapped.game
    assert game.is_over() and sum(rewards.values()) == 0
    assert rewards["white"] == {"1-0": 1, "0-1": -1, "1/2-1/2": 0}[game.result()]
    assert _play(env(max_plies=3000), 4) == rewards  # seeded sampling: the same episode


def test_truncation_at_the_ply_limit():
    e = env(max_plies=10)
    _play(e, 0)
    game = e.unwrapped.game
    assert game.ply() == 10 and game.termination() == "move-limit"
    assert all(e.unwrapped.truncations.values()) is True or e.unwrapped.agents == []


def test_illegal_action_ends_the_game_for_its_agent():
    e = env()
    e.reset()
    e.step(agon.action_id("a2-b2"))  # Black's guard: not White's to move
    assert e.unwrapped.game.ply() == 0
    assert e.rewards["white"] == -1
