//! Board features that the evaluation, move ordering and playout policies share: where each
//! side can step, where an arriving piece would capture, and which pieces are threatened.
//!
//! These are heuristics computed with whole-board bitboard operations. They read the rule
//! set (capture geometry, intervention, ludii's flanking captured pieces) so that they are
//! accurate, but nothing here decides legality or outcomes: the search always plays
//! actions through [`Position::play_unchecked`] and asks [`Position::legal`].

use super::paired::Avx2;
use crate::hot::HotRules;
use crate::{
    Bitboard, CaptureMode, Cell, Direction, Intervention, PieceKind, Position, QueenRelocatedBy,
    Side,
};

/// Moves every cell of `bits` one step in direction `D`, by shifting the whole set.
///
/// No mask is needed: the hexagon sits in its 11x11 embedding so that a board cell shifted
/// off the board always lands on an embedding cell outside the board, or beyond the 128
/// bits; never on another board cell (`shifts_never_wrap_onto_the_board` checks every cell
/// and direction). The result may hold such off-board bits, so callers intersect it with
/// a set of board cells before shifting it again or using it.
#[inline(always)]
fn shift<const D: usize>(bits: u128) -> u128 {
    let offset = Direction::ALL[D].offset();
    if offset >= 0 {
        bits << offset
    } else {
        bits >> -offset
    }
}

/// Cells whose neighbour in direction `D` is in `bits` (and off-board bits: see [`shift`]).
#[inline(always)]
fn toward<const D: usize, const OPPOSITE: usize>(bits: u128) -> u128 {
    shift::<OPPOSITE>(bits)
}

/// `around(bits)[d]`: the cells whose neighbour in direction `d` is in `bits`.
#[inline(always)]
fn around(bits: u128) -> [u128; 6] {
    [
        toward::<0, 3>(bits),
        toward::<1, 4>(bits),
        toward::<2, 5>(bits),
        toward::<3, 0>(bits),
        toward::<4, 1>(bits),
        toward::<5, 2>(bits),
    ]
}

/// The cells of each ring, 0 (the throne) to 5.
pub(crate) const RINGS: [Bitboard; 6] = [
    Bitboard::ring(0),
    Bitboard::ring(1),
    Bitboard::ring(2),
    Bitboard::ring(3),
    Bitboard::ring(4),
    Bitboard::ring(5),
];

/// [`Position::decider`], without its phase test where it cannot matter: only under
/// `queen-relocated-by=opponent` does another side than the side to move ever decide. The
/// search asks at every node.
#[inline(always)]
pub(crate) fn decider(pos: &Position) -> Side {
    if pos.rules().queen_relocated_by() == QueenRelocatedBy::Opponent {
        pos.decider()
    } else {
        pos.to_move()
    }
}

/// Active guards of a side.
#[inline]
pub(crate) fn active_guards(pos: &Position, side: Side) -> Bitboard {
    pos.pieces(side, PieceKind::Guard) & !pos.captured()
}

/// Active queen of a side (empty or one cell).
#[inline]
pub(crate) fn active_queen(pos: &Position, side: Side) -> Bitboard {
    pos.pieces(side, PieceKind::Queen) & !pos.captured()
}

/// Where the active pieces of `side` can step (ignoring whose turn it is).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Steps {
    /// Every cell some piece of the side can step to.
    pub targets: Bitboard,
    /// The number of distinct cells of rings 1 to 3 the guards can step to: mobility where
    /// the game is decided (the queen's own progress is valued apart, and on the throne
    /// she cannot move, which is no weakness; a guard sent back to the outer ring gains
    /// no mobility that counts).
    pub guard_count: u32,
}

/// The step actions of `side` in normal play.
#[cfg(test)]
pub(crate) fn steps(pos: &Position, side: Side) -> Steps {
    steps_avoiding(pos, side, pos.intervention_cells(side))
}

