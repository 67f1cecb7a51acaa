//! Properties over many seeded random games in every single-switch variant and `ludii`:
//! the incremental hash, hash equality against position equality, `check` against the
//! generator, generation by destination, `undo`, and the half-turn mirror symmetry.

use agon_core::{
    Action, ActionList, Bitboard, Cell, Game, GameResult, PieceKind, Position, Rng, Rules, Side,
};
use std::collections::HashMap;

/// Every single-switch variant (the standard rules included) and `ludii`.
fn rule_sets() -> Vec<Rules> {
    let mut sets = Rules::single_switch_variants();
    sets.push(Rules::LUDII);
    sets
}

/// Plays a seeded random game to its end or `max_plies`, calling `visit` before every ply
/// with the game and the action about to be played.
fn random_game(
    rules: Rules,
    seed: u64,
    max_plies: usize,
    mut visit: impl FnMut(&Game, Action),
) -> Game {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(rules);
    let mut list = ActionList::new();
    while !game.is_over() && game.ply_count() < max_plies {
        game.position().legal().generate(&mut list);
        let action = list[rng.below(list.len())];
        visit(&game, action);
        game.play(action).expect("generated actions are legal");
    }
    game
}

#[test]
fn the_incremental_hash_equals_the_hash_from_scratch() {
    let mut positions = 0;
    let mut games = 0;
    for (i, rules) in rule_sets().into_iter().enumerate() {
        for g in 0..400 {
            let game = random_game(rules, (i as u64) << 32 | g, 1000, |game, _| {
                let p = game.position();
                assert_eq!(p.hash(), p.hash_from_scratch(), "`{rules}` game {g}\n{p}");
                positions += 1;
            });
            let p = game.position();
            assert_eq!(p.hash(), p.hash_from_scratch());
            games += 1;
        }
    }
    println!("hash checked at {positions} positions of {games} games");
    assert!(positions > 1_000_000);
}

/// What the repetition rule compares, read through the public accessors.
type Key = ([Bitboard; 2], Bitboard, Bitboard, [[u8; 2]; 2], Side);

fn key(p: &Position) -> Key {
    let queens = p.pieces(Side::White, PieceKind::Queen) | p.pieces(Side::Black, PieceKind::Queen);
    let hand = |s| {
        [
            p.in_hand(s, PieceKind::Queen),
            p.in_hand(s, PieceKind::Guard),
        ]
    };
    (
        [p.side_pieces(Side::White), p.side_pieces(Side::Black)],
        queens,
        p.captured(),
        [hand(Side::White), hand(Side::Black)],
        p.to_move(),
    )
}

#[test]
fn equal_hashes_if_and_only_if_equal_positions() {
    let mut by_hash: HashMap<u64, (Key, Position)> = HashMap::new();
    let mut by_key: HashMap<Key, u64> = HashMap::new();
    let mut visited = 0;
    for (i, rules) in rule_sets().into_iter().enumerate() {
        for g in 0..150 {
            random_game(rules, 0xB0B0 + ((i as u64) << 32 | g), 1000, |game, _| {
                let p = *game.position();
                let k = key(&p);
                visited += 1;
                if let Some((other_key, other)) = by_hash.get(&p.hash()) {
                    assert_eq!(*other_key, k, "a hash collision between\n{p}\nand\n{other}");
                    assert_eq!(*other, p);
                } else {
                    by_hash.insert(p.hash(), (k, p));
                }
                if let Some(&h) = by_key.get(&k) {
                    assert_eq!(h, p.hash(), "equal positions with different hashes\n{p}");
                } else {
                    by_key.insert(k, p.hash());
                }
            });
        }
    }
    println!(
        "{visited} positions visited, {} distinct, as many hashes",
        by_key.len()
    );
    assert_eq!(by_hash.len(), by_key.len());
    assert!(by_key.len() > 500_000);
}

