"""agon.Agent: the engine's computer players, deterministic by seed, searching without the
GIL (as do perft and validation)."""

import sys
import threading

import pytest

import agon


def test_alphabeta_chooses_a_legal_action_deterministically():
    game = agon.Game()
    game.play("h9-g9")
    agent = agon.Agent("alphabeta:depth=4")
    assert agent.spec.startswith("alphabeta") and "depth=4" in agent.spec
    choice = agent.choose(game)
    assert choice in game.legal_actions()
    assert agon.Agent("alphabeta:depth=4").choose(game) == choice
    assert game.ply() == 1  # choosing does not play


def test_agents_play_whole_games_in_every_kind_of_variant():
    for variant in ["standard", "queen-relocated-by=opponent,opening=placement", "ludii", "touch-move=on"]:
        game = agon.Game(variant)
        agents = {"white": agon.Agent("greedy", seed=1), "black": agon.Agent("mcts:playouts=30", seed=2)}
        while not game.is_over() and game.ply() < 300:
            game.play(agents[game.decider()].choose(game))
        assert game.ply() == 300 or game.termination() is not None


def test_random_agent_depends_on_its_seed_only():
    def moves(seed):
        game, agent = agon.Game(), agon.Agent("random", seed=seed)
        for _ in range(20):
            game.play(agent.choose(game))
        return game.history()

    assert moves(5) == moves(5)
    assert moves(5) != moves(6)


def test_bad_specs_and_finished_games():
    with pytest.raises(agon.AgentError, match=r"^`minimax` is not an agent: unknown agent `minimax`; known agents: random, greedy, alphabeta, mcts$"):
        agon.Agent("minimax")
    with pytest.raises(agon.AgentError, match="unknown option `deep`"):
        agon.Agent("alphabeta:deep=3")
    game = agon.Game()
    game.random_playout(0)
    with pytest.raises(agon.IllegalActionError, match="the game is over"):
        agon.Agent("random").choose(game)
    assert [name for name, _ in agon.Agent.known()] == ["random", "greedy", "alphabeta", "mcts"]


def _main_thread_ran_during(work):
    """Whether this thread could run Python code while `work` ran in another thread. With
    a switch interval far longer than the test, the interpreter never takes the GIL from a
    thread: this thread runs during `work` only if `work` releases the GIL itself."""
    started, main_ran = threading.Event(), threading.Event()
    seen = []

    def run():
        started.set()
        work()
        seen.append(main_ran.is_set())

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        thread = threading.Thread(target=run)
        thread.start()
        started.wait()
        main_ran.set()
        thread.join()
    finally:
        sys.setswitchinterval(interval)
    return seen[0]


def test_the_gil_check_tells_a_call_that_holds_it():
    data = list(range(3_000_000, 0, -1))
    assert not _main_thread_ran_during(lambda: sorted(data))


@pytest.mark.parametrize(
    "work",
    [
        lambda: agon.perft("standard", 5),
        lambda: agon.Agent("alphabeta:depth=6").choose(agon.Game()),
        lambda: agon.Game().random_playout(1, 200_000) and [agon.Game().random_playout(s) for s in range(300)],
        lambda: agon.validate(["\n".join(_long_records(60))]),
    ],
    ids=["perft", "agent", "playout", "validate"],
)
def test_long_calls_release_the_gil(work):
    assert _main_thread_ran_during(work)


def _long_records(count):
    records = []
    for seed in range(count):
        game = agon.Game()
        game.random_playout(seed)
        records.append(game.record())
    return records


def test_a_game_in_use_by_a_search_refuses_to_change():
    game = agon.Game()
    started = threading.Event()
    errors = []

    def search():
        started.set()
        agon.Agent("alphabeta:depth=7").choose(game)

    thread = threading.Thread(target=search)
    thread.start()
    started.wait()
    while thread.is_alive() and not errors:
        try:
            game.play("h9-g9")
        except RuntimeError as error:
            errors.append(str(error))
            continue
        while game.ply() == 1:  # played before the search began: take it back
            try:
                game.undo()
            except RuntimeError:
                pass
    thread.join()
    assert errors and "borrowed" in errors[0].lower()
    assert game.ply() == 0
