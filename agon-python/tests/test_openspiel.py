"""agon.openspiel: the game "agon" through pyspiel's Python-game API, checked with
OpenSpiel's own tools."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

import agon  # noqa: E402
import agon.openspiel  # noqa: E402

agon.openspiel.register()


def test_load_game_and_its_description():
    game = pyspiel.load_game("agon")
    assert game.num_distinct_actions() == agon.ACTION_COUNT
    assert game.num_players() == 2 and game.max_game_length() == 1000
    assert str(game) == "agon(max_plies=1000,rules=standard)"
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert len(state.legal_actions()) == 27
    assert [state.action_to_string(a) for a in state.legal_actions()] == sorted(
        agon.Game().legal_actions(), key=agon.action_id
    )
    assert np.array(state.observation_tensor(0)).reshape(agon.OBSERVATION_SHAPE).tolist() == agon.Game().observation().tolist()
    varied = pyspiel.load_game("agon", {"rules": "repetition=off,capture=ring", "max_plies": 50})
    assert str(varied) == "agon(max_plies=50,rules=capture:ring+repetition:off)"
    assert pyspiel.load_game(str(varied)).new_initial_state().game.variant == "capture=ring,repetition=off"
    with pytest.raises(agon.RulesError):
        pyspiel.load_game("agon", {"rules": "capture=square"})


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"rules": "queen-relocated-by:opponent+opening:placement", "max_plies": 400},
        {"rules": "ludii", "max_plies": 300},
        {"rules": "touch-move=on,intervention=suicide", "max_plies": 300},
    ],
)
def test_random_simulation_check(params):
    pyspiel.random_sim_test(pyspiel.load_game("agon", params), num_sims=3, serialize=True, verbose=False)


def test_random_games_end_with_rule_endings_and_zero_sum_returns():
    game = pyspiel.load_game("agon")
    rng = np.random.default_rng(3)
    terminations = set()
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
        returns = state.returns()
        assert sum(returns) == 0 and returns[0] in (-1.0, 0.0, 1.0)
        terminations.add(state.game.termination())
        expected = {"1-0": 1.0, "0-1": -1.0}.get(state.game.result(), 0.0)
        assert returns[0] == expected
    assert terminations <= {"formation", "six-guards", "no-moves", "repetition", "move-limit"}


def test_clones_are_independent():
    state = pyspiel.load_game("agon").new_initial_state()
    state.apply_action(state.legal_actions()[0])
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.history()) == 1 and len(clone.history()) == 2
    assert state.game.ply() == 1 and clone.game.ply() == 2


def test_openspiel_mcts_beats_a_random_bot():
    game = pyspiel.load_game("agon", {"max_plies": 200})
    scores = []
    for seed in range(4):
        bot = mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=20,
            evaluator=agon.openspiel.HeuristicEvaluator(),
            random_state=np.random.RandomState(seed),
        )
        mcts_player = seed % 2
        random_bot = pyspiel.make_uniform_random_bot(1 - mcts_player, seed)
        bots = [bot, random_bot] if mcts_player == 0 else [random_bot, bot]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        scores.append(returns[mcts_player])
    assert min(scores) >= 0 and sum(scores) >= 3, scores


def test_rollouts_in_rust_are_deterministic_and_scored_for_both_players():
    state = pyspiel.load_game("agon").new_initial_state()
    for action in ["h9-g9", "b7-c7"]:
        state.apply_action(agon.action_id(action))
    values = agon.openspiel.RolloutEvaluator(n_rollouts=20, seed=5).evaluate(state)
    again = agon.openspiel.RolloutEvaluator(n_rollouts=20, seed=5).evaluate(state)
    assert values.tolist() == again.tolist()
    assert values[0] == -values[1] and -1 <= values[0] <= 1
    assert state.game.ply() == 2  # rollouts play on copies
    bot = mcts.MCTSBot(pyspiel.load_game("agon"), 2.0, 30, agon.openspiel.RolloutEvaluator(seed=1), random_state=np.random.RandomState(1))
    assert bot.step(state) in state.legal_actions()


def test_openspiel_mcts_with_its_own_evaluator_plays_legal_actions():
    game = pyspiel.load_game("agon", {"max_plies": 40})
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.game.ply() == 3


def test_agent_bot_plays_for_either_side():
    game = pyspiel.load_game("agon", {"max_plies": 60})
    bots = [agon.openspiel.AgentBot("greedy", seed=1), pyspiel.make_uniform_random_bot(1, 2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 0)
    assert sum(returns) == 0
