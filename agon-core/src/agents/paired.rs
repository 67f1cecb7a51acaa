//! The evaluation's bitboard features under the straight-line capture geometry, for both
//! sides at once in one 256-bit AVX2 register: White's 128-bit set in the low half, Black's
//! in the high half.
//!
//! The features ([`super::features::BothSides`]) are some thirty whole-board shifts and a
//! hundred logical operations on 128-bit sets. As pairs of general registers they need
//! three or four instructions per shift and two per logical operation, and more registers
//! than the processor has (a third of the scalar code was spills and reloads); in AVX2
//! registers one instruction does a logical operation for both sides and four do a shift
//! for both. The results are the same sets, bit for bit: the tests compare them with the
//! scalar code on random positions of every rule set.
//!
//! A 128-bit shift by `k` bits is two 64-bit shifts per half and a byte shift (within each
//! 128-bit lane) that carries the bits crossing the middle; AVX2's byte shifts work within
//! each 128-bit lane, so White's and Black's sets never mix.
//!
//! [`Avx2::detect`] decides at run time: the build's baseline (x86-64-v2) has no AVX2.
//! Where it finds AVX2, the whole evaluation runs in a copy compiled for AVX2
//! ([`Avx2::evaluate`]), into which the features are inlined.

use super::eval::{Evaluator, Verdict};
use crate::hot::HotRules;
use crate::{Bitboard, Cell, Intervention, Position};

/// What [`Avx2::features`] finds, indexed by [`crate::Side::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PairedFeatures {
    /// Each side's step targets (guards and queen, onto empty cells the intervention rule
    /// allows; never the throne for a guard).
    pub targets: [u128; 2],
    /// The cells of rings 1 to 3 among each side's guards' step targets, counted.
    pub guard_count: [u32; 2],
    /// Empty cells where an arrival of each side would capture.
    pub capture_cells: [u128; 2],
    /// The cells each side's steps may end on as far as the cells go (empty, and allowed by
    /// the intervention rule).
    pub open: [u128; 2],
    /// The enemy pieces an arrival of each side on a capture cell it can step to (its
    /// capture cells among its step targets) would capture.
    pub step_victims: [u128; 2],
    /// Each side's active queen.
    pub queens: [Option<Cell>; 2],
}

/// Proof that this processor has AVX2: only [`Avx2::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// An `Avx2` if the processor has AVX2 (looked up once). The environment variable
    /// `AGON_NO_AVX2` (any value) refuses it, so that the scalar code can be measured on
    /// any machine.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn detect() -> Option<Avx2> {
        static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let found = *FOUND.get_or_init(|| {
            std::env::var_os("AGON_NO_AVX2").is_none()
                && std::arch::is_x86_feature_detected!("avx2")
        });
        found.then_some(Avx2(()))
    }

    /// No AVX2 off x86-64.
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) fn detect() -> Option<Avx2> {
        None
    }

    /// The features of both sides of `pos` under the straight-line capture geometry and
    /// the hot switches `hot` (those of the position's rules).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn features(self, hot: impl HotRules, pos: &Position) -> PairedFeatures {
        let input = Input::of(pos);
        // SAFETY: `features_avx2` is compiled for AVX2, and an `Avx2` exists only where
        // `Avx2::detect` found AVX2 on this processor (its field is private, `detect` its
        // one maker). The function reads nothing but its argument.
        #[allow(unsafe_code)]
        unsafe {
            x86::features_avx2(
                input,
                hot.ludii(),
                hot.intervention() == Intervention::Forbidden,
            )
        }
    }

    /// Never called: no `Avx2` exists off x86-64.
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) fn features(self, _hot: impl HotRules, _pos: &Position) -> PairedFeatures {
        unreachable!("no Avx2 exists off x86-64")
    }

    /// `eval`'s [`Evaluator::white_and_capture_cells_with`] of `pos` (given its pieces-only
    /// terms `pieces`, if known) with these features,
    /// the whole evaluation compiled for AVX2 (so that the features are inlined into it
    /// rather than called, and the rest uses AVX2's three-operand instructions).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn evaluate(
        self,
        eval: &Evaluator,
        hot: impl HotRules,
        pos: &Position,
        pieces: Option<i32>,
    ) -> (Verdict, Bitboard) {
        // SAFETY: `evaluate_avx2` is compiled for AVX2, and an `Avx2` exists only where
        // `Avx2::detect` found AVX2 on this processor. It reads only its arguments.
        #[allow(unsafe_code)]
        unsafe {
            match pieces {
                None => x86::evaluate_avx2::<false>(self, eval, hot, pos, 0),
                Some(white) => x86::evaluate_avx2::<true>(self, eval, hot, pos, white),
            }
        }
    }

    /// Never called: no `Avx2` exists off x86-64.
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) fn evaluate(
        self,
        _eval: &Evaluator,
        _hot: impl HotRules,
        _pos: &Position,
        _pieces: Option<i32>,
    ) -> (Verdict, Bitboard) {
        unreachable!("no Avx2 exists off x86-64")
    }
}

