//! Issue 8: the `ludii` preset against data recorded from Ludii's own Agon
//! (`tests/data/ludii/`, read as it is). Perft and divides must match exactly;
//! all 200 recorded random games must replay with every action legal, the same captures at
//! every ply and the same result.

use agon_core::{divide, perft, Cell, Game, GameResult, Rules, Termination};
use agon_tests::ludii::{self, LudiiGame};
use agon_tests::reference::{convert, RefGame, RefRules};
use agon_tests::standard_replay::{replay, report, Replay};
use std::collections::BTreeMap;
use std::time::Instant;

fn unwrap<T>(data: Result<T, String>) -> T {
    data.unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn perft_depths_1_to_5_equal_ludii() {
    let recorded = unwrap(ludii::perft_counts());
    assert_eq!(
        recorded.iter().map(|&(d, _)| d).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6],
        "perft.txt should list depths 1-6"
    );
    for &(depth, count) in recorded.iter().filter(|&&(d, _)| d <= 5) {
        assert_eq!(
            perft(&mut Game::new(Rules::LUDII), depth),
            count,
            "perft({depth}) under ludii"
        );
    }
}

/// Compares `perft_divide{depth}.txt` line by line with the engine's divide.
fn check_divide(depth: u32) {
    let recorded = unwrap(ludii::divide_counts(depth));
    let ours: BTreeMap<_, _> = divide(&mut Game::new(Rules::LUDII), depth)
        .into_iter()
        .collect();
    assert_eq!(recorded.len(), ours.len(), "number of first actions");
    for (line, (action, count)) in recorded.iter().enumerate() {
        assert_eq!(
            ours.get(action),
            Some(count),
            "perft_divide{depth}.txt line {}: `{action} {count}`",
            line + 1
        );
    }
}

#[test]
fn divide_depth_5_equals_ludii_line_by_line() {
    check_divide(5);
}

/// 288 million leaves: run with `cargo test -p agon-tests --release --test
/// ludii_conformance -- --ignored`.
#[test]
#[ignore = "288 million leaves; run once with --ignored"]
fn perft_and_divide_depth_6_equal_ludii() {
    let recorded = unwrap(ludii::perft_counts());
    let start = Instant::now();
    let leaves = perft(&mut Game::new(Rules::LUDII), 6);
    println!(
        "perft(6) under ludii: {leaves} leaves in {:.2?}",
        start.elapsed()
    );
    assert_eq!(Some(&(6, leaves)), recorded.iter().find(|(d, _)| *d == 6));
    check_divide(6);
}

/// What is recorded for one game, checked ply by ply against the engine.
fn replay_under_ludii(record: &LudiiGame) -> Game {
    let n = record.index + 1;
    let mut game = Game::new(Rules::LUDII);
    for (ply, (&action, marks)) in record.actions.iter().zip(&record.captures).enumerate() {
        let before = *game.position();
        let captured = game.play(action).unwrap_or_else(|e| {
            panic!(
                "game {n} ply {}: `{action}` is illegal under ludii: {e}\n{before}",
                ply + 1
            )
        });
        let mut ours: Vec<Cell> = captured.collect();
        let mut theirs = marks.captured.clone();
        ours.sort();
        theirs.sort();
        assert_eq!(
            ours,
            theirs,
            "game {n} ply {}: captures of `{action}`",
            ply + 1
        );
        for &cell in &marks.reflanked {
            let (was, is) = (before.piece_at(cell), game.position().piece_at(cell));
            assert!(
                was.is_some_and(|p| p.captured && p.side != before.to_move()) && was == is,
                "game {n} ply {}: Ludii re-flanked a captured enemy piece on {cell}, which \
                 stays as it is; here it was {was:?} and is {is:?}",
                ply + 1
            );
        }
    }
    game
}

