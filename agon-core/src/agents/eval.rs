//! The hand-written evaluation shared by the greedy, alpha-beta and MCTS agents.
//!
//! Units: 100 is about one guard stepping from the outer ring to ring 1. The score is from
//! White's point of view; [`Evaluator::for_side`] turns it around. Every term is computed
//! from a few dozen whole-board bitboard operations (no loops over cells under the standard
//! capture geometry), so an evaluation costs tens of nanoseconds.
//!
//! Terms, for each side:
//! - **progress**: the ring of the queen and of every active guard (inner is better);
//! - **formation**: with the queen on the throne, a bonus growing with the guards already
//!   on ring 1; enemy pieces on ring 1 and an enemy queen on the throne block it;
//! - **pending relocations**: a captured guard is worth the ring it will be relocated to
//!   (the outer ring, its start cell; one ring out under `relocation=next-ring`, which
//!   makes a capture there cheap); a captured queen is worth the best cell her chooser
//!   would give her (the throne, if her owner chooses and may put her there);
//! - **pieces removed** (`relocation=removed`): each guard lost for good costs its side;
//!   a capture of the queen ends the game, so a threat to her is worth a great deal, and
//!   the formation counts the guards still outside ring 1 rather than those on it;
//! - **capture threats**: the side to move gains if it can capture now (more for the
//!   queen); the other side's threats count less (they can be parried);
//! - **mobility**: the cells of rings 1-3 each side's guards can step to;
//! - **tempo**: a small bonus for the side to move.
//!
//! [`EvalTerms`] holds these terms per side ([`EvalTerm`] names them: `progress`,
//! `formation`, `relocations`, `threats`, `mobility`, `tempo`); the search adds them up
//! through the same code.

use super::features::{self, RINGS};
use super::paired::Avx2;
use crate::hot::HotRules;
use crate::{
    Bitboard, Cell, Phase, PieceKind, Position, QueenRelocatedBy, RelocateThrone, Relocation, Side,
    TouchMove,
};

/// The weights of the evaluation terms.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Weights {
    /// Active queen on ring `k` (0 = throne).
    pub queen_ring: [i32; 6],
    /// Active guard on ring `k` (index 0 unused: guards never stand on the throne).
    pub guard_ring: [i32; 6],
    /// Queen on the throne with `k` own guards on ring 1.
    pub formation: [i32; 7],
    /// Each own guard on ring 1 while the enemy queen holds the throne (a dead guard: it can
    /// neither help a formation nor leave ring 1).
    pub guard_ring1_throne_lost: i32,
    /// Each enemy piece on ring 1 (it blocks a cell of the formation until captured).
    pub enemy_on_ring1: i32,

    /// A captured guard waiting to be relocated (it also loses its ring progress).
    pub captured_guard: i32,
    /// A captured queen's tempo loss (on top of the value of the cell she will get).
    pub captured_queen: i32,
    /// Each guard a side has lost for good (`relocation=removed`).
    pub removed_guard: i32,
    /// What losing the queen costs under `relocation=removed`, where it loses the game:
    /// the value of a threat to her.
    pub queen_lost: i32,
    /// The side to move can capture now: this percentage of what its best capture takes.
    pub threat_to_move: i32,
    /// The side not to move threatens a capture: this percentage of what it would take.
    pub threat_waiting: i32,
    /// Each cell the side's guards can step to.
    pub mobility: i32,
    /// The side to move.
    pub tempo: i32,
}

impl Weights {
    /// The names [`Weights::slot`] knows.
    const NAMES: &'static str = "queen_ring.0-5, guard_ring.1-5, formation.0-6, \
        guard_ring1_throne_lost, enemy_on_ring1, captured_guard, captured_queen, \
        removed_guard, queen_lost, threat_to_move, threat_waiting, mobility, tempo";

    /// The weight called `name`.
    fn slot(&mut self, name: &str) -> Option<&mut i32> {
        let (field, index) = match name.split_once('.') {
            Some((f, i)) => (f, Some(i.parse::<usize>().ok()?)),
            None => (name, None),
        };
        let table = |t: &'static str| t == field;
        match (field, index) {
            (_, Some(i)) if table("queen_ring") => self.queen_ring.get_mut(i),
            (_, Some(i)) if table("guard_ring") => self.guard_ring.get_mut(i),
            (_, Some(i)) if table("formation") => self.formation.get_mut(i),
            ("guard_ring1_throne_lost", None) => Some(&mut self.guard_ring1_throne_lost),
            ("enemy_on_ring1", None) => Some(&mut self.enemy_on_ring1),
            ("captured_guard", None) => Some(&mut self.captured_guard),
            ("captured_queen", None) => Some(&mut self.captured_queen),
            ("removed_guard", None) => Some(&mut self.removed_guard),
            ("queen_lost", None) => Some(&mut self.queen_lost),
            ("threat_to_move", None) => Some(&mut self.threat_to_move),
            ("threat_waiting", None) => Some(&mut self.threat_waiting),
            ("mobility", None) => Some(&mut self.mobility),
            ("tempo", None) => Some(&mut self.tempo),
            _ => None,
        }
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            queen_ring: [260, 120, 80, 50, 22, 0],
            guard_ring: [0, 100, 72, 46, 22, 0],
            formation: [0, 12, 30, 55, 90, 140, 0],
            guard_ring1_throne_lost: -40,
            enemy_on_ring1: -30,
            captured_guard: -30,
            captured_queen: -40,
            removed_guard: -300,
            queen_lost: 1000,
            threat_to_move: 90,
            threat_waiting: 50,
            mobility: 16,
            tempo: 8,
        }
    }
}

