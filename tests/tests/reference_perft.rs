//! Perft of agon-core against the independent reference implementation in `tests/src`.
//! Every number is computed twice, by two programs that share no rule code, and pinned.

use agon_core::{perft, Game, Rules};
use agon_tests::reference::{ref_perft, RefGame, RefRules};

/// Perft of the engine and of the reference from the start of `rules`, depths 1..=max;
/// fails if they differ at any depth.
fn both(rules: Rules, max_depth: u32) -> Vec<u64> {
    (1..=max_depth)
        .map(|depth| {
            let engine = perft(&mut Game::new(rules), depth);
            let reference = ref_perft(&mut RefGame::new(RefRules::from_engine(rules)), depth);
            assert_eq!(
                engine, reference,
                "perft({depth}) under `{rules}`: engine {engine}, reference {reference}"
            );
            engine
        })
        .collect()
}

fn rules(name: &str) -> Rules {
    name.parse().expect("a valid rule-set name")
}

#[test]
fn standard_start_depths_1_to_5() {
    assert_eq!(both(Rules::STANDARD, 5), [27, 713, 18417, 466557, 11661977]);
}

/// No ply before the fourth can end between two enemies or capture, so depths 1-3 are the
/// standard numbers for every variant that keeps the standard start and adds no pass.
#[test]
fn single_switch_variants_depths_1_to_3() {
    let expected: [(&str, [u64; 3]); 11] = [
        ("standard", [27, 713, 18417]),
        ("intervention=suicide", [27, 713, 18417]),
        ("intervention=safe", [27, 713, 18417]),
        ("capture=ring", [27, 713, 18417]),
        // 30 outer-ring cells for White's queen, then 29 for Black's, then 28 ...
        ("opening=placement", [30, 870, 24360]),
        // Black's queen has exactly one cell: opposite White's.
        ("opening=placement-opposed", [30, 30, 840]),
        // A pass besides the steps on every turn: 27 + 1, then 713 + 27 + 28.
        ("touch-move=on", [28, 768, 20636]),
        ("relocate-throne=forbidden", [27, 713, 18417]),
        ("queen-relocated-by=opponent", [27, 713, 18417]),
        ("repetition=5", [27, 713, 18417]),
        ("repetition=off", [27, 713, 18417]),
    ];
    let variants = Rules::single_switch_variants();
    assert_eq!(variants.len(), expected.len());
    for (rules, (name, counts)) in variants.into_iter().zip(expected) {
        assert_eq!(rules.to_string(), name);
        assert_eq!(both(rules, 3), counts, "`{name}`");
    }
}

/// Depth 4 is where the variants part: the fourth ply is the first that can end between two
/// enemies (forbidden by default; `intervention=suicide` and `safe` allow it: +296 leaves)
/// and the ring geometry changes which cells are "between" (captures made at ply 4 only
/// show at depth 5).
#[test]
fn variants_at_depth_4() {
    for (name, count) in [
        ("standard", 466557),
        ("intervention=suicide", 466853),
        ("intervention=safe", 466853),
        ("capture=ring", 469145),
        ("intervention=suicide,capture=ring", 469293),
        ("intervention=safe,capture=ring", 469293),
        // 30 * 29 * 28 * 27: queens, then the first guards, on the outer ring.
        ("opening=placement", 657720),
        ("ludii", 466557),
    ] {
        assert_eq!(both(rules(name), 4)[3], count, "`{name}`");
    }
}

/// Combinations of switches, depths 1-4.
#[test]
fn combinations_depths_1_to_4() {
    for (name, counts) in [
        (
            "intervention=safe,opening=placement,touch-move=on",
            [30, 870, 24360, 657720],
        ),
        (
            "capture=ring,opening=placement-opposed,relocate-throne=forbidden,queen-relocated-by=opponent,repetition=off",
            [30, 30, 840, 22680],
        ),
        // White passes, Black passes: the start position again, a draw under
        // repetition=2, so 28 fewer leaves at depth 3 than with touch-move=on alone.
        ("touch-move=on,repetition=2", [28, 768, 20608, 542814]),
    ] {
        assert_eq!(both(rules(name), 4), counts, "`{name}`");
    }
}

/// The reference against Ludii's own counts (`perft.txt` of the conformance data); the
/// engine is compared with the file in `ludii_conformance.rs`.
#[test]
fn ludii_depths_1_to_4() {
    assert_eq!(both(Rules::LUDII, 4), [27, 713, 18417, 466557]);
}

/// Depth 5 under `ludii` (11662533 leaves, Ludii's number): about 3 s for the reference.
#[test]
#[ignore = "slow in the reference; run with --ignored"]
fn ludii_depth_5() {
    assert_eq!(both(Rules::LUDII, 5)[4], 11662533);
}