#[test]
fn all_200_random_games_replay_with_the_same_captures_and_results() {
    let games = unwrap(ludii::random_games());
    assert_eq!(games.len(), 200);
    let mut endings: BTreeMap<String, usize> = BTreeMap::new();
    let (mut plies, mut captures, mut reflanks, mut passes) = (0, 0, 0, 0);
    for record in &games {
        let game = replay_under_ludii(record);
        let n = record.index + 1;
        plies += record.actions.len();
        captures += record
            .captures
            .iter()
            .map(|c| c.captured.len())
            .sum::<usize>();
        reflanks += record
            .captures
            .iter()
            .map(|c| c.reflanked.len())
            .sum::<usize>();
        passes += record
            .actions
            .iter()
            .filter(|a| a.to_string() == "pass")
            .count();
        if record.result == GameResult::Unfinished {
            assert_eq!(
                record.actions.len(),
                2500,
                "game {n}: `*` games stop at 2500 plies"
            );
            assert!(
                !game.is_over(),
                "game {n}: over here ({:?}), not in Ludii",
                game.outcome()
            );
            *endings.entry("* (2500 plies)".into()).or_default() += 1;
        } else {
            let outcome = game.outcome().unwrap_or_else(|| {
                panic!("game {n}: Ludii says {}, here it goes on", record.result)
            });
            assert_eq!(
                outcome.result, record.result,
                "game {n}: result ({outcome:?})"
            );
            assert_ne!(outcome.termination, Termination::MoveLimit);
            *endings
                .entry(format!("{} {}", outcome.result, outcome.termination))
                .or_default() += 1;
        }
    }
    println!(
        "replayed 200 games: {plies} plies, {passes} forced passes, {captures} captures, \
         {reflanks} re-flanked captured pieces; endings {endings:?}"
    );
    assert_eq!((plies, passes, captures, reflanks), (154425, 311, 7524, 8));
    let endings: Vec<(&str, usize)> = endings.iter().map(|(k, &v)| (k.as_str(), v)).collect();
    assert_eq!(
        endings,
        [
            ("* (2500 plies)", 9),
            ("0-1 formation", 94),
            ("0-1 six-guards", 12),
            ("1-0 formation", 67),
            ("1-0 six-guards", 18)
        ]
    );
}

/// The independent reference (tests/src/reference) also replays Ludii's games with the
/// same captures: Ludii's data checks both programs, not just the engine.
#[test]
fn the_reference_also_replays_the_200_games() {
    let games = unwrap(ludii::random_games());
    for record in &games {
        let n = record.index + 1;
        let mut game = RefGame::new(RefRules::from_engine(Rules::LUDII));
        for (ply, (&action, marks)) in record.actions.iter().zip(&record.captures).enumerate() {
            let mv = convert::reference_move(action);
            assert!(
                game.legal_moves().contains(&mv),
                "game {n} ply {}: the reference finds `{action}` illegal",
                ply + 1
            );
            let mut ours: Vec<Cell> = game.play(mv).into_iter().map(convert::cell).collect();
            let mut theirs = marks.captured.clone();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "game {n} ply {}: reference captures", ply + 1);
        }
        let over = game.outcome().map(|o| o.winner.map(convert::side));
        let expected = match record.result {
            GameResult::Unfinished => None,
            GameResult::Draw => Some(None),
            r => Some(r.winner()),
        };
        assert_eq!(over, expected, "game {n}: reference result");
    }
}

/// The doc that reports the standard-rules replay, and the markers of its generated block
/// (written by `cargo xtask docs`, which ends it with a provenance line).
const DOC: &str = "../docs/ludii-conformance.md";
const BEGIN: &str = "<!-- regen:ludii-standard-replay begin -->\n";
const END: &str = "<!-- regen:ludii-standard-replay end -->";
const FOOTER: &str = "<sub>Generated by `cargo xtask docs`";

/// The same 200 games replayed under `standard` stop at some ply (an illegal action, or an
/// ending Ludii does not have): docs/ludii-conformance.md reports where and why, and this
/// test keeps that report true. Regenerate it with `cargo xtask docs --only
/// ludii-conformance`.
#[test]
fn standard_replay_report_in_the_docs_is_current() {
    let games = unwrap(ludii::random_games());
    let replays: Vec<Replay> = games.iter().map(|g| replay(g, Rules::STANDARD)).collect();
    let generated = report(&replays, Rules::STANDARD);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DOC);
    let doc = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let (Some(begin), Some(end)) = (doc.find(BEGIN), doc.find(END)) else {
        panic!("{} lacks the generated block's markers", path.display());
    };
    let block = &doc[begin + BEGIN.len()..end];
    let Some(footer) = block.rfind(FOOTER) else {
        panic!(
            "{}: the generated block has no provenance line",
            path.display()
        );
    };
    assert!(
        block[..footer].trim_end() == generated.trim_end(),
        "{} is out of date with the standard-rules replay; regenerate it with \
         cargo xtask docs --only ludii-conformance",
        path.display()
    );
}
