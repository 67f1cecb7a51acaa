"""Random playouts through Python: agon against OpenSpiel's own C++ games.

Every case plays uniformly random games from Python (``random.Random(seed).choice`` over
the legal actions, then apply) and counts actions per CPU second of this process
(``time.process_time``), the median of ``--runs`` runs. The cases:

- ``agon.Game`` with action ids (``legal_action_ids`` / ``play(int)``) and with notation
  (``legal_actions`` / ``play(str)``);
- Agon through pyspiel, as ``pyspiel.load_game("agon")`` (``agon.openspiel``), the same
  loop as the C++ games;
- OpenSpiel's C++ games of similar size through pyspiel: hex (11x11, 121 cells), go (9x9,
  81 points), breakthrough (8x8) and chess;
- for reference, ``agon.Game.random_playout``: the whole game in Rust, one call.

    python agon-python/bench/playouts.py                 # prints a Markdown table
    python agon-python/bench/playouts.py --update docs/python.md

``--update`` rewrites the table between the markers ``<!-- playouts:start -->`` and
``<!-- playouts:end -->`` of that file. Needs ``agon`` (pip install ./agon-python) and
``open_spiel``.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import random
import statistics
import subprocess
import time
from importlib import metadata

import agon
import agon.openspiel
import pyspiel

START, END = "<!-- playouts:start -->", "<!-- playouts:end -->"


def agon_game(legal):
    """Random games through `agon.Game`, with the legal actions from `legal(game)`."""

    def play(budget: int, rng: random.Random) -> int:
        actions = 0
        while actions < budget:
            game = agon.Game()
            while not game.is_over():
                game.play(rng.choice(legal(game)))
                actions += 1
        return actions

    return play


def agon_in_rust(budget: int, rng: random.Random) -> int:
    actions = 0
    while actions < budget:
        actions += agon.Game().random_playout(rng.getrandbits(63))
    return actions


def pyspiel_game(name: str):
    game = pyspiel.load_game(name)

    def play(budget: int, rng: random.Random) -> int:
        actions = 0
        while actions < budget:
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        return actions

    return play


def measure(case, budget: int, runs: int, seed: int) -> float:
    """Median actions per CPU second over `runs` runs."""
    rates = []
    for run in range(runs):
        rng = random.Random(seed + run)
        start = time.process_time()
        actions = case(budget, rng)
        rates.append(actions / (time.process_time() - start))
    return statistics.median(rates)


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=200_000, help="actions per run and case (default 200000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per case; the median is reported (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--update", metavar="FILE", help="rewrite the table between the markers in FILE")
    args = parser.parse_args()

    agon.openspiel.register()
    cases = [
        ("Agon, `agon.Game` with action ids", agon_game(agon.Game.legal_action_ids), 1),
        ("Agon, `agon.Game` with notation strings", agon_game(agon.Game.legal_actions), 1),
        ("Agon through pyspiel (`agon.openspiel`, a Python game)", pyspiel_game("agon"), 1),
        ("hex 11x11 (OpenSpiel, C++)", pyspiel_game("hex"), 1),
        ("go 9x9 (OpenSpiel, C++)", pyspiel_game("go(board_size=9)"), 1),
        ("breakthrough 8x8 (OpenSpiel, C++)", pyspiel_game("breakthrough"), 1),
        ("chess (OpenSpiel, C++)", pyspiel_game("chess"), 1),
        ("Agon, `agon.Game.random_playout` (whole games in Rust)", agon_in_rust, 20),
    ]
    rows = []
    for label, case, scale in cases:
        rate = measure(case, args.budget * scale, args.runs, args.seed)
        rows.append((label, rate))
        print(f"{label}: {rate:,.0f} actions/CPU s", flush=True)

    reference = rows[3][1]  # hex
    lines = [
        START,
        f"Commit `{commit()}`, {datetime.date.today()}, Python {platform.python_version()}, "
        f"open_spiel {metadata.version('open_spiel')}; median of {args.runs} runs of "
        f"{args.budget:,} random actions each (20 times that for the last row), "
        f"command `python agon-python/bench/playouts.py`.",
        "",
        "| random playouts from Python | actions per CPU second | vs. hex |",
        "| --- | ---: | ---: |",
    ]
    for label, rate in rows:
        lines.append(f"| {label} | {rate:,.0f} | {rate / reference:.2f}x |")
    lines.append(END)
    table = "\n".join(lines)
    print()
    print(table)
    if args.update:
        with open(args.update, encoding="utf-8") as f:
            text = f.read()
        if START not in text or END not in text:
            raise SystemExit(f"{args.update} has no {START} ... {END} markers")
        before, rest = text.split(START, 1)
        _, after = rest.split(END, 1)
        with open(args.update, "w", encoding="utf-8") as f:
            f.write(before + table + after)


if __name__ == "__main__":
    main()
