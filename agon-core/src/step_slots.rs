//! The random playouts' numbering of the legal steps: each side's pieces in slots (the
//! queen, six guards, and a slot for the pass), each slot with the at most four cells its
//! piece may step to as far as the board goes. A step is legal when its cell is open (empty
//! and allowed by the intervention rule), so one test of 32 cell indices against the open
//! cells gives every legal action of the side as one bit of a 32-bit mask; a uniformly
//! random action is then a uniformly random set bit.
//!
//! The test is two lookups of sixteen indices at once ([`crate::lookup16`]). The slots
//! follow the pieces as the playout plays: a step moves its piece's slot, a capture empties
//! the victims' slots, and a piece that comes back (relocated or placed) takes the queen's
//! slot or the first empty guard slot.

use crate::cell::{GEOMETRY, NO_CELL};
use crate::lookup16::bits_at;
#[cfg(test)]
use crate::Action;
use crate::{Bitboard, Cell, PieceKind, Position, Side};

/// The bit of the open cells that stands for the pass (an index that is no cell): set when
/// the rules allow a pass (`touch-move=on`), so that the pass slot's test says so.
const PASS_INDEX: u8 = 126;

/// Slots per side: the queen, six guards and the pass.
const SLOTS: usize = 8;

/// The slot of the pass: its first candidate is [`PASS_INDEX`], the others never open.
const PASS_SLOT: usize = 7;

/// The pass slot's candidates.
const PASS_CANDIDATES: u32 = u32::from_le_bytes([PASS_INDEX, NO_CELL, NO_CELL, NO_CELL]);

/// An empty slot's candidates: none.
const NO_CANDIDATES: u32 = u32::from_le_bytes([NO_CELL; 4]);

/// One side's slots: the cell of each slot's piece, and its four step candidates as cell
/// indices (slot `s` holds bytes `4s..4s + 4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
struct SideSlots {
    candidates: [u8; 4 * SLOTS],
    cells: [u8; SLOTS],
}

impl SideSlots {
    /// The active pieces of `side` in `position`: the queen in slot 0, the guards in cell
    /// order in slots 1 to 6 (fewer once guards have left the board under
    /// `relocation=removed`), the pass in slot 7.
    fn of(position: &Position, side: Side) -> SideSlots {
        let mut slots = SideSlots {
            candidates: [NO_CELL; 4 * SLOTS],
            cells: [NO_CELL; SLOTS],
        };
        slots.set_candidates(PASS_SLOT, PASS_CANDIDATES);
        let active = position.active(side);
        let queens = position.pieces(side, PieceKind::Queen);
        if let Some(queen) = (active & queens).first() {
            slots.place(0, PieceKind::Queen, queen);
        }
        for (slot, guard) in (1..PASS_SLOT).zip(active.and_not(queens)) {
            slots.place(slot, PieceKind::Guard, guard);
        }
        slots
    }

    /// Puts a piece of `kind` on `cell` in `slot`.
    #[inline(always)]
    fn place(&mut self, slot: usize, kind: PieceKind, cell: Cell) {
        self.cells[slot] = cell.index() as u8;
        self.set_candidates(slot, GEOMETRY.step_candidates[kind.index()][cell.index()]);
    }

    /// Empties `slot`: its piece left play.
    #[inline(always)]
    fn clear(&mut self, slot: usize) {
        self.cells[slot % SLOTS] = NO_CELL;
        self.set_candidates(slot, NO_CANDIDATES);
    }

    /// Sets the four candidates of `slot` (little-endian bytes of `four`).
    #[inline(always)]
    fn set_candidates(&mut self, slot: usize, four: u32) {
        self.candidates[4 * (slot % SLOTS)..][..4].copy_from_slice(&four.to_le_bytes());
    }
}

/// Both sides' slots (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StepSlots {
    sides: [SideSlots; 2],
}

/// A legal action numbered by [`StepSlots::legal`], decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SlotAction {
    /// The piece of `kind` in `slot` steps from `from` to `to`.
    Step {
        slot: usize,
        kind: PieceKind,
        from: Cell,
        to: Cell,
    },
    /// A pass (`touch-move=on`).
    Pass,
}

impl StepSlots {
    /// Both sides' pieces of `position` in slots: each side's queen first, then its guards
    /// in cell order.
    pub(crate) fn of(position: &Position) -> StepSlots {
        StepSlots {
            sides: [
                SideSlots::of(position, Side::White),
                SideSlots::of(position, Side::Black),
            ],
        }
    }

