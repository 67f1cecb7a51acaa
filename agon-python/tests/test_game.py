"""agon.Game, agon.Rules, agon.perft and the action ids: exact answers from agon-core."""

import copy
import pickle

import numpy as np
import pytest

import agon


def test_start_has_27_actions_and_standard_perft():
    game = agon.Game()
    assert len(game.legal_actions()) == 27
    assert game.count_legal() == 27
    assert [agon.perft("standard", d) for d in range(1, 5)] == [27, 713, 18417, 466557]
    assert agon.perft("standard", 3, full=True) == 18417


@pytest.mark.parametrize(
    "variant, count",
    [
        ("capture=ring", 469145),
        ("intervention=suicide", 466853),
        ("opening=placement", 657720),
        ("ludii", 466557),
    ],
)
def test_variants_perft_depth_4(variant, count):
    assert agon.perft(variant, 4) == count
    assert agon.perft(agon.Rules(variant), 4) == count


def test_divide_sums_to_perft():
    parts = agon.divide("standard", 3)
    assert len(parts) == 27
    assert sum(n for _, n in parts) == 18417
    assert ("h9-g9", agon.perft(position=_after("h9-g9"), depth=2)) in parts


def _after(*actions):
    game = agon.Game()
    for action in actions:
        game.play(action)
    return game.position()


def test_play_undo_and_state():
    game = agon.Game()
    assert game.to_move() == "white" and game.decider() == "white"
    assert game.play("h9-g9") == []
    assert game.ply() == 1 and game.to_move() == "black"
    assert game.history() == ["h9-g9"]
    before = game.position()
    game.play(game.legal_action_ids()[0])
    assert game.undo() == agon.action_from_id(agon.Game(position=before).legal_action_ids()[0])
    assert game.position() == before
    assert game.undo() == "h9-g9"
    assert game.undo() is None
    assert game.position() == agon.Game().position()
    assert game.result() == "*" and game.termination() is None and game.white_score() is None


def test_illegal_actions_carry_the_cli_message_and_leave_the_game_unchanged():
    game = agon.Game()
    with pytest.raises(agon.IllegalActionError, match=r"^f1-f3 is not legal: f3 is not next to f1$"):
        game.play("f1-f3")
    with pytest.raises(agon.IllegalActionError, match="is not an action"):
        game.play("zz")
    with pytest.raises(agon.IllegalActionError, match="is not an action id"):
        game.play(agon.ACTION_COUNT)
    with pytest.raises(agon.IllegalActionError) as error:
        game.play(agon.action_id("a2-b2"))
    assert str(error.value) == "a2-b2 is not legal: the piece on a2 belongs to the opponent"
    assert isinstance(agon.IllegalActionError("x"), ValueError)
    assert game.ply() == 0 and not game.is_legal("f1-f3") and game.is_legal("h9-g9")


def test_rules_by_name_only():
    rules = agon.Rules.parse("repetition=off, capture=ring")
    assert str(rules) == rules.name == "capture=ring,repetition=off"
    assert rules == agon.Rules("capture=ring,repetition=off") and hash(rules) == hash(agon.Rules(rules.name))
    assert agon.Game(rules).variant == "capture=ring,repetition=off"
    assert [str(r) for r in agon.Rules.variants()][:2] == ["standard", "intervention=suicide"]
    assert set(agon.Rules.switches()) >= {"intervention", "capture", "opening", "repetition"}
    with pytest.raises(agon.RulesError) as error:
        agon.Rules.parse("capture=square")
    assert str(error.value) == "`capture=square` is not a rule set: `square` is not a value of `capture`; valid: line, ring"
    with pytest.raises(agon.RulesError, match="unknown switch `colour`"):
        agon.Game("colour=red")
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_position_strings_round_trip_and_errors():
    start = agon.Game().position()
    assert agon.Game(position=start).position() == start
    moved = _after("h9-g9", "b7-c7")
    assert agon.Game(position=moved).position() == moved
    assert agon.Game(position=moved).to_move() == "white"
    with pytest.raises(agon.PositionError) as error:
        agon.Game(position="1g2G1/G5g w -")
    assert error.value.column >= 1 and "not a position string: column" in str(error.value)


