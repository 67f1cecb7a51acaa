//! Zobrist keys: one random 64-bit key per (side, kind, captured, cell), side to move, and
//! pieces in hand. Keys are generated at compile time from a fixed seed, so hashes are the
//! same in every build and on every machine.

use crate::{Cell, PieceKind, Side};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

pub(crate) struct Keys {
    /// `[side][kind][captured][cell index]`.
    pub piece: [[[[u64; 128]; 2]; 2]; 2],
    /// XOR-ed in when Black is to move.
    pub black_to_move: u64,
    /// `[side][kind][count in hand]`.
    pub in_hand: [[[u64; 8]; 2]; 2],
}

const fn build_keys() -> Keys {
    let mut keys = Keys {
        piece: [[[[0; 128]; 2]; 2]; 2],
        black_to_move: 0,
        in_hand: [[[0; 8]; 2]; 2],
    };
    let mut state = 0x4147_4F4E_1842_u64; // "AGON" 1842
    let mut side = 0;
    while side < 2 {
        let mut kind = 0;
        while kind < 2 {
            let mut captured = 0;
            while captured < 2 {
                let mut cell = 0;
                while cell < 128 {
                    let (s, k) = splitmix(state);
                    state = s;
                    keys.piece[side][kind][captured][cell] = k;
                    cell += 1;
                }
                captured += 1;
            }
            let mut count = 1; // count 0 hashes as nothing
            while count < 8 {
                let (s, k) = splitmix(state);
                state = s;
                keys.in_hand[side][kind][count] = k;
                count += 1;
            }
            kind += 1;
        }
        side += 1;
    }
    let (_, k) = splitmix(state);
    keys.black_to_move = k;
    keys
}

pub(crate) static KEYS: Keys = build_keys();

/// The key of one piece on one cell (its index masked to 127, which it never exceeds, so
/// that the lookup needs no bounds check).
#[inline]
pub(crate) fn piece_key(side: Side, kind: PieceKind, captured: bool, cell: Cell) -> u64 {
    KEYS.piece[side.index()][kind.index()][captured as usize][cell.index() & 127]
}

/// The key of `count` pieces of a kind in a side's hand (0 for none).
#[inline]
pub(crate) fn hand_key(side: Side, kind: PieceKind, count: u8) -> u64 {
    KEYS.in_hand[side.index()][kind.index()][count as usize]
}

/// The key toggled when the side to move changes.
#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS.black_to_move
}