    /// The cells a step of `side` may end on in `position` ([`Position::step_open_cells_in`]
    /// under the position's rules), with the pass's bit where the rules allow a pass: the
    /// argument [`StepSlots::legal`] takes.
    #[inline(always)]
    pub(crate) fn open_cells(open: Bitboard, pass: bool) -> u128 {
        open.0 | (pass as u128) << PASS_INDEX
    }

    /// The legal actions of `side`, which is in normal play, as the set bits of a mask:
    /// bit `4s + i` is the step of the piece in slot `s` to its `i`-th candidate, bit 28 the
    /// pass. `open` is [`StepSlots::open_cells`].
    #[inline(always)]
    pub(crate) fn legal(&self, side: Side, open: u128) -> u32 {
        let candidates = &self.sides[side.index()].candidates;
        let half = |bytes: &[u8]| bits_at(open, bytes.try_into().expect("sixteen bytes")) as u32;
        half(&candidates[..16]) | half(&candidates[16..]) << 16
    }

    /// The action of bit `bit` of [`StepSlots::legal`]'s mask.
    #[inline(always)]
    pub(crate) fn action(&self, side: Side, bit: u32) -> SlotAction {
        let slots = &self.sides[side.index()];
        let slot = (bit / 4) as usize;
        if slot == PASS_SLOT {
            return SlotAction::Pass;
        }
        let to = slots.candidates[bit as usize % (4 * SLOTS)];
        SlotAction::Step {
            slot,
            kind: if slot == 0 {
                PieceKind::Queen
            } else {
                PieceKind::Guard
            },
            from: Cell::from_index_unchecked(slots.cells[slot]),
            to: Cell::from_index_unchecked(to),
        }
    }

    /// The legal action of bit `bit`, as an [`Action`] (the tests' view of the numbering).
    #[cfg(test)]
    pub(crate) fn action_of(&self, side: Side, bit: u32) -> Action {
        match self.action(side, bit) {
            SlotAction::Step { from, to, .. } => Action::Step { from, to },
            SlotAction::Pass => Action::Pass,
        }
    }

    /// The piece of `kind` in `side`'s `slot` stepped to `to`.
    #[inline(always)]
    pub(crate) fn moved(&mut self, side: Side, slot: usize, kind: PieceKind, to: Cell) {
        self.sides[side.index()].place(slot, kind, to);
    }

    /// The pieces on `cells` were captured: their slots are emptied (a captured piece does
    /// not step; when it comes back it enters again, [`StepSlots::entered`]). One lookup of
    /// both sides' slot cells finds them.
    #[inline(never)]
    pub(crate) fn captured(&mut self, cells: Bitboard) {
        let mut both = [NO_CELL; 2 * SLOTS];
        both[..SLOTS].copy_from_slice(&self.sides[0].cells);
        both[SLOTS..].copy_from_slice(&self.sides[1].cells);
        let mut hit = bits_at(cells.0, both);
        while hit != 0 {
            let i = hit.trailing_zeros() as usize;
            self.sides[i / SLOTS].clear(i % SLOTS);
            hit &= hit - 1;
        }
    }

    /// A piece of `side` and `kind` entered play on `cell` (relocated or placed): a queen
    /// takes slot 0, a guard the first empty guard slot.
    #[inline(never)]
    pub(crate) fn entered(&mut self, side: Side, kind: PieceKind, cell: Cell) {
        let slots = &mut self.sides[side.index()];
        let slot = match kind {
            PieceKind::Queen => 0,
            PieceKind::Guard => (1..PASS_SLOT)
                .find(|&slot| slots.cells[slot] == NO_CELL)
                .expect("a side has at most six guards in play"),
        };
        debug_assert_eq!(slots.cells[slot], NO_CELL, "slot {slot} is taken");
        slots.place(slot, kind, cell);
    }

    /// Whether the slots hold exactly the active pieces of `position` (queen in slot 0):
    /// the debug build's check at every ply.
    pub(crate) fn describe(&self, position: &Position) -> bool {
        [Side::White, Side::Black].into_iter().all(|side| {
            let slots = &self.sides[side.index()];
            let cells = |range: std::ops::Range<usize>| {
                slots.cells[range]
                    .iter()
                    .filter(|&&i| i != NO_CELL)
                    .map(|&i| Cell::from_index_unchecked(i))
                    .collect::<Bitboard>()
            };
            let active = position.active(side);
            let queens = position.pieces(side, PieceKind::Queen);
            let guards = slots.cells[1..PASS_SLOT]
                .iter()
                .filter(|&&i| i != NO_CELL)
                .count();
            cells(0..1) == active & queens
                && cells(1..PASS_SLOT) == active.and_not(queens)
                && guards == active.and_not(queens).count() as usize
        })
    }