/// The evaluation with its weights and an optional deterministic noise.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator {
    weights: Weights,
    noise: i32,
    salt: u64,
    /// The features in AVX2 registers, where the processor has them (the same scores).
    simd: Option<Avx2>,
}

/// An evaluator with weight overrides.
pub(crate) fn evaluator(noise: u32, salt: u64, overrides: &WeightOverrides) -> Evaluator {
    Evaluator::new(noise, salt).with_overrides(overrides)
}

/// Changes to the evaluation's weights, as the `weights=` option of an agent spec writes
/// them: `name:value` pairs joined by `+`, where a name is a weight of the evaluation, with
/// `.k` for entry `k` of a table (`mobility:0+queen_ring.1:150`). Parsed and checked once;
/// printed as given (later pairs win over earlier ones for the same weight).
///
/// ```
/// use agon_core::agents::WeightOverrides;
/// let weights: WeightOverrides = "mobility:0+queen_ring.1:150".parse()?;
/// assert_eq!(weights.to_string(), "mobility:0+queen_ring.1:150");
/// assert!("speed:3".parse::<WeightOverrides>().is_err());
/// # Ok::<(), agon_core::agents::WeightsError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct WeightOverrides {
    pairs: Vec<(String, i32)>,
}

impl WeightOverrides {
    /// No change: the default weights.
    pub fn none() -> WeightOverrides {
        WeightOverrides::default()
    }

    /// Whether nothing is changed.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The changed weights, in the order given.
    pub fn pairs(&self) -> &[(String, i32)] {
        &self.pairs
    }
}

impl std::str::FromStr for WeightOverrides {
    type Err = WeightsError;

    fn from_str(text: &str) -> Result<WeightOverrides, WeightsError> {
        let mut pairs = Vec::new();
        for part in text.split('+').filter(|p| !p.is_empty()) {
            let (name, value) = part
                .split_once(':')
                .ok_or_else(|| WeightsError::NotNameValue(part.to_string()))?;
            let value: i32 = value.parse().map_err(|_| WeightsError::NotWholeNumber {
                part: part.to_string(),
                value: value.to_string(),
            })?;
            if Weights::default().slot(name).is_none() {
                return Err(WeightsError::UnknownWeight(name.to_string()));
            }
            pairs.push((name.to_string(), value));
        }
        Ok(WeightOverrides { pairs })
    }
}

impl std::fmt::Display for WeightOverrides {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (name, value)) in self.pairs.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{name}:{value}")?;
        }
        Ok(())
    }
}

/// Why a text is not a list of weight overrides ([`WeightOverrides`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// A part without `:` (the part).
    NotNameValue(String),
    /// A value that is not a whole number.
    NotWholeNumber {
        /// The `name:value` part.
        part: String,
        /// The value.
        value: String,
    },
    /// No weight has this name.
    UnknownWeight(String),
}

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeightsError::NotNameValue(part) => write!(f, "weight `{part}` is not name:value"),
            WeightsError::NotWholeNumber { part, value } => {
                write!(f, "weight `{part}`: `{value}` is not a whole number")
            }
            WeightsError::UnknownWeight(name) => {
                write!(f, "unknown weight `{name}`; weights: {}", Weights::NAMES)
            }
        }
    }
}

impl std::error::Error for WeightsError {}

/// A position's evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The side to move has no legal action and loses.
    NoMoves,
    /// A score from White's point of view.
    Score(i32),
}

/// The named terms of the evaluation (see the module documentation), in the order
/// [`EvalTerm::ALL`] lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalTerm {
    /// The rings of the queen and of every active guard.
    Progress,
    /// The formation bonus around a queen on the throne, less what blocks it (enemy pieces
    /// on ring 1, own guards on ring 1 under an enemy queen on the throne).
    Formation,
    /// What pieces waiting to be relocated cost or are worth.
    Relocations,
    /// Captures the side could make now (its own turn) or next (the other side's turn).
    Threats,
    /// The cells of rings 1-3 the side's guards can step to.
    Mobility,
    /// The side to move's small bonus.
    Tempo,
}

impl EvalTerm {
    /// Every term, in a fixed order.
    pub const ALL: [EvalTerm; 6] = [
        EvalTerm::Progress,
        EvalTerm::Formation,
        EvalTerm::Relocations,
        EvalTerm::Threats,
        EvalTerm::Mobility,
        EvalTerm::Tempo,
    ];