def test_board_and_observation_agree():
    game = agon.Game()
    board = game.board()
    assert len(board) == 14
    assert sorted(v for v in board.values() if v[1] == "queen") == [("black", "queen", False), ("white", "queen", False)]
    obs = game.observation()
    assert obs.shape == agon.OBSERVATION_SHAPE == (len(agon.OBSERVATION_PLANES), 11, 11)
    assert obs.dtype == np.float32
    assert obs[8].sum() == 91  # the cells of the board
    assert obs[:4].sum() == 14 and obs[4:8].sum() == 0  # active pieces, nothing captured
    plane = {("white", "queen"): 0, ("white", "guard"): 1, ("black", "queen"): 2, ("black", "guard"): 3}
    for cell, (side, kind, _) in board.items():
        i, j = agon.cell_coordinates(cell)
        assert obs[plane[side, kind], i, j] == 1
    assert obs[9][obs[8] == 1].min() == 1  # White to move
    game.play("h9-g9")
    assert game.observation()[9].sum() == 0
    assert game.in_hand("white") == {"queen": 0, "guard": 0}
    assert agon.Game("opening=placement").in_hand("black") == {"queen": 1, "guard": 6}


def test_action_ids_are_a_bijection_on_legal_actions():
    seen = {}
    for seed in range(5):
        game = agon.Game("touch-move=on,opening=placement" if seed % 2 else "standard")
        game.random_playout(seed, 200)
        while game.ply() > 0:
            for action in game.legal_actions():
                ident = agon.action_id(action)
                assert 0 <= ident < agon.ACTION_COUNT
                assert agon.action_from_id(ident) == action
                assert seen.setdefault(ident, action) == action
            assert sorted(agon.action_id(a) for a in game.legal_actions()) == game.legal_action_ids()
            mask = game.action_mask()
            assert mask.dtype == np.int8 and mask.sum() == game.count_legal()
            assert list(np.flatnonzero(mask)) == game.legal_action_ids()
            game.undo()
    assert agon.action_id("pass") == agon.ACTION_COUNT - 1
    # 240 pairs of neighbouring cells on a hexagon of side 6, each stepped both ways.
    steps = [i for i in range(6 * 91) if _names_an_action(i)]
    assert len(steps) == 480
    with pytest.raises(agon.IllegalActionError, match="has no action id"):
        agon.action_id("f1-f3")


def _names_an_action(ident):
    try:
        return agon.action_id(agon.action_from_id(ident)) == ident
    except agon.IllegalActionError:
        return False


def test_random_playout_is_deterministic_and_ends_by_the_rules():
    a, b = agon.Game(), agon.Game()
    plies = a.random_playout(7)
    assert b.random_playout(7) == plies == a.ply() > 0
    assert a.history() == b.history()
    assert a.is_over() and a.result() in ("1-0", "0-1", "1/2-1/2")
    assert a.termination() in ("formation", "six-guards", "no-moves", "repetition")
    assert a.legal_actions() == [] and a.count_legal() == 0
    with pytest.raises(agon.IllegalActionError, match=r"^the game is over \(.*\): no action can follow$"):
        a.play("h9-g9")
    replay = agon.Game()
    for action in a.history():
        replay.play(action)
    assert replay.result() == a.result() and replay.termination() == a.termination()


def test_copies_are_independent_and_pickle_round_trips():
    game = agon.Game("capture=ring")
    for i in range(40):
        ids = game.legal_action_ids()
        game.play(ids[(7 * i) % len(ids)])
    assert not game.is_over()
    for other in (game.copy(), copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert other.position() == game.position() and other.history() == game.history()
        assert other.variant == "capture=ring"
        other.play(other.legal_actions()[0])
        assert other.ply() == game.ply() + 1
    assert game.ply() == 40


def test_move_limit_and_records():
    game = agon.Game()
    game.random_playout(1, 30)
    game.adjudicate_move_limit()
    assert game.result() == "1/2-1/2" and game.termination() == "move-limit"
    text = game.record([("Event", "pytest")])
    assert text.startswith('[Event "pytest"]')
    again = agon.Game.from_record(text)
    assert again.history() == game.history() and again.termination() == "move-limit"
    with pytest.raises(agon.RecordError) as error:
        agon.Game.from_record("1. f1-f3 *\n")
    assert error.value.ply == 1 and error.value.kind == "illegal"
    assert str(error.value) == "1:4: game 1, ply 1 (move 1, White): f1-f3 is not legal: f3 is not next to f1"