/// Actions to try in a position: every placement and pass, steps from every occupied cell
/// (and a few empty ones) to every cell within two, relocations from every occupied cell
/// (and a few empty ones) to every cell.
fn candidates(p: &Position) -> Vec<Action> {
    let mut out = vec![Action::Pass];
    let sources: Vec<Cell> = p
        .occupied()
        .into_iter()
        .chain(["f6", "a1", "e5", "l6"].map(|n| Cell::parse(n).unwrap()))
        .collect();
    for to in Cell::all() {
        for kind in [PieceKind::Queen, PieceKind::Guard] {
            out.push(Action::Place { kind, to });
        }
        for &from in &sources {
            out.push(Action::Relocate { from, to });
            if from.distance(to) <= 2 {
                out.push(Action::Step { from, to });
            }
        }
    }
    out
}

#[test]
fn check_accepts_exactly_the_generated_actions() {
    let mut positions = 0;
    let mut tried = 0;
    for (i, rules) in rule_sets().into_iter().enumerate() {
        for g in 0..12 {
            random_game(rules, 0xC4EC + ((i as u64) << 32 | g), 600, |game, _| {
                if game.ply_count() % 3 != 0 {
                    return;
                }
                let p = game.position();
                let generated = p.legal().to_vec();
                assert_eq!(generated.len(), p.legal().count());
                let mut unique = generated.clone();
                unique.dedup();
                assert_eq!(unique.len(), generated.len(), "duplicates in\n{p}");
                for &a in &generated {
                    assert_eq!(p.check(a), Ok(()), "`{rules}`: generated {a} refused\n{p}");
                }
                let legal = p.legal();
                for a in candidates(p) {
                    let accepted = p.check(a).is_ok();
                    assert_eq!(
                        accepted,
                        generated.binary_search(&a).is_ok(),
                        "`{rules}`: check and the generator disagree on {a}\n{p}"
                    );
                    assert_eq!(
                        accepted,
                        legal.contains(a),
                        "`{rules}`: check and LegalActions::contains disagree on {a}\n{p}"
                    );
                    tried += 1;
                }
                positions += 1;
            });
        }
    }
    println!("{tried} candidate actions tried at {positions} positions");
    assert!(positions > 10_000);
}

#[test]
fn generating_by_destination_lists_exactly_the_actions_arriving_there() {
    let mut positions = 0;
    let mut all = ActionList::new();
    let mut some = ActionList::new();
    for (i, rules) in rule_sets().into_iter().enumerate() {
        for g in 0..6 {
            let mut rng = Rng::new(0xDE57 + g);
            random_game(rules, 0xD0 + ((i as u64) << 32 | g), 600, |game, _| {
                let p = game.position();
                p.legal().generate(&mut all);
                // Random destination sets, the empty set and the whole board.
                let random = Bitboard::ALL & Cell::all().filter(|_| rng.below(3) == 0).collect();
                for cells in [random, Bitboard::EMPTY, Bitboard::ALL] {
                    p.legal().generate_to(cells, &mut some);
                    let expected: Vec<Action> = all
                        .iter()
                        .copied()
                        .filter(|a| a.destination().is_some_and(|c| cells.contains(c)))
                        .collect();
                    assert_eq!(some.as_slice(), expected.as_slice(), "`{rules}`\n{p}");
                }
                positions += 1;
            });
        }
    }
    assert!(positions > 5_000, "{positions}");
}

#[test]
fn undo_restores_every_earlier_state() {
    let mut plies = 0;
    for (i, rules) in rule_sets().into_iter().enumerate() {
        for g in 0..100 {
            let mut states = Vec::new();
            let mut game = random_game(rules, 0x0DD0 + ((i as u64) << 32 | g), 800, |game, _| {
                let p = *game.position();
                states.push((p, p.hash(), p.passes(), game.outcome()));
            });
            let end = (*game.position(), game.outcome());
            let actions: Vec<Action> = game.plies().iter().map(|p| p.action).collect();
            let captures: Vec<Bitboard> = game.plies().iter().map(|p| p.captures).collect();
            while let Some((p, hash, passes, outcome)) = states.pop() {
                let ply = game.undo().expect("a ply to undo");
                assert_eq!(ply.action, actions[states.len()]);
                assert_eq!(*game.position(), p);
                assert_eq!(game.position().hash(), hash);
                assert_eq!(game.position().passes(), passes);
                assert_eq!(game.outcome(), outcome);
                assert_eq!(game.ply_count(), states.len());
                plies += 1;
            }
            assert!(game.undo().is_none());
            // Replaying gives the same captures and the same end (the repetition count was
            // restored too).
            for (a, c) in actions.iter().zip(&captures) {
                assert_eq!(game.play(*a), Ok(*c));
            }
            assert_eq!((*game.position(), game.outcome()), end);
        }
    }
    println!("{plies} plies undone");
    assert!(plies > 100_000);
}