    /// The same pieces with `side`'s guards in other slots (rotated by one): tests that the
    /// numbering does not depend on the order of the guards.
    #[cfg(test)]
    pub(crate) fn rotate_guards(&mut self, side: Side) {
        let slots = &mut self.sides[side.index()];
        slots.cells[1..PASS_SLOT].rotate_left(1);
        slots.candidates[4..4 * PASS_SLOT].rotate_left(4);
    }
}

/// The `k`-th (from 0) set bit of `mask`, which has more than `k`: two halvings by the
/// population count of the lower half, then a table for the last byte (no branch on the
/// drawn number, which is as random as the draw).
#[inline(always)]
pub(crate) fn select_bit(mask: u32, k: u32) -> u32 {
    debug_assert!(k < mask.count_ones());
    let low16 = (mask & 0xFFFF).count_ones();
    let upper16 = (k >= low16) as u32;
    let mask = mask >> (16 * upper16);
    let k = k - (low16 & 0u32.wrapping_sub(upper16));
    let low8 = (mask & 0xFF).count_ones();
    let upper8 = (k >= low8) as u32;
    let byte = (mask >> (8 * upper8)) & 0xFF;
    let k = k - (low8 & 0u32.wrapping_sub(upper8));
    16 * upper16 + 8 * upper8 + SELECT_IN_BYTE[byte as usize][k as usize & 7] as u32
}

/// How the playouts find the `k`-th set bit of their legal-action mask. Every way gives the
/// same bit, so the games do not depend on it; only the time does. The drawn bit is on the
/// chain of dependent steps from one ply to the next, so its latency sets the playouts'
/// pace more than its instructions do.
pub(crate) trait SelectBit: Copy {
    /// The `k`-th (from 0) set bit of `mask`, which has more than `k`.
    fn select(self, mask: u32, k: u32) -> u32;
}

/// [`select_bit`]: halvings by population count and a byte table (every processor).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ByTable;

impl SelectBit for ByTable {
    #[inline(always)]
    fn select(self, mask: u32, k: u32) -> u32 {
        select_bit(mask, k)
    }
}

/// BMI2's parallel bit deposit: `pdep(1 << k, mask)` is the `k`-th set bit of `mask` alone,
/// in two instructions and about six cycles (the table's way takes about seventeen). Only
/// [`Pdep::detect`] makes one, on processors that run `pdep` fast.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pdep(());

#[cfg(target_arch = "x86_64")]
impl Pdep {
    /// A `Pdep` if this processor has BMI2 and runs `pdep` in hardware: every Intel
    /// processor with BMI2 (since Haswell, 2013) and AMD's since Zen 3 (family 0x19,
    /// 2020); Zen 1 and 2 have it in microcode, slower than the table. The answer is
    /// looked up once. The environment variable `AGON_NO_PDEP` (any value) refuses it, so
    /// that the table's way can be measured on any machine.
    pub(crate) fn detect() -> Option<Pdep> {
        static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let fast = *FAST.get_or_init(|| {
            std::env::var_os("AGON_NO_PDEP").is_none()
                && std::arch::is_x86_feature_detected!("bmi2")
                && !Pdep::microcoded()
        });
        fast.then_some(Pdep(()))
    }

    /// Whether the processor is an AMD one before Zen 3 (family below 0x19), whose `pdep`
    /// is microcoded.
    fn microcoded() -> bool {
        use std::arch::x86_64::__cpuid;
        let vendor = __cpuid(0);
        let amd = [vendor.ebx, vendor.edx, vendor.ecx] == [0x6874_7541, 0x6974_6E65, 0x444D_4163];
        let signature = __cpuid(1).eax;
        let base = (signature >> 8) & 0xF;
        let family = if base == 0xF {
            base + ((signature >> 20) & 0xFF)
        } else {
            base
        };
        amd && family < 0x19
    }
}

#[cfg(target_arch = "x86_64")]
impl SelectBit for Pdep {
    #[inline(always)]
    fn select(self, mask: u32, k: u32) -> u32 {
        debug_assert!(k < mask.count_ones());
        // SAFETY: `_pdep_u32` needs BMI2, and a `Pdep` exists only where `Pdep::detect`
        // found it on this processor (its field is private, `detect` its one maker). The
        // instruction reads nothing but its registers.
        #[allow(unsafe_code)]
        let deposited = unsafe { std::arch::x86_64::_pdep_u32(1 << (k & 31), mask) };
        deposited.trailing_zeros()
    }
}

