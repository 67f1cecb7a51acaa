//! Random games compared move by move with the independent reference implementation:
//! at every position of many seeded random games, in every single-switch variant, some
//! combinations and `ludii`, the engine and the reference agree on the set of legal
//! actions, on what every one of those actions captures, on who decides, and on how and
//! when the game ends.

use agon_core::{
    Action, ActionList, Bitboard, Cell, Game, PieceKind, Position, Relocation, Rng, Rules,
};
use agon_tests::reference::convert;
use agon_tests::reference::{ref_perft, Board, RefGame, RefRules};

fn sorted_cells(bits: Bitboard) -> Vec<Cell> {
    let mut cells: Vec<Cell> = bits.collect();
    cells.sort();
    cells
}

/// The engine's and the reference's legal actions, and the captures of each, must agree.
fn compare_position(context: &str, position: &Position, reference: &RefGame) {
    let rules = reference.rules();
    let mut engine_actions = position.legal().to_vec();
    engine_actions.sort();
    let mut reference_actions: Vec<Action> = reference
        .legal_moves()
        .into_iter()
        .map(convert::action)
        .collect();
    reference_actions.sort();
    assert_eq!(
        engine_actions, reference_actions,
        "{context}: legal actions differ in\n{position}"
    );
    assert_eq!(
        position.decider(),
        convert::side(reference.board().decider(rules)),
        "{context}: decider differs in\n{position}"
    );
    for &action in &engine_actions {
        let mut after = *position;
        let engine_captures = sorted_cells(after.play_unchecked(action));
        let mut board = reference.board().clone();
        let mut reference_captures: Vec<Cell> = board
            .play(rules, convert::reference_move(action))
            .into_iter()
            .map(convert::cell)
            .collect();
        reference_captures.sort();
        assert_eq!(
            engine_captures, reference_captures,
            "{context}: captures of {action} differ in\n{position}"
        );
    }
}

/// Whether the captured piece on `from` goes somewhere other than where the switch sends it
/// first: under `next-ring` to a ring beyond the next one, under `start-cell` to the outer
/// ring because none of its start cells is legal (judged from the engine's destinations,
/// which the comparison checks against the reference's).
fn falls_back(position: &Position, from: Cell) -> bool {
    let to = position.relocation_destinations(from);
    let Some(first) = to.first() else {
        return false;
    };
    match position.rules().relocation() {
        Relocation::NextRing => first.ring() > (from.ring() + 1).min(5),
        Relocation::StartCell => {
            let kind = position.piece_at(from).map_or(PieceKind::Guard, |p| p.kind);
            (to & Position::start_cells(position.to_move(), kind)).is_empty()
        }
        _ => false,
    }
}

#[derive(Default)]
struct Coverage {
    games: usize,
    positions: usize,
    actions: usize,
    /// Positions where a captured queen was due for relocation.
    queen_relocations: usize,
    /// Positions where a captured guard was due for relocation.
    guard_relocations: usize,
    /// Captures seen in the games (not counting the alternatives compared).
    captures: usize,
    /// Relocations due whose piece could not go where the `relocation` switch sends it
    /// first: the next ring out had no legal cell (`next-ring`), or no start cell was legal
    /// (`start-cell`).
    fallbacks: usize,
    /// Games ended by the rules, by termination.
    endings: std::collections::BTreeMap<String, usize>,
}

/// Plays `games` seeded random games of at most `max_plies` plies, comparing every position.
fn compare_games(rules: Rules, seed: u64, games: usize, max_plies: usize) -> Coverage {
    let mut coverage = Coverage {
        games,
        ..Coverage::default()
    };
    let ref_rules = RefRules::from_engine(rules);
    let mut list = ActionList::new();
    for g in 0..games {
        let mut rng = Rng::for_stream(seed, g as u64);
        let mut game = Game::new(rules);
        let mut reference = RefGame::new(ref_rules);
        loop {
            let context = format!("`{rules}` game {g} ply {}", game.ply_count());
            assert_eq!(
                game.outcome().and_then(convert::outcome),
                reference.outcome().map(|o| (o.winner, o.reason)),
                "{context}: outcomes differ"
            );
            if let Some(outcome) = game.outcome() {
                *coverage
                    .endings
                    .entry(outcome.termination.to_string())
                    .or_default() += 1;
                break;
            }
            if game.ply_count() >= max_plies {
                break;
            }
            let position = game.position();
            if position.phase() == agon_core::Phase::Relocation {
                let mine = position.side_pieces(position.to_move()) & position.captured();
                if position
                    .queen(position.to_move())
                    .is_some_and(|q| mine.contains(q))
                {
                    coverage.queen_relocations += 1;
                } else {
                    coverage.guard_relocations += 1;
                }
                coverage.fallbacks += mine
                    .into_iter()
                    .filter(|&from| falls_back(position, from))
                    .count();
            }
            assert_eq!(
                &convert::board(game.position()),
                reference.board(),
                "{context}: positions differ"
            );
            compare_position(&context, game.position(), &reference);
            coverage.positions += 1;
            game.position().legal().generate(&mut list);
            coverage.actions += list.len();
            let action = list[rng.below(list.len())];
            let engine_captures = sorted_cells(game.play(action).expect("generated"));
            coverage.captures += engine_captures.len();
            let mut reference_captures: Vec<Cell> = reference
                .play(convert::reference_move(action))
                .into_iter()
                .map(convert::cell)
                .collect();
            reference_captures.sort();
            assert_eq!(engine_captures, reference_captures, "{context}: {action}");
        }
    }
    coverage
}

/// Games per rule set and plies per game compared move by move.
const GAMES: usize = 24;
const MAX_PLIES: usize = 300;