/// The step actions of `side` in normal play, given the cells it may not end on.
#[inline(always)]
fn steps_avoiding(pos: &Position, side: Side, forbidden: Bitboard) -> Steps {
    let active = pos.active(side).0;
    let queens = pos.pieces(side, PieceKind::Queen).0;
    step_sets(
        active & !queens,
        active & queens,
        pos.empty_cells().0 & !forbidden.0,
    )
}

/// [`Steps`] of the active `guards` and `queen` (empty or one cell) of a side, onto the
/// `open` cells (empty and allowed).
#[inline(always)]
fn step_sets(guards: u128, queen: u128, open: u128) -> Steps {
    let guard_open = open & !Bitboard::THRONE.0;
    let mut targets = 0;
    for d in Direction::ALL {
        targets |= Bitboard(guards).step_targets(d).0;
    }
    targets &= guard_open;
    let guard_count = (targets & INNER).count_ones();
    if let Some(q) = Bitboard(queen).first() {
        targets |= q.step_set().0 & open;
    }
    Steps {
        targets: Bitboard(targets),
        guard_count,
    }
}

/// Rings 1 to 3: where guard mobility counts.
const INNER: u128 = Bitboard::ring(1).0 | Bitboard::ring(2).0 | Bitboard::ring(3).0;

/// What the evaluation reads of both sides (indexed by [`Side::index`]), computed in one
/// call with whole-board shifts under the straight-line capture geometry (in AVX2 registers
/// where the processor has them: [`Avx2`]; cell by cell under the ring geometry).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BothSides {
    /// Each side's step actions in normal play.
    pub steps: [Steps; 2],
    /// Empty cells where an arrival of each side would capture.
    pub capture_cells: [Bitboard; 2],
    /// The cells each side's steps may end on as far as the cells go: empty, and allowed
    /// by the intervention rule ([`Position::step_open_cells_in`]).
    pub open: [Bitboard; 2],
    /// Each side's active queen ([`active_queen`]).
    pub queens: [Option<Cell>; 2],
    /// How the victims of arrivals are found.
    victims: Victims,
}

/// How [`BothSides`] finds the pieces that arrivals would capture.
#[derive(Clone, Copy, Debug)]
enum Victims {
    /// Cell by cell (the ring geometry).
    ByCell,
    /// Under the straight-line geometry, `[side][d]`: the cells (and off-board bits) whose
    /// neighbour in direction `d` is a flanker of the side ([`around`] of its flankers),
    /// which the intervention cells and the capture cells started from, kept for finding
    /// victims by whole-board shifts.
    Toward([[u128; 6]; 2]),
    /// Under the straight-line geometry, found with the features ([`Avx2::features`]): the
    /// victims of each side's arrivals on the capture cells it can step to.
    Found([Bitboard; 2]),
}

impl BothSides {
    /// The features of both sides of `pos`.
    #[cfg(test)]
    pub(crate) fn of(pos: &Position, simd: Option<Avx2>) -> BothSides {
        BothSides::of_in(pos.rules(), pos, simd)
    }