    /// The term's name in lower case (`progress`, `formation`, `relocations`, `threats`,
    /// `mobility`, `tempo`).
    pub const fn name(self) -> &'static str {
        match self {
            EvalTerm::Progress => "progress",
            EvalTerm::Formation => "formation",
            EvalTerm::Relocations => "relocations",
            EvalTerm::Threats => "threats",
            EvalTerm::Mobility => "mobility",
            EvalTerm::Tempo => "tempo",
        }
    }
}

impl std::fmt::Display for EvalTerm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A position's evaluation split by term and side: each side's points for each term, in
/// the evaluation's units. White's total less Black's is the evaluation
/// ([`crate::agents::evaluate`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalTerms {
    points: [[i32; 2]; EvalTerm::ALL.len()],
}

impl EvalTerms {
    /// The points `side` gets for `term`.
    pub fn get(&self, term: EvalTerm, side: Side) -> i32 {
        self.points[term as usize][side.index()]
    }

    /// The sum of `side`'s points over every term.
    pub fn total(&self, side: Side) -> i32 {
        self.points.iter().map(|p| p[side.index()]).sum()
    }

    /// The evaluation from White's point of view: White's total less Black's.
    pub fn white(&self) -> i32 {
        self.total(Side::White) - self.total(Side::Black)
    }
}

/// Where the evaluation's terms go: summed per side (the search) or kept apart.
trait Tally {
    fn add(&mut self, side: Side, term: EvalTerm, points: i32);
}

/// White's sum over every term less Black's, in one register: `points` of Black are
/// subtracted without a branch or an indexed store.
struct WhiteLessBlack(i32);

impl Tally for WhiteLessBlack {
    #[inline(always)]
    fn add(&mut self, side: Side, _term: EvalTerm, points: i32) {
        // 0 for White, -1 (every bit) for Black: `points` or its negation.
        let black = -(side.index() as i32);
        self.0 += (points ^ black) - black;
    }
}

impl Tally for EvalTerms {
    fn add(&mut self, side: Side, term: EvalTerm, points: i32) {
        self.points[term as usize][side.index()] += points;
    }
}

/// Adds a side's terms that depend on where the pieces stand alone (progress, formation,
/// pending relocations, pieces removed) to a tally: `$eval` the [`Evaluator`], `$queens`
/// each side's active queen, `$open` the cells the side's steps may end on
/// ([`features::BothSides::open`]), read only to value its captured queen.
///
/// A macro rather than an inlined function: with the same code as a function, the
/// evaluation executed about 3% more instructions (callgrind), the compiler laying out
/// [`Evaluator::tally`]'s loop differently.
macro_rules! side_pieces {
    ($eval:expr, $hot:expr, $pos:expr, $side:expr, $tally:expr, $queens:expr, $open:expr) => {{
        let w = &$eval.weights;
        let removed = $hot.removed();
        let s = $side.index();
        let foe = !$side;
        let guards = features::active_guards($pos, $side);
        let queen = $queens[s];
        let foe_queen = $queens[foe.index()];
        let ring1 = (guards & RINGS[1]).count() as usize;
        // Rings 1 to 4 as one product of four counts and weights, without iterator
        // adapters (which were sometimes left out of line).
        let count = |k: usize| (guards & RINGS[k]).count() as i32;
        let counts = [ring1 as i32, count(2), count(3), count(4)];
        let mut progress = 0;
        for k in 0..4 {
            progress += w.guard_ring[k + 1] * counts[k];
        }
        // The outer ring has no weight by default: no count then.
        if w.guard_ring[5] != 0 {
            progress += w.guard_ring[5] * (guards & RINGS[5]).count() as i32;
        }
        let mut formation = 0;
        let mut relocations = 0;
        // This side's active pieces on ring 1 (its guards counted there, perhaps its
        // queen): each costs the other side `enemy_on_ring1`.
        let mut on_ring1 = ring1 as i32;
        if let Some(q) = queen {
            on_ring1 += i32::from(q.ring() == 1);
            progress += w.queen_ring[q.ring() as usize];
            if q.ring() == 0 {
                // The formation's progress: the guards on ring 1, or under removed the
                // guards still to bring in (fewer guards need fewer cells).
                let done = if removed {
                    6 - (guards & !RINGS[1]).count() as usize
                } else {
                    ring1
                };
                formation += w.formation[done];
            }
        } else if let Some(at) = $pos.queen($side) {
            relocations += $eval.captured_queen_value($pos, $side, at, $open);
        }
        if foe_queen == Some(Cell::THRONE) {
            formation += w.guard_ring1_throne_lost * ring1 as i32;
        }
        let captured_guards = $pos.pieces($side, PieceKind::Guard) & $pos.captured();
        for at in captured_guards {
            relocations += w.captured_guard + w.guard_ring[relocation_ring($pos, at)];
        }
        if removed {
            relocations += w.removed_guard * i32::from($pos.removed_count($side));
        }
        $tally.add($side, EvalTerm::Progress, progress);
        $tally.add($side, EvalTerm::Formation, formation);
        $tally.add(foe, EvalTerm::Formation, w.enemy_on_ring1 * on_ring1);
        $tally.add($side, EvalTerm::Relocations, relocations);
    }};
}