/// The position's sets the features start from.
#[derive(Clone, Copy, Debug)]
struct Input {
    /// Every piece of each side, captured or not.
    sides: [u128; 2],
    captured: u128,
    queens: u128,
    /// Where each side's active queen may step as far as the board goes (empty without
    /// one).
    queen_steps: [u128; 2],
    /// The cell index of each side's active queen, [`NO_QUEEN`] without one.
    queen_index: [u32; 2],
}

/// [`Input::queen_index`] of a side without an active queen: no cell has it, and its step
/// set is empty.
const NO_QUEEN: u32 = 127;

impl Input {
    #[inline(always)]
    fn of(pos: &Position) -> Input {
        let sides = [
            pos.side_pieces(crate::Side::White).0,
            pos.side_pieces(crate::Side::Black).0,
        ];
        let captured = pos.captured().0;
        let queens = (pos.pieces(crate::Side::White, crate::PieceKind::Queen)
            | pos.pieces(crate::Side::Black, crate::PieceKind::Queen))
        .0;
        // An index with no cell (and so no steps) when the side has no active queen:
        // `trailing_zeros` of an empty set is 128.
        // Written out, not `map`ped: the compiler left `array::map` out of line here.
        let queen_of = |side: u128| (side & queens & !captured).trailing_zeros().min(NO_QUEEN);
        let queen_index = [queen_of(sides[0]), queen_of(sides[1])];
        let steps_of = |index: u32| crate::cell::GEOMETRY.step_mask[index as usize];
        let queen_steps = [steps_of(queen_index[0]), steps_of(queen_index[1])];
        Input {
            sides,
            captured,
            queens,
            queen_steps,
            queen_index,
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Avx2, Input, PairedFeatures, NO_QUEEN};
    use crate::agents::eval::{Evaluator, Verdict};
    use crate::cell::GEOMETRY;
    use crate::hot::HotRules;
    use crate::Bitboard;
    use crate::Cell;
    use crate::Position;
    use std::arch::x86_64::*;

    /// Both halves of a pair: `low` (White's) and `high` (Black's).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn pair(low: u128, high: u128) -> __m256i {
        _mm256_set_epi64x(
            (high >> 64) as i64,
            high as i64,
            (low >> 64) as i64,
            low as i64,
        )
    }