fn mirror(action: Action) -> Action {
    match action {
        Action::Step { from, to } => Action::Step {
            from: from.opposite(),
            to: to.opposite(),
        },
        Action::Relocate { from, to } => Action::Relocate {
            from: from.opposite(),
            to: to.opposite(),
        },
        Action::Place { kind, to } => Action::Place {
            kind,
            to: to.opposite(),
        },
        Action::Pass => Action::Pass,
    }
}

/// Every rule set of [`rule_sets`] but `opening=placement-opposed`, which is not symmetric
/// by design: it ties Black's queen (not the second queen placed) to White's, so in the
/// mirrored game, where Black places first, Black's queen has no cell at all.
fn mirror_rule_sets() -> Vec<Rules> {
    let sets: Vec<Rules> = rule_sets()
        .into_iter()
        .filter(|r| r.opening() != agon_core::Opening::PlacementOpposed)
        .collect();
    assert_eq!(sets.len(), rule_sets().len() - 1);
    sets
}

fn mirror_cells(cells: Bitboard) -> Bitboard {
    cells.map(Cell::opposite).collect()
}

/// The rules do not care about colours or the half turn: a game and its mirror image,
/// played from the mirrored start (Black to move), stay mirror images ply by ply, with
/// mirrored legal actions, captures and outcomes.
#[test]
fn mirrored_games_stay_mirrored() {
    let mut plies = 0;
    for (i, rules) in mirror_rule_sets().into_iter().enumerate() {
        for g in 0..120 {
            let mut mirror_game = Game::from_position(Position::start(rules).mirrored());
            random_game(
                rules,
                0x3133 + ((i as u64) << 32 | g),
                800,
                |game, action| {
                    let p = game.position();
                    let m = mirror_game.position();
                    assert_eq!(
                        *m,
                        p.mirrored(),
                        "`{rules}` game {g} ply {}",
                        game.ply_count()
                    );
                    assert_eq!(m.hash(), p.mirrored().hash());
                    assert_eq!(m.decider(), !p.decider());
                    let mut mirrored: Vec<Action> =
                        p.legal().to_vec().into_iter().map(mirror).collect();
                    mirrored.sort();
                    assert_eq!(m.legal().to_vec(), mirrored, "`{rules}` game {g}");
                    let mut after = *p;
                    let captured = after.play_unchecked(action);
                    let mirror_captured = mirror_game.play(mirror(action)).unwrap_or_else(|e| {
                        panic!(
                            "`{rules}` game {g} ply {}: mirrored {action}: {e} ({:?})\n{p}",
                            game.ply_count(),
                            mirror_game.outcome()
                        )
                    });
                    assert_eq!(mirror_captured, mirror_cells(captured));
                    plies += 1;
                },
            );
        }
    }
    println!("{plies} plies compared with their mirror images");
    assert!(plies > 100_000);
}

#[test]
fn mirrored_outcomes_swap_the_winner() {
    let swapped = |r: GameResult| match r {
        GameResult::WhiteWins => GameResult::BlackWins,
        GameResult::BlackWins => GameResult::WhiteWins,
        other => other,
    };
    let mut decisive = 0;
    for (i, rules) in mirror_rule_sets().into_iter().enumerate() {
        for g in 0..40 {
            let mut mirror_game = Game::from_position(Position::start(rules).mirrored());
            let game = random_game(rules, 0x5A5A + ((i as u64) << 32 | g), 3000, |_, a| {
                mirror_game.play(mirror(a)).expect("mirrored action");
            });
            assert_eq!(
                mirror_game.result(),
                swapped(game.result()),
                "`{rules}` game {g}"
            );
            assert_eq!(
                mirror_game.outcome().map(|o| o.termination),
                game.outcome().map(|o| o.termination)
            );
            decisive += game.result().winner().is_some() as usize;
        }
    }
    assert!(decisive > 100);
}