impl Evaluator {
    /// An evaluator with the default weights; `noise` adds a pseudo-random amount in
    /// `-noise..=noise` to every score, fixed per position and `salt`.
    pub(crate) fn new(noise: u32, salt: u64) -> Evaluator {
        Evaluator {
            weights: Weights::default(),
            noise: noise.min(10_000) as i32,
            salt,
            simd: Avx2::detect(),
        }
    }

    /// The evaluator with some weights changed.
    pub(crate) fn with_overrides(mut self, overrides: &WeightOverrides) -> Evaluator {
        for (name, value) in overrides.pairs() {
            if let Some(slot) = self.weights.slot(name) {
                *slot = *value;
            }
        }
        self
    }

    /// The evaluation from `side`'s point of view, or `None` when the side to move has no
    /// legal action (a loss for it, unless the rules make it pass).
    #[inline]
    pub(crate) fn for_side(&self, pos: &Position, side: Side) -> Verdict {
        match self.white(pos) {
            Verdict::Score(s) if side == Side::Black => Verdict::Score(-s),
            v => v,
        }
    }

    /// The evaluation from White's point of view.
    #[inline]
    pub(crate) fn white(&self, pos: &Position) -> Verdict {
        self.white_and_capture_cells_in(pos.rules(), pos).0
    }

    /// The evaluation from White's point of view, and the empty cells where an arrival of
    /// the side to move would capture ([`features::capture_cells`], whatever the phase),
    /// which the evaluation computes on the way (empty when the side to move has no legal
    /// action). The hot switches come from `hot` (those of the position's rules).
    #[inline(always)]
    pub(crate) fn white_and_capture_cells_in(
        &self,
        hot: impl HotRules,
        pos: &Position,
    ) -> (Verdict, Bitboard) {
        self.white_and_capture_cells_given(hot, pos, None)
    }

    /// [`Evaluator::white_and_capture_cells_in`], given the position's
    /// [`Evaluator::pieces_white`] when the caller knows it (the search, for a relocation's
    /// child: [`Evaluator::relocated_pieces_white`]).
    #[inline(always)]
    pub(crate) fn white_and_capture_cells_given(
        &self,
        hot: impl HotRules,
        pos: &Position,
        pieces: Option<i32>,
    ) -> (Verdict, Bitboard) {
        match (self.simd, pieces) {
            (Some(simd), _) => simd.evaluate(self, hot, pos, pieces),
            (None, None) => self.white_and_capture_cells_with(hot, pos, None, None),
            (None, Some(white)) => self.white_and_capture_cells_given_scalar(hot, pos, white),
        }
    }

    /// [`Evaluator::white_and_capture_cells_given`] in general registers, given the
    /// pieces-only terms: out of line, so that the search's quiescence function, into which
    /// the evaluation without them is inlined, stays as small as it was.
    #[inline(never)]
    fn white_and_capture_cells_given_scalar(
        &self,
        hot: impl HotRules,
        pos: &Position,
        pieces: i32,
    ) -> (Verdict, Bitboard) {
        self.white_and_capture_cells_with(hot, pos, None, Some(pieces))
    }

    /// [`Evaluator::white_and_capture_cells_given`], with the features in AVX2 registers
    /// given `simd` (the whole evaluation is then compiled for AVX2:
    /// [`Avx2::evaluate`]).
    #[inline(always)]
    pub(crate) fn white_and_capture_cells_with(
        &self,
        hot: impl HotRules,
        pos: &Position,
        simd: Option<Avx2>,
        pieces: Option<i32>,
    ) -> (Verdict, Bitboard) {
        let mut sums = WhiteLessBlack(0);
        let Some(cells) = self.tally(hot, pos, &mut sums, simd, pieces) else {
            return (Verdict::NoMoves, Bitboard::EMPTY);
        };
        let mut white = sums.0;
        if self.noise > 0 {
            white += self.noise_for(pos.hash());
        }
        (Verdict::Score(white), cells)
    }

    /// The evaluation split into its terms for each side (without noise), or `None` when
    /// the side to move has no legal action.
    pub(crate) fn terms(&self, pos: &Position) -> Option<EvalTerms> {
        let mut terms = EvalTerms::default();
        self.tally(pos.rules(), pos, &mut terms, self.simd, None)
            .map(|_| terms)
    }