    /// [`BothSides::of`] under the hot switches `hot` (those of the position's rules), in
    /// AVX2 registers with `simd` (the same sets).
    #[inline(always)]
    pub(crate) fn of_in(hot: impl HotRules, pos: &Position, simd: Option<Avx2>) -> BothSides {
        if hot.capture() == CaptureMode::Ring {
            return BothSides {
                steps: Side::BOTH
                    .map(|side| steps_avoiding(pos, side, pos.intervention_cells_in(hot, side))),
                capture_cells: Side::BOTH.map(|side| capture_cells(pos, side)),
                open: Side::BOTH.map(|side| pos.step_open_cells_in(hot, side)),
                queens: Side::BOTH.map(|side| active_queen(pos, side).first()),
                victims: Victims::ByCell,
            };
        }
        if let Some(simd) = simd {
            let found = simd.features(hot, pos);
            return BothSides {
                steps: [0, 1].map(|s| Steps {
                    targets: Bitboard(found.targets[s]),
                    guard_count: found.guard_count[s],
                }),
                capture_cells: found.capture_cells.map(Bitboard),
                open: found.open.map(Bitboard),
                queens: found.queens,
                victims: Victims::Found(found.step_victims.map(Bitboard)),
            };
        }
        // Blockers and flankers are the same pieces (active ones, or all under ludii), so
        // the six shifts of each side's flankers serve the intervention cells, the capture
        // cells and the victims. Written out per side (no closures over `Side::BOTH`):
        // this runs at every evaluation.
        let toward = [
            around(pos.flankers_in(hot, Side::White).0),
            around(pos.flankers_in(hot, Side::Black).0),
        ];
        let empty = pos.empty_cells().0;
        let captured = pos.captured().0;
        let queens = (pos.pieces(Side::White, PieceKind::Queen)
            | pos.pieces(Side::Black, PieceKind::Queen))
        .0;
        let white_active = pos.side_pieces(Side::White).0 & !captured;
        let black_active = pos.side_pieces(Side::Black).0 & !captured;
        // `pos.intervention_cells(side)`: between two of the other side's flankers.
        let (white_open, black_open) = if hot.intervention() == Intervention::Forbidden {
            (
                empty & !between_on_lines(&toward[1]),
                empty & !between_on_lines(&toward[0]),
            )
        } else {
            (empty, empty)
        };
        let steps = [
            step_sets(white_active & !queens, white_active & queens, white_open),
            step_sets(black_active & !queens, black_active & queens, black_open),
        ];
        let capture_cells = [
            Bitboard(line_capture_cells(black_active, &toward[0]) & empty),
            Bitboard(line_capture_cells(white_active, &toward[1]) & empty),
        ];
        BothSides {
            steps,
            capture_cells,
            open: [Bitboard(white_open), Bitboard(black_open)],
            queens: Side::BOTH.map(|side| active_queen(pos, side).first()),
            victims: Victims::Toward(toward),
        }
    }

    /// The enemy pieces that an arrival of `side` on some cell of `cells` would capture.
    #[inline(always)]
    pub(crate) fn victims(&self, pos: &Position, side: Side, cells: Bitboard) -> Bitboard {
        match &self.victims {
            Victims::ByCell => victims(pos, side, cells),
            Victims::Toward(toward) => line_victims(pos, side, &toward[side.index()], cells),
            Victims::Found(_) => line_victims(pos, side, &around(pos.flankers(side).0), cells),
        }
    }

    /// The enemy pieces that an arrival of `side` on one of its capture cells that it can
    /// step to would capture: [`BothSides::victims`] of those cells.
    #[inline(always)]
    pub(crate) fn step_victims(&self, pos: &Position, side: Side) -> Bitboard {
        match &self.victims {
            Victims::Found(found) => found[side.index()],
            _ => {
                let s = side.index();
                self.victims(pos, side, self.capture_cells[s] & self.steps[s].targets)
            }
        }
    }
}

/// The pieces of the other side than `side` that an arrival of `side` on some cell of
/// `cells` would capture under the straight-line geometry, given [`around`] of `side`'s
/// flankers.
#[inline(always)]
fn line_victims(pos: &Position, side: Side, flanking: &[u128; 6], cells: Bitboard) -> Bitboard {
    // x is captured from c when c is x's neighbour in direction d + 3 and the flanker is
    // x's neighbour in direction d.
    let arrivals = around(cells.0);
    let exposed = pos.active(!side).0;
    let mut found = 0;
    for d in 0..6 {
        found |= exposed & flanking[d] & arrivals[(d + 3) % 6];
    }
    Bitboard(found)
}

/// Cells (and off-board bits) between two cells of a set on a straight line of three,
/// given the set's [`around`] (`Bitboard::between_on_lines` but for off-board bits).
#[inline(always)]
fn between_on_lines(toward: &[u128; 6]) -> u128 {
    (toward[0] & toward[3]) | (toward[1] & toward[4]) | (toward[2] & toward[5])
}