/// `SELECT_IN_BYTE[b][k]`: the position of the `k`-th set bit of the byte `b` (0 where
/// `b` has no such bit).
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if b & (1 << bit) != 0 {
                table[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LegalActions, Rng, Rules};
    use std::collections::BTreeSet;

    #[test]
    fn select_bit_finds_every_set_bit_in_order() {
        let mut rng = Rng::new(7);
        for _ in 0..2_000 {
            let mask = rng.next_u64() as u32 & rng.next_u64() as u32;
            let bits: Vec<u32> = (0..32).filter(|b| mask >> b & 1 == 1).collect();
            for (k, &bit) in bits.iter().enumerate() {
                assert_eq!(select_bit(mask, k as u32), bit, "{mask:#x} {k}");
            }
        }
    }

    /// `pdep` finds the same bits as the table (where this processor has it fast).
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn pdep_selects_the_bits_the_table_selects() {
        let Some(pdep) = Pdep::detect() else {
            eprintln!("no fast pdep here: nothing to compare");
            return;
        };
        let mut rng = Rng::new(8);
        for _ in 0..5_000 {
            let mask = rng.next_u64() as u32 | 1;
            for k in 0..mask.count_ones() {
                assert_eq!(
                    pdep.select(mask, k),
                    ByTable.select(mask, k),
                    "{mask:#x} {k}"
                );
            }
        }
    }

    #[test]
    fn a_guard_never_has_the_throne_and_padding_is_never_a_cell() {
        assert_eq!(Bitboard::ALL.0 >> NO_CELL, 0);
        assert_eq!(Bitboard::ALL.0 >> PASS_INDEX, 0);
        for cell in Bitboard::ALL {
            for (kind, candidates) in GEOMETRY.step_candidates.iter().enumerate() {
                let bytes = candidates[cell.index()].to_le_bytes();
                let set: Bitboard = bytes
                    .iter()
                    .filter(|&&i| i != NO_CELL)
                    .map(|&i| Cell::from_index_unchecked(i))
                    .collect();
                let expected = if kind == 0 {
                    cell.step_set()
                } else {
                    cell.step_set().and_not(Bitboard::THRONE)
                };
                assert_eq!(set, expected, "{cell} kind {kind}");
                let listed = bytes.iter().filter(|&&i| i != NO_CELL).count();
                assert_eq!(listed as u32, expected.count(), "{cell}: a candidate twice");
            }
        }
    }

    /// The numbering is a bijection onto the legal actions: in positions of normal play
    /// from random games of every single-switch variant and `ludii`, and with the guards in
    /// other slots, the mask's actions are the legal actions (each once).
    #[test]
    fn the_mask_numbers_exactly_the_legal_actions() {
        let mut variants = Rules::single_switch_variants();
        variants.push(Rules::LUDII);
        let mut positions = 0;
        for rules in variants {
            for index in 0..8 {
                let mut game = crate::Game::new(rules);
                let mut rng = Rng::for_stream(21, index);
                while !game.is_over() && game.ply_count() < 600 {
                    let position = *game.position();
                    if position.phase() == crate::Phase::Normal {
                        check_numbering(&position);
                        positions += 1;
                    }
                    let action = game.legal().random(&mut rng).expect("a legal action");
                    game.play(action).expect("legal");
                }
            }
        }
        assert!(positions > 10_000, "{positions}");
    }

    fn check_numbering(position: &Position) {
        let me = position.to_move();
        let rules = position.rules();
        let open = StepSlots::open_cells(
            position.step_open_cells_in(rules, me),
            rules.touch_move() == crate::TouchMove::On,
        );
        let mut slots = StepSlots::of(position);
        assert!(slots.describe(position));
        let legal = LegalActions::of(position);
        let expected: BTreeSet<String> = legal
            .to_vec()
            .into_iter()
            .filter(|_| !legal.is_forced_pass())
            .map(|a| a.to_string())
            .collect();
        for rotation in 0..3 {
            let mask = slots.legal(me, open);
            let actions: Vec<String> = (0..mask.count_ones())
                .map(|k| slots.action_of(me, select_bit(mask, k)).to_string())
                .collect();
            let set: BTreeSet<String> = actions.iter().cloned().collect();
            assert_eq!(set.len(), actions.len(), "an action twice in {position}");
            assert_eq!(set, expected, "rotation {rotation} of {position}");
            slots.rotate_guards(me);
            assert!(slots.describe(position));
        }
    }
}