    /// The same set in both halves.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn both(set: u128) -> __m256i {
        pair(set, set)
    }

    /// The halves of a pair.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn split(v: __m256i) -> [u128; 2] {
        let word = |w: i64| w as u64 as u128;
        [
            word(_mm256_extract_epi64::<0>(v)) | word(_mm256_extract_epi64::<1>(v)) << 64,
            word(_mm256_extract_epi64::<2>(v)) | word(_mm256_extract_epi64::<3>(v)) << 64,
        ]
    }

    /// The pair with its halves exchanged (each side's set where the other's was).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn swap(v: __m256i) -> __m256i {
        _mm256_permute4x64_epi64::<0b01_00_11_10>(v)
    }

    /// Each half shifted left by `K` bits (`R` = 64 - `K`).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn left<const K: i32, const R: i32>(v: __m256i) -> __m256i {
        let carried = _mm256_srli_epi64::<R>(_mm256_bslli_epi128::<8>(v));
        _mm256_or_si256(_mm256_slli_epi64::<K>(v), carried)
    }

    /// Each half shifted right by `K` bits (`R` = 64 - `K`).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn right<const K: i32, const R: i32>(v: __m256i) -> __m256i {
        let carried = _mm256_slli_epi64::<R>(_mm256_bsrli_epi128::<8>(v));
        _mm256_or_si256(_mm256_srli_epi64::<K>(v), carried)
    }

    /// Each half moved one step in direction `D` (the index offsets of
    /// [`crate::Direction::offset`]: 12, 11, -1, -12, -11, 1), as the scalar features'
    /// `shift` does.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn shift<const D: usize>(v: __m256i) -> __m256i {
        match D {
            0 => left::<12, 52>(v),
            1 => left::<11, 53>(v),
            2 => right::<1, 63>(v),
            3 => right::<12, 52>(v),
            4 => right::<11, 53>(v),
            _ => left::<1, 63>(v),
        }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn and(a: __m256i, b: __m256i) -> __m256i {
        _mm256_and_si256(a, b)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn or(a: __m256i, b: __m256i) -> __m256i {
        _mm256_or_si256(a, b)
    }

    /// `a & !b`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn and_not(a: __m256i, b: __m256i) -> __m256i {
        _mm256_andnot_si256(b, a)
    }

    /// The population count of each half.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn count(v: __m256i) -> [u32; 2] {
        split(v).map(u128::count_ones)
    }

    /// [`super::Avx2::evaluate`], given the pieces-only terms `pieces` if `GIVEN` (a copy
    /// for each case).
    #[target_feature(enable = "avx2")]
    pub(super) fn evaluate_avx2<const GIVEN: bool>(
        simd: Avx2,
        eval: &Evaluator,
        hot: impl HotRules,
        pos: &Position,
        pieces: i32,
    ) -> (Verdict, Bitboard) {
        eval.white_and_capture_cells_with(hot, pos, Some(simd), GIVEN.then_some(pieces))
    }

    /// The queen on the cell of index `index` ([`NO_QUEEN`]: none).
    #[inline]
    fn queen(index: u32) -> Option<Cell> {
        (index != NO_QUEEN).then(|| Cell::from_index_unchecked(index as u8))
    }

    /// [`super::Avx2::features`]; `ludii`: captured pieces flank; `forbidden`: the
    /// intervention rule forbids steps between two enemy flankers.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn features_avx2(input: Input, ludii: bool, forbidden: bool) -> PairedFeatures {
        let sides = pair(input.sides[0], input.sides[1]);
        let captured = both(input.captured);
        let active = and_not(sides, captured);
        let flankers = if ludii { sides } else { active };
        let empty = and_not(both(GEOMETRY.all), or(sides, swap(sides)));
        // toward[d]: the cells whose neighbour in direction d is a flanker of the half's
        // side (the scalar features' `around`: a shift in the opposite direction).
        let toward = [
            shift::<3>(flankers),
            shift::<4>(flankers),
            shift::<5>(flankers),
            shift::<0>(flankers),
            shift::<1>(flankers),
            shift::<2>(flankers),
        ];
        // Where each side may step: empty, and under the intervention rule not between two
        // of the other side's flankers.
        let open = if forbidden {
            let between = or(
                or(and(toward[0], toward[3]), and(toward[1], toward[4])),
                and(toward[2], toward[5]),
            );
            and_not(empty, swap(between))
        } else {
            empty
        };
        let queens = both(input.queens);
        let guards = and_not(active, queens);
        let source = |d: usize| both(GEOMETRY.step_source[d]);
        let mut guard_targets = shift::<0>(and(guards, source(0)));
        guard_targets = or(guard_targets, shift::<1>(and(guards, source(1))));
        guard_targets = or(guard_targets, shift::<2>(and(guards, source(2))));
        guard_targets = or(guard_targets, shift::<3>(and(guards, source(3))));
        guard_targets = or(guard_targets, shift::<4>(and(guards, source(4))));
        guard_targets = or(guard_targets, shift::<5>(and(guards, source(5))));
        guard_targets = and(guard_targets, and_not(open, both(Bitboard::THRONE.0)));
        let inner = both(Bitboard::ring(1).0 | Bitboard::ring(2).0 | Bitboard::ring(3).0);
        let guard_count = count(and(guard_targets, inner));
        let queen_targets = and(pair(input.queen_steps[0], input.queen_steps[1]), open);
        let targets = or(guard_targets, queen_targets);
        // Capture cells: an arrival captures an enemy piece whose neighbour in direction d
        // is a flanker from the cell on its other side.
        let enemies = swap(active);
        let mut cells = shift::<3>(and(enemies, toward[0]));
        cells = or(cells, shift::<4>(and(enemies, toward[1])));
        cells = or(cells, shift::<5>(and(enemies, toward[2])));
        cells = or(cells, shift::<0>(and(enemies, toward[3])));
        cells = or(cells, shift::<1>(and(enemies, toward[4])));
        cells = or(cells, shift::<2>(and(enemies, toward[5])));
        let capture_cells = and(cells, empty);
        // The victims of arrivals on the capture cells each side can step to: x is captured
        // from c when c is x's neighbour in direction d + 3 and the flanker is x's
        // neighbour in direction d.
        let arrivals = and(capture_cells, targets);
        // In many positions neither side can step to a capture cell: no victims to look for.
        let step_victims = if _mm256_testz_si256(arrivals, arrivals) == 1 {
            arrivals
        } else {
            let mut victims = and(toward[0], shift::<0>(arrivals));
            victims = or(victims, and(toward[1], shift::<1>(arrivals)));
            victims = or(victims, and(toward[2], shift::<2>(arrivals)));
            victims = or(victims, and(toward[3], shift::<3>(arrivals)));
            victims = or(victims, and(toward[4], shift::<4>(arrivals)));
            victims = or(victims, and(toward[5], shift::<5>(arrivals)));
            and(victims, enemies)
        };
        PairedFeatures {
            targets: split(targets),
            guard_count,
            capture_cells: split(capture_cells),
            open: split(open),
            step_victims: split(step_victims),
            queens: [queen(input.queen_index[0]), queen(input.queen_index[1])],
        }
    }
}
