//! The perft suites of `tests/data/perft`: every count checked by agon-core and by the
//! independent reference implementation in `tests/src`, which share no rule code.

use agon_core::{perft, Game, Position, Rules};
use agon_notation::parse_position;
use agon_tests::perft_suite::{read_suites, PerftCase};
use agon_tests::reference::{convert, ref_perft, RefGame, RefRules};
use std::path::Path;

/// Counts above this many nodes are slow in the reference and run only with `--ignored`.
const GATE: u64 = 12_000_000;

fn suites() -> Vec<PerftCase> {
    read_suites(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data/perft"))
}

/// Checks every count of `cases` up to `gate` nodes with both implementations; returns
/// how many were checked.
fn check(cases: &[PerftCase], gate: u64) -> usize {
    let mut checked = 0;
    for case in cases {
        let position = parse_position(&case.position, case.rules)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for &(depth, nodes) in case.counts.iter().filter(|(_, n)| *n <= gate) {
            let engine = perft(&mut Game::from_position(position), depth);
            // From a start, the reference builds its own (no engine state shared).
            let rules = RefRules::from_engine(case.rules);
            let mut reference = if position == Position::start(case.rules) {
                RefGame::new(rules)
            } else {
                let board = convert::board(&position);
                RefGame::from_board(rules, board, u32::from(position.passes()))
            };
            let reference = ref_perft(&mut reference, depth);
            assert_eq!(
                (engine, reference),
                (nodes, nodes),
                "{}: perft {depth} (engine, reference)",
                case.name
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_suites_below_the_gate() {
    let checked = check(&suites(), GATE);
    assert!(checked >= 60, "only {checked} counts checked");
}

#[test]
#[ignore = "counts above 12 million nodes are slow in the reference; run with --ignored"]
fn perft_suites_in_full() {
    check(&suites(), u64::MAX);
}

/// The variants suite covers every single-switch rule set at depth 3 at least, so a new
/// switch value needs its perft line.
#[test]
fn every_single_switch_variant_has_a_suite() {
    let cases = suites();
    for rules in Rules::single_switch_variants()
        .into_iter()
        .chain([Rules::LUDII])
    {
        assert!(
            cases
                .iter()
                .any(|c| c.rules == rules && c.counts.iter().any(|&(d, _)| d >= 3)),
            "no perft case of depth 3 or more for `{rules}` in tests/data/perft"
        );
    }
}