    /// Adds every term of both sides to `tally` and returns the capture cells of the side
    /// to move ([`features::capture_cells`]); `None` (and nothing added) when the side to
    /// move has no legal action. The one place that computes the evaluation: the search's
    /// sums and the public breakdown both come from here. `pieces`: the position's
    /// [`Evaluator::pieces_white`] if the caller knows it (then added to White's progress
    /// as one sum: only for a tally of sums).
    #[inline(always)]
    fn tally(
        &self,
        hot: impl HotRules,
        pos: &Position,
        tally: &mut impl Tally,
        simd: Option<Avx2>,
        pieces: Option<i32>,
    ) -> Option<Bitboard> {
        let w = &self.weights;
        let to_move = pos.to_move();
        let phase = pos.phase();
        let sides = features::BothSides::of_in(hot, pos, simd);
        let steps = sides.steps;
        let may_be_stuck = match phase {
            Phase::Normal => {
                steps[to_move.index()].targets.is_empty()
                    && pos.rules().touch_move() == TouchMove::Off
            }
            Phase::Relocation => !guard_relocation_open(pos, &sides),
            Phase::Placement => true,
        };
        if may_be_stuck && !hot.ludii() && !crate::LegalActions::any_of_in(hot, pos) {
            return None;
        }
        if let Some(white) = pieces {
            debug_assert_eq!(Some(white), self.pieces_white(hot, pos), "{pos}");
            tally.add(Side::White, EvalTerm::Progress, white);
        }
        for side in Side::BOTH {
            let s = side.index();
            if pieces.is_none() {
                side_pieces!(self, hot, pos, side, tally, sides.queens, sides.open[s]);
            }
            tally.add(
                side,
                EvalTerm::Mobility,
                w.mobility * steps[s].guard_count as i32,
            );
        }
        // Threats: only normal play and relocations that interact can capture.
        let mover_can_capture = match phase {
            Phase::Normal => true,
            Phase::Relocation => pos.rules().relocations_interact(),
            Phase::Placement => false,
        };
        if mover_can_capture && w.threat_to_move != 0 && features::decider(pos) == to_move {
            let reach = match phase {
                Phase::Normal => steps[to_move.index()].targets,
                _ => relocation_targets(pos, to_move, sides.open[to_move.index()]),
            };
            let cells = sides.capture_cells[to_move.index()] & reach;
            if cells.any() {
                let victims = match phase {
                    Phase::Normal => sides.step_victims(pos, to_move),
                    _ => sides.victims(pos, to_move, cells),
                };
                let gain = self.best_victim(hot, pos, &sides, !to_move, victims);
                tally.add(to_move, EvalTerm::Threats, gain * w.threat_to_move / 100);
            }
        }
        let waiting = !to_move;
        if phase != Phase::Placement && w.threat_waiting != 0 {
            let cells = sides.capture_cells[waiting.index()] & steps[waiting.index()].targets;
            if cells.any() {
                let victims = sides.step_victims(pos, waiting);
                let gain = self.best_victim(hot, pos, &sides, to_move, victims);
                tally.add(waiting, EvalTerm::Threats, gain * w.threat_waiting / 100);
            }
        }
        tally.add(to_move, EvalTerm::Tempo, w.tempo);
        Some(sides.capture_cells[to_move.index()])
    }

    /// The pieces-only terms of `pos` (progress, formation, pending relocations, pieces
    /// removed: where the pieces stand alone), White's less Black's;
    /// `None` when a queen is captured (her value depends on the open cells). Out of line:
    /// the search asks it once for all children of a relocation.
    #[inline(never)]
    pub(crate) fn pieces_white(&self, hot: impl HotRules, pos: &Position) -> Option<i32> {
        let queens =
            pos.pieces(Side::White, PieceKind::Queen) | pos.pieces(Side::Black, PieceKind::Queen);
        if (queens & pos.captured()).any() {
            return None;
        }
        let queens = Side::BOTH.map(|side| features::active_queen(pos, side).first());
        let mut sums = WhiteLessBlack(0);
        for side in Side::BOTH {
            side_pieces!(self, hot, pos, side, &mut sums, queens, Bitboard::EMPTY);
        }
        Some(sums.0)
    }

    /// The [`Evaluator::pieces_white`] of the child of `parent` (whose own is
    /// `parent_white`) in which the side to move relocated the piece captured on `from` to
    /// `to`, capturing nothing; `None` unless the piece is a guard and `to` is outside
    /// ring 1 (the terms then change by that guard alone: it gains the progress of `to`
    /// and is no longer a pending relocation).
    #[inline]
    pub(crate) fn relocated_pieces_white(
        &self,
        parent: &Position,
        parent_white: i32,
        from: Cell,
        to: Cell,
    ) -> Option<i32> {
        if parent.kind_at(from) != PieceKind::Guard || to.ring() < 2 {
            return None;
        }
        let w = &self.weights;
        let gain = w.guard_ring[to.ring() as usize]
            - w.captured_guard
            - w.guard_ring[relocation_ring(parent, from)];
        Some(match parent.to_move() {
            Side::White => parent_white + gain,
            Side::Black => parent_white - gain,
        })
    }

