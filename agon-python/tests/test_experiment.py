"""agon.load_games: an agon-selfplay output directory as columns for pandas or polars."""

import csv
import subprocess

import pytest

import agon


@pytest.fixture(scope="module")
def experiment(tmp_path_factory, selfplay_bin):
    out = tmp_path_factory.mktemp("experiment") / "out"
    subprocess.run(
        [selfplay_bin, "run", "--variant", "standard", "--variant", "capture=ring", "--agent", "greedy",
         "--games", "6", "--max-plies", "200", "--seed", "3", "--threads", "1", "--out", str(out), "--csv"],
        check=True, capture_output=True,
    )
    return out


def test_columns_match_games_csv(experiment):
    table = agon.load_games(experiment)
    with open(experiment / "games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(table)[:-1] == list(rows[0]) and list(table)[-1] == "white_score"
    assert all(len(column) == len(rows) == 12 for column in table.values())
    for name in ["variant", "white", "black", "opening", "result", "termination"]:
        assert table[name] == [row[name] for row in rows]
    for name in ["index", "pair", "plies", "captures", "seed"]:
        assert table[name] == [int(row[name]) for row in rows]
    assert table["white_score"] == [{"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[r] for r in table["result"]]
    assert sorted(set(table["variant"])) == ["capture=ring", "standard"]


def test_records_of_the_experiment_replay(experiment):
    table = agon.load_games(experiment)
    records = list(agon.read_records(experiment / "games.agn"))
    assert len(records) == len(table["index"]) and all(r.valid for r in records)
    assert sorted(len(r.actions) for r in records) == sorted(table["plies"])


def test_pandas_and_polars_take_the_table_if_installed(experiment):
    table = agon.load_games(experiment)
    for module in ("pandas", "polars"):
        try:
            frame = __import__(module).DataFrame(table)
        except ImportError:
            continue
        assert frame.shape == (12, len(table))


def test_not_an_experiment(tmp_path):
    with pytest.raises(agon.ExperimentError, match=str(tmp_path)):
        agon.load_games(tmp_path)