/// Cells (and off-board bits) where an arrival flanks a piece of `victims` against a piece
/// of a set of flankers on a straight line, given the flankers' [`around`].
#[inline(always)]
fn line_capture_cells(victims: u128, toward_flankers: &[u128; 6]) -> u128 {
    let mut cells = 0u128;
    macro_rules! direction {
        ($d:literal, $opposite:literal) => {
            // Victims whose neighbour in direction d is a flanker: an arrival on their
            // other side (opposite d) captures them.
            let flanked = victims & toward_flankers[$d];
            cells |= toward::<$d, $opposite>(flanked);
        };
    }
    direction!(0, 3);
    direction!(1, 4);
    direction!(2, 5);
    direction!(3, 0);
    direction!(4, 1);
    direction!(5, 2);
    cells
}

/// Empty cells where a piece of `side` arriving (by a step or a relocation) would capture
/// at least one enemy piece.
#[inline]
pub(crate) fn capture_cells(pos: &Position, side: Side) -> Bitboard {
    capture_cells_in(pos.rules(), pos, side)
}

/// [`capture_cells`] under the hot switches `hot` (those of the position's rules).
#[inline(always)]
pub(crate) fn capture_cells_in(hot: impl HotRules, pos: &Position, side: Side) -> Bitboard {
    let victims = pos.active(!side);
    let flankers = pos.flankers_in(hot, side);
    let empty = pos.empty_cells();
    match hot.capture() {
        CaptureMode::Line => Bitboard(line_capture_cells(victims.0, &around(flankers.0))) & empty,
        CaptureMode::Ring => {
            let mut cells = Bitboard::EMPTY;
            for x in victims & !Bitboard::THRONE {
                if let Some([a, b]) = x.ring_neighbors() {
                    if flankers.contains(b) {
                        cells |= a.bit();
                    }
                    if flankers.contains(a) {
                        cells |= b.bit();
                    }
                }
            }
            cells & empty
        }
    }
}