    /// What capturing the most valuable of `victims` (pieces of `owner`) would take from
    /// their owner (nothing when there are none), under the hot switches `hot`. Inlined:
    /// most evaluations in the midgame find a threat.
    #[inline(always)]
    fn best_victim(
        &self,
        hot: impl HotRules,
        pos: &Position,
        sides: &features::BothSides,
        owner: Side,
        victims: Bitboard,
    ) -> i32 {
        let w = &self.weights;
        let removed = hot.removed();
        let queen = victims & pos.pieces(owner, PieceKind::Queen);
        let mut best = 0;
        for victim in victims & !queen {
            let ring = victim.ring() as usize;
            let loss = if removed {
                w.guard_ring[ring] - w.removed_guard
            } else {
                w.guard_ring[ring] - w.captured_guard - w.guard_ring[relocation_ring(pos, victim)]
            };
            best = best.max(loss);
        }
        if let Some(victim) = queen.first() {
            let loss = if removed {
                w.queen_lost
            } else {
                w.queen_ring[victim.ring() as usize]
                    - self.captured_queen_value(pos, owner, victim, sides.open[owner.index()])
            };
            best = best.max(loss);
        }
        best
    }

    /// What a captured queen of `side` is worth: the ring value of the cell her chooser
    /// would pick, less the tempo her relocation costs.
    ///
    /// `open`: the cells `side`'s steps may end on ([`features::BothSides::open`]: empty,
    /// and allowed by the intervention rule), which are her relocation's where relocations
    /// interact (the intervention rule binds them as it binds steps; she stands on `at`, so
    /// it is not among them). Out of line: queens are seldom captured.
    #[inline(never)]
    fn captured_queen_value(&self, pos: &Position, side: Side, at: Cell, open: Bitboard) -> i32 {
        let w = &self.weights;
        let rules = pos.rules();
        if rules.relocation() != Relocation::OuterRing {
            // One ring out, or her start cell (on the outer ring), whoever chooses.
            return w.queen_ring[relocation_ring(pos, at)] + w.captured_queen;
        }
        if rules.queen_relocated_by() == QueenRelocatedBy::Opponent {
            return w.queen_ring[5] + w.captured_queen;
        }
        let mut open = if rules.relocations_interact() {
            open
        } else {
            pos.empty_cells()
        };
        debug_assert_eq!(
            open,
            pos.empty_cells()
                .without(at)
                .and_not(pos.relocation_intervention_cells(side))
        );
        if rules.relocate_throne() == RelocateThrone::Forbidden {
            open &= !Bitboard::THRONE;
        }
        let best = (0..6).find(|&k| (open & RINGS[k]).any()).unwrap_or(5);
        w.queen_ring[best] + w.captured_queen
    }

    fn noise_for(&self, hash: u64) -> i32 {
        let mixed = (hash ^ self.salt).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let span = 2 * self.noise as u64 + 1;
        ((mixed >> 32) % span) as i32 - self.noise
    }
}

/// The ring a piece captured on `at` is relocated to, for valuing it: one ring out under
/// `next-ring` (ignoring the rare fallback further out), the outer ring otherwise (a
/// guard's outer-ring cell or start cell, a queen's start cell; a queen relocated by her
/// owner under `outer-ring` is valued apart).
fn relocation_ring(pos: &Position, at: Cell) -> usize {
    match pos.rules().relocation() {
        Relocation::NextRing => (at.ring() as usize + 1).min(5),
        _ => 5,
    }
}

/// Cells a relocation of the side to move may go to (an over-approximation for guards
/// under `outer-ring`: the outer ring; the exact destinations under the other values).
/// `open`: the cells its steps may end on ([`features::BothSides::open`]).
fn relocation_targets(pos: &Position, side: Side, open: Bitboard) -> Bitboard {
    if pos.rules().relocation() != Relocation::OuterRing {
        let due = pos.side_pieces(side) & pos.captured();
        let queen = due & pos.pieces(side, PieceKind::Queen);
        let movers = if queen.any() { queen } else { due };
        return movers.into_iter().fold(Bitboard::EMPTY, |to, from| {
            to | pos.relocation_destinations(from)
        });
    }
    // The steps' cells even under `ludii`, whose relocations ignore intervention: an
    // approximation the tuned weights were measured with.
    let queen_due = (pos.pieces(side, PieceKind::Queen) & pos.captured()).any();
    if queen_due {
        open
    } else {
        open & Bitboard::OUTER
    }
}

