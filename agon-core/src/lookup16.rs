//! Sixteen membership tests at once: which of sixteen bit indices (cell indices, or the
//! padding indices above them, all below 128) are set in a 128-bit set. The random
//! playouts' legal-action mask ([`crate::step_slots`]) and the capture test of an arrival
//! (`Position::resolve_arrival`) ask it instead of testing cells one by one behind
//! branches that a random game would make mispredict.
//!
//! On x86-64 with SSSE3 (every build of this workspace: its `.cargo/config.toml` targets
//! x86-64-v2) it is a byte shuffle of the set's sixteen bytes by the indices' upper bits,
//! another of the sixteen single-bit bytes by their lower bits, and a comparison; elsewhere
//! a loop gives the same answer.

/// Bit `j` of the result: whether bit `indices[j]` of `set` is set. Every index must be
/// below 128.
#[inline(always)]
pub(crate) fn bits_at(set: u128, indices: [u8; 16]) -> u16 {
    debug_assert!(indices.iter().all(|&i| i < 128));
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    {
        // SAFETY: `bits_at_ssse3` needs SSSE3, and this branch is compiled only when SSSE3
        // is enabled for the whole build (`cfg(target_feature = "ssse3")`, set by the
        // workspace's `-C target-cpu=x86-64-v2`), so every processor that runs the binary
        // has it. The function reads nothing but its arguments.
        #[allow(unsafe_code)]
        unsafe {
            bits_at_ssse3(set, indices)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
    {
        bits_at_portable(set, indices)
    }
}

/// [`bits_at`] one index at a time: the reference the vector version is tested against,
/// and the code of builds without SSSE3.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "ssse3"),
    allow(dead_code)
)]
#[inline(always)]
fn bits_at_portable(set: u128, indices: [u8; 16]) -> u16 {
    indices.iter().enumerate().fold(0, |bits, (j, &i)| {
        bits | ((set >> (i & 127)) as u16 & 1) << j
    })
}

/// [`bits_at`] with SSSE3: each index picks the byte of `set` that holds its bit
/// (`index / 8`, a byte shuffle of the set's sixteen bytes) and the bit within it
/// (`1 << index % 8`, a byte shuffle of a constant); a comparison and the bytes' sign
/// bits make the result.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[target_feature(enable = "ssse3")]
#[inline]
fn bits_at_ssse3(set: u128, indices: [u8; 16]) -> u16 {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8, _mm_set_epi64x,
        _mm_set_epi8, _mm_shuffle_epi8, _mm_srli_epi16,
    };
    let set = _mm_set_epi64x((set >> 64) as i64, set as i64);
    let indices = u128::from_le_bytes(indices);
    let indices = _mm_set_epi64x((indices >> 64) as i64, indices as i64);
    let single_bits = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1, -128, 64, 32, 16, 8, 4, 2, 1);
    let bytes = _mm_and_si128(_mm_srli_epi16(indices, 3), _mm_set1_epi8(15));
    let byte = _mm_shuffle_epi8(set, bytes);
    let bit = _mm_shuffle_epi8(single_bits, _mm_and_si128(indices, _mm_set1_epi8(7)));
    _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(byte, bit), bit)) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    #[test]
    fn the_vector_test_agrees_with_the_portable_one_and_the_definition() {
        let mut rng = Rng::new(11);
        for _ in 0..20_000 {
            let set = (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
            let indices = (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
            let indices = (indices & 0x7F7F_7F7F_7F7F_7F7F_7F7F_7F7F_7F7F_7F7F).to_le_bytes();
            let expected =
                (0..16).fold(0u16, |bits, j| bits | ((set >> indices[j]) as u16 & 1) << j);
            assert_eq!(bits_at(set, indices), expected);
            assert_eq!(bits_at_portable(set, indices), expected);
        }
    }
}