/// The enemy pieces that an arrival of `side` on some cell of `cells` would capture (a
/// short loop: call it with the few capture cells a side can reach).
pub(crate) fn victims(pos: &Position, side: Side, cells: Bitboard) -> Bitboard {
    let victims = pos.active(!side);
    let flankers = pos.flankers(side);
    let mut found = Bitboard::EMPTY;
    for at in cells {
        match pos.rules().capture() {
            CaptureMode::Line => {
                for d in Direction::ALL {
                    if let Some(x) = at.neighbor(d) {
                        if victims.contains(x)
                            && x.neighbor(d).is_some_and(|y| flankers.contains(y))
                        {
                            found |= x.bit();
                        }
                    }
                }
            }
            CaptureMode::Ring => {
                for x in at.ring_neighbors().into_iter().flatten() {
                    if victims.contains(x) {
                        let [a, b] = x.ring_neighbors().expect("same ring");
                        let y = if a == at { b } else { a };
                        if flankers.contains(y) {
                            found |= x.bit();
                        }
                    }
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ActionList, Cell, Game, Phase, Rng, Rules};

    /// Random positions of every variant, for cross-checking features with the engine.
    fn sample_positions(rules: Rules, games: u64) -> Vec<Position> {
        let mut out = Vec::new();
        let mut list = ActionList::new();
        for g in 0..games {
            let mut rng = Rng::for_stream(99, g);
            let mut game = Game::new(rules);
            while !game.is_over() && game.ply_count() < 300 {
                out.push(*game.position());
                game.position().legal().generate(&mut list);
                game.play_unchecked(list[rng.below(list.len())]);
            }
        }
        out
    }

    fn all_rules() -> Vec<Rules> {
        let mut rules = Rules::single_switch_variants();
        rules.push(Rules::LUDII);
        rules
    }

    #[test]
    fn the_fast_decider_is_the_positions() {
        let mut relocations = 0;
        for rules in all_rules() {
            for pos in sample_positions(rules, 6) {
                assert_eq!(decider(&pos), pos.decider(), "{rules}\n{pos}");
                relocations += usize::from(pos.decider() != pos.to_move());
            }
        }
        assert!(relocations > 0, "some sample has the opponent choosing");
    }

    #[test]
    fn shifts_never_wrap_onto_the_board() {
        fn shifted(bits: u128, d: usize) -> u128 {
            match d {
                0 => shift::<0>(bits),
                1 => shift::<1>(bits),
                2 => shift::<2>(bits),
                3 => shift::<3>(bits),
                4 => shift::<4>(bits),
                _ => shift::<5>(bits),
            }
        }
        for cell in Cell::all() {
            for (d, &direction) in Direction::ALL.iter().enumerate() {
                let on_board = Bitboard(shifted(cell.bit().0, d)) & Bitboard::ALL;
                let expected = cell.neighbor(direction).map_or(Bitboard::EMPTY, Cell::bit);
                assert_eq!(on_board, expected, "{cell} {d}");
            }
        }
    }

    #[test]
    fn step_targets_match_the_engine_in_normal_play() {
        for rules in all_rules() {
            for pos in sample_positions(rules, 6) {
                if pos.phase() != Phase::Normal {
                    continue;
                }
                let me = pos.to_move();
                let mut list = ActionList::new();
                pos.legal().generate(&mut list);
                let engine: Bitboard = list.iter().filter_map(|a| a.destination()).collect();
                let ours = steps(&pos, me);
                assert_eq!(ours.targets, engine, "{rules}\n{pos}");
            }
        }
    }

    #[test]
    fn both_sides_at_once_match_each_side_alone() {
        let simd = Avx2::detect();
        if simd.is_none() {
            eprintln!("no AVX2 here: the scalar features only");
        }
        let mut step_victims = 0;
        for rules in all_rules() {
            for pos in sample_positions(rules, 3) {
                for both in [BothSides::of(&pos, None), BothSides::of(&pos, simd)] {
                    for side in Side::BOTH {
                        let alone = steps(&pos, side);
                        let s = side.index();
                        assert_eq!(both.steps[s].targets, alone.targets, "{rules}\n{pos}");
                        assert_eq!(both.steps[s].guard_count, alone.guard_count, "{rules}");
                        let open = pos.step_open_cells_in(rules, side);
                        assert_eq!(both.open[s], open, "{rules}\n{pos}");
                        let queen = active_queen(&pos, side).first();
                        assert_eq!(both.queens[s], queen, "{rules}\n{pos}");
                        let cells = capture_cells(&pos, side);
                        assert_eq!(both.capture_cells[s], cells, "{rules}\n{pos}");
                        for subset in [cells, Bitboard(cells.0 & cells.0.wrapping_neg())] {
                            let expected = victims(&pos, side, subset);
                            assert_eq!(both.victims(&pos, side, subset), expected, "{rules}");
                        }
                        let reachable = cells & alone.targets;
                        let expected = victims(&pos, side, reachable);
                        assert_eq!(both.step_victims(&pos, side), expected, "{rules}\n{pos}");
                        step_victims += usize::from(expected.any());
                    }
                }
            }
        }
        assert!(
            step_victims > 100,
            "the samples have victims ({step_victims})"
        );
    }

    #[test]
    fn capture_cells_match_the_engine() {
        let mut list = ActionList::new();
        for rules in all_rules() {
            for pos in sample_positions(rules, 4) {
                let me = pos.to_move();
                let cells = capture_cells(&pos, me);
                pos.legal().generate(&mut list);
                for &action in list.iter() {
                    let Some(to) = action.destination() else {
                        continue;
                    };
                    let mut next = pos;
                    let captured = next.play_unchecked(action) & pos.side_pieces(!me);
                    let placement = matches!(action, crate::Action::Place { .. });
                    let relocation_inert = matches!(action, crate::Action::Relocate { .. })
                        && !rules.relocations_interact();
                    if placement || relocation_inert {
                        assert!(captured.is_empty());
                        continue;
                    }
                    assert_eq!(
                        captured.any(),
                        cells.contains(to),
                        "{rules} {action}\n{pos}"
                    );
                    assert_eq!(captured, victims(&pos, me, to.bit()), "{rules} {action}");
                }
            }
        }
    }
}