/// A seed per rule set, from its name (FNV-1a), so that every rule set sees other games.
fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01B3)
    })
}

fn check_rule_set(name: &str) {
    let seed = seed_of(name);
    let rules: Rules = name.parse().expect("a valid rule-set name");
    let c = compare_games(rules, seed, GAMES, MAX_PLIES);
    println!(
        "`{rules}`: compared {} games, {} positions, {} actions; {} captures, {} queen and {} \
         guard relocations ({} falling back); endings {:?}",
        c.games,
        c.positions,
        c.actions,
        c.captures,
        c.queen_relocations,
        c.guard_relocations,
        c.fallbacks,
        c.endings
    );
    assert!(
        c.positions > GAMES * 30,
        "`{rules}`: games too short to say much"
    );
    if rules.relocation() == Relocation::Removed {
        // Captured pieces leave the board: no relocation, and games end by a lost queen.
        assert_eq!(c.queen_relocations + c.guard_relocations, 0, "`{rules}`");
        assert!(
            c.captures > 0 && c.endings.contains_key("queen-captured"),
            "`{rules}`: the games never captured a queen"
        );
    } else {
        assert!(
            c.queen_relocations > 0 && c.guard_relocations > 0,
            "`{rules}`: the games never reached both kinds of relocation"
        );
    }
    let single_value = Rules::STANDARD.with_relocation(rules.relocation()) == Ok(rules);
    if single_value
        && matches!(
            rules.relocation(),
            Relocation::NextRing | Relocation::StartCell
        )
    {
        // Fallbacks are rare in random games; these seeds reach some (the worked examples
        // of docs/rules.md test each fallback by hand).
        assert!(
            c.fallbacks > 0,
            "`{rules}`: no relocation fell back to another ring or the outer ring"
        );
    }
}

macro_rules! rule_set_tests {
    ($($test:ident: $name:literal,)*) => {
        $(
            #[test]
            fn $test() {
                check_rule_set($name);
            }
        )*

        /// Every rule set compared here (the perft test walks the same list).
        fn rule_sets() -> Vec<Rules> {
            vec![$($name.parse().expect("a valid rule-set name")),*]
        }
    };
}

rule_set_tests! {
    standard: "standard",
    intervention_suicide: "intervention=suicide",
    intervention_safe: "intervention=safe",
    capture_ring: "capture=ring",
    opening_placement: "opening=placement",
    opening_placement_opposed: "opening=placement-opposed",
    touch_move: "touch-move=on",
    relocate_throne_forbidden: "relocate-throne=forbidden",
    queen_relocated_by_opponent: "queen-relocated-by=opponent",
    repetition_5: "repetition=5",
    repetition_off: "repetition=off",
    suicide_ring: "intervention=suicide,capture=ring",
    safe_ring_touch_move: "intervention=safe,capture=ring,touch-move=on",
    suicide_placement_opponent: "intervention=suicide,opening=placement,queen-relocated-by=opponent",
    ring_opposed_throne_opponent: "capture=ring,opening=placement-opposed,relocate-throne=forbidden,queen-relocated-by=opponent",
    safe_throne_repetition_2: "intervention=safe,relocate-throne=forbidden,repetition=2",
    touch_move_no_repetition: "touch-move=on,repetition=off",
    relocation_next_ring: "relocation=next-ring",
    relocation_start_cell: "relocation=start-cell",
    relocation_removed: "relocation=removed",
    suicide_ring_next_ring_opponent: "intervention=suicide,capture=ring,relocation=next-ring,queen-relocated-by=opponent",
    safe_start_cell_opponent: "intervention=safe,relocation=start-cell,queen-relocated-by=opponent",
    suicide_start_cell_touch_move: "intervention=suicide,touch-move=on,relocation=start-cell",
    placement_next_ring_repetition_2: "opening=placement,relocation=next-ring,repetition=2",
    suicide_removed: "intervention=suicide,relocation=removed",
    ring_opposed_touch_move_removed: "capture=ring,opening=placement-opposed,touch-move=on,relocation=removed",
    ludii: "ludii",
}

#[test]
fn every_single_switch_variant_is_compared() {
    let compared = rule_sets();
    for rules in Rules::single_switch_variants() {
        assert!(compared.contains(&rules), "`{rules}` is not compared");
    }
}

/// Perft from positions in the middle of random games (where captures, relocations and
/// formations happen, unlike the first plies from the start).
#[test]
fn perft_from_mid_game_positions_agrees_with_the_reference() {
    let mut list = ActionList::new();
    let mut compared = 0;
    for (i, rules) in rule_sets().into_iter().enumerate() {
        let ref_rules = RefRules::from_engine(rules);
        for g in 0..6 {
            let mut rng = Rng::for_stream(0x9E8F + i as u64, g);
            let mut game = Game::new(rules);
            while !game.is_over() && game.ply_count() < 300 {
                if game.ply_count() % 25 == 24 {
                    let position = *game.position();
                    let board: Board = convert::board(&position);
                    for depth in 1..=3 {
                        let engine = agon_core::perft(&mut Game::from_position(position), depth);
                        let reference = ref_perft(
                            &mut RefGame::from_board(
                                ref_rules,
                                board.clone(),
                                position.passes() as u32,
                            ),
                            depth,
                        );
                        assert_eq!(
                            engine,
                            reference,
                            "`{rules}` game {g} ply {}: perft({depth}) differs in\n{position}",
                            game.ply_count()
                        );
                    }
                    compared += 1;
                }
                game.position().legal().generate(&mut list);
                let action = list[rng.below(list.len())];
                game.play_unchecked(action);
            }
        }
    }
    println!("compared perft 1-3 at {compared} mid-game positions");
    assert!(compared > 200);
}