/// Whether the side to move, in its relocation phase, surely has an action: a captured
/// guard (no captured queen) under `relocation=outer-ring`, where relocations interact,
/// goes to any open cell of the outer ring (those of a step: empty, and allowed by the
/// intervention rule), and one is open. `false` says nothing (the legal actions decide).
#[inline(always)]
fn guard_relocation_open(pos: &Position, sides: &features::BothSides) -> bool {
    let rules = pos.rules();
    let me = pos.to_move();
    let sure = rules.relocation() == Relocation::OuterRing
        && rules.relocations_interact()
        && (pos.pieces(me, PieceKind::Queen) & pos.captured()).is_empty()
        && (sides.open[me.index()] & Bitboard::OUTER).any();
    debug_assert!(!sure || pos.legal().any(), "{pos}");
    sure
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Rules};

    #[test]
    fn the_start_is_balanced_but_for_the_tempo() {
        let e = Evaluator::new(0, 0);
        let start = Position::start(Rules::STANDARD);
        assert_eq!(e.white(&start), Verdict::Score(Weights::default().tempo));
        assert_eq!(
            e.for_side(&start.mirrored(), Side::Black),
            Verdict::Score(Weights::default().tempo)
        );
    }

    #[test]
    fn mirrored_positions_evaluate_alike() {
        let e = Evaluator::new(0, 0);
        let mut game = Game::new(Rules::STANDARD);
        let mut rng = crate::Rng::new(5);
        crate::random_playout(&mut game, &mut rng, 120);
        for i in 0..game.ply_count() {
            let pos = game.position_before(i).unwrap();
            let m = pos.mirrored();
            assert_eq!(
                e.for_side(pos, pos.to_move()),
                e.for_side(&m, m.to_move()),
                "{pos}"
            );
        }
    }

    /// A position under `rules` (`Qf6 Gd5 Ge4x` lists, as docs/rules.md writes them).
    fn setup(rules: &str, to_move: Side, white: &str, black: &str) -> Position {
        let setup = crate::Setup::empty()
            .with_to_move(to_move)
            .with_pieces(Side::White, white)
            .and_then(|s| s.with_pieces(Side::Black, black))
            .expect("a valid piece list");
        Position::from_setup(setup, rules.parse().expect("a rule set")).expect("a position")
    }

    fn score(pos: &Position) -> i32 {
        match Evaluator::new(0, 0).white(pos) {
            Verdict::Score(s) => s,
            Verdict::NoMoves => panic!("{pos} has moves"),
        }
    }

    /// Black's guard captured on d5 (ring 2) goes to ring 3 under `next-ring` and to the
    /// outer ring under `outer-ring` and `start-cell`: the capture costs Black less under
    /// `next-ring`, by the ring values in between. (Threats apart: they differ with the
    /// relocation's destinations.)
    #[test]
    fn a_capture_is_cheap_under_next_ring() {
        let e = Evaluator {
            weights: Weights {
                threat_to_move: 0,
                threat_waiting: 0,
                ..Weights::default()
            },
            noise: 0,
            salt: 0,
            simd: Avx2::detect(),
        };
        let white = "Qf1 Gd4 Gd6 Gc4 Gc6 Gi7 Gk6";
        let black = "Qf11 Gd5x Gb7 Gk2 Gk3 Gk4 Gk5";
        let score = |rules| match e.white(&setup(rules, Side::Black, white, black)) {
            Verdict::Score(s) => s,
            Verdict::NoMoves => panic!("Black can relocate"),
        };
        let w = Weights::default();
        let outer = score("standard");
        assert_eq!(
            outer - score("relocation=next-ring"),
            w.guard_ring[3] - w.guard_ring[5]
        );
        assert_eq!(score("relocation=start-cell"), outer);
    }

    /// Under `removed` a threat to the enemy queen is a threat to win; a guard lost for good
    /// costs its side.
    #[test]
    fn under_removed_a_queen_threat_and_a_lost_guard_weigh_heavily() {
        // White to move can capture Black's queen on f6 with f8-f7.
        let white = "Qf1 Gf5 Gf8 Gd5 Gk1 Gk2 Gk3";
        let black = "Qf6 Ge5 Gk7 Gb7 Gb6 Gb5 Gl5";
        let standard = score(&setup("standard", Side::White, white, black));
        let removed = score(&setup("relocation=removed", Side::White, white, black));
        let w = Weights::default();
        assert!(
            removed - standard >= w.queen_lost * w.threat_to_move / 100 / 2,
            "removed {removed} vs standard {standard}"
        );
        // The same material but for a Black guard gone: White gains what it costs.
        let fewer = score(&setup(
            "relocation=removed",
            Side::White,
            white,
            "Qf6 Ge5 Gk7 Gb7 Gb6 Gb5",
        ));
        assert!(
            fewer - removed >= -w.removed_guard / 2,
            "{fewer} vs {removed}"
        );
    }

    /// Under `removed` the formation counts the guards still to bring in: a queen on the
    /// throne with her only guard on ring 1 but one is done, and one outside is not.
    #[test]
    fn under_removed_the_formation_counts_the_guards_left_outside() {
        let black = "Qf11 Gb7 Gb6";
        let inside = score(&setup(
            "relocation=removed",
            Side::Black,
            "Qf6 Ge5 Gk1",
            black,
        ));
        let outside = score(&setup(
            "relocation=removed",
            Side::Black,
            "Qf6 Gd4 Gk1",
            black,
        ));
        let w = Weights::default();
        let ring_gain = w.guard_ring[1] - w.guard_ring[2];
        assert!(
            inside - outside > ring_gain,
            "the formation's progress counts: {inside} vs {outside}"
        );
    }

    /// The default evaluator, and the same with the features in general registers.
    fn default_and_scalar() -> (Evaluator, Evaluator) {
        let e = Evaluator::new(0, 0);
        let scalar = Evaluator {
            simd: None,
            ..e.clone()
        };
        (e, scalar)
    }

    /// The evaluation of random positions of every rule set: under the search's fixed
    /// switches as under the position's rules (score and capture cells), the breakdown
    /// summing to the score, and every verdict the one the evaluation gave before it was
    /// made faster (a fingerprint of them all, recorded with the evaluation of 11939ae),
    /// with the features in AVX2 registers (where the processor has them) as without.
    #[test]
    fn the_evaluation_is_unchanged_and_alike_under_fixed_switches() {
        let (e, scalar) = default_and_scalar();
        let mut fingerprint = 0u64;
        let mut threats = 0;
        for pos in crate::test_positions::random_positions(17, 8, 160) {
            let general = e.white_and_capture_cells_in(pos.rules(), &pos);
            assert_eq!(
                scalar.white_and_capture_cells_in(pos.rules(), &pos),
                general,
                "{}\n{pos}",
                pos.rules()
            );
            let fixed = crate::hot::with_fixed_rules!(pos.rules(), |hot| e
                .white_and_capture_cells_in(hot, &pos));
            assert_eq!(fixed, general, "{}\n{pos}", pos.rules());
            let white = match general.0 {
                Verdict::NoMoves => i32::MIN,
                Verdict::Score(s) => s,
            };
            if let Some(terms) = e.terms(&pos) {
                assert_eq!(terms.white(), white, "{pos}");
                threats += usize::from(
                    Side::BOTH
                        .iter()
                        .any(|&side| terms.get(EvalTerm::Threats, side) != 0),
                );
            }
            fingerprint = (fingerprint ^ u64::from(white as u32)).wrapping_mul(0x0100_0000_01B3);
        }
        assert!(
            threats > 100,
            "the positions have threats to value ({threats})"
        );
        assert_eq!(fingerprint, 0x15a2_f449_23df_d3cf);
    }

    /// The pieces-only terms are the breakdown's progress, formation and relocations, and
    /// those the search derives for a relocation's child from its parent's are the child's
    /// own: evaluated with them, the child gets the score it gets without, with and without
    /// AVX2.
    #[test]
    fn a_relocations_pieces_terms_follow_from_its_parents() {
        let (e, scalar) = default_and_scalar();
        let pieces_only = [
            EvalTerm::Progress,
            EvalTerm::Formation,
            EvalTerm::Relocations,
        ];
        let mut derived = 0;
        let mut list = crate::ActionList::new();
        for pos in crate::test_positions::random_positions(23, 8, 160) {
            let Some(parent_white) = e.pieces_white(pos.rules(), &pos) else {
                continue;
            };
            if let Some(terms) = e.terms(&pos) {
                let sum = |side| pieces_only.iter().map(|&t| terms.get(t, side)).sum::<i32>();
                assert_eq!(parent_white, sum(Side::White) - sum(Side::Black), "{pos}");
            }
            pos.legal().generate(&mut list);
            for &action in list.as_slice() {
                let crate::Action::Relocate { from, to } = action else {
                    continue;
                };
                let mut child = pos;
                if child.play_unchecked(action).any() {
                    continue;
                }
                let Some(white) = e.relocated_pieces_white(&pos, parent_white, from, to) else {
                    continue;
                };
                derived += 1;
                assert_eq!(
                    Some(white),
                    e.pieces_white(child.rules(), &child),
                    "{pos}\n{action}"
                );
                let plain = e.white_and_capture_cells_in(child.rules(), &child);
                for evaluator in [&e, &scalar] {
                    let given =
                        evaluator.white_and_capture_cells_given(child.rules(), &child, Some(white));
                    assert_eq!(given, plain, "{}\n{child}", child.rules());
                }
            }
        }
        assert!(
            derived > 5_000,
            "relocations whose terms were derived: {derived}"
        );
    }

    #[test]
    fn noise_is_bounded_and_deterministic() {
        let e = Evaluator::new(7, 42);
        let quiet = Evaluator::new(0, 42);
        let start = Position::start(Rules::STANDARD);
        let (Verdict::Score(a), Verdict::Score(b)) = (e.white(&start), quiet.white(&start)) else {
            panic!("the start has moves");
        };
        assert!((a - b).abs() <= 7);
        assert_eq!(e.white(&start), e.white(&start));
        let spread: std::collections::BTreeSet<i32> = (0..200)
            .map(|h| Evaluator::new(7, h).noise_for(99))
            .collect();
        assert_eq!(spread.len(), 15, "every value in -7..=7 appears");
    }
}
