//! Conversions between byte blocks and the bridge's port words, shared by the crypto tests, and
//! bit-field access to wide (packed-struct) port values.

use bitvec::prelude::*;
use thiserror::Error;

/// A 128-bit block, byte 0 first (as AES and GHASH write it).
pub type Block = [u8; 16];

/// A serialised layout (byte 0 = most significant, spec/layouts.json) to the bridge's words of
/// the packed port (word 0 = bits 31:0). `b.len()` must be `4 * N`.
pub fn be_to_words<const N: usize>(b: &[u8]) -> [u32; N] {
    std::array::from_fn(|i| {
        let j = b.len() - 4 * (i + 1);
        u32::from_be_bytes([b[j], b[j + 1], b[j + 2], b[j + 3]])
    })
}

/// Inverse of [`be_to_words`]: fills `out` (`4 * w.len()` bytes, byte 0 most significant).
pub fn words_to_be(w: &[u32], out: &mut [u8]) {
    let n = out.len();
    for (i, wi) in w.iter().enumerate() {
        out[n - 4 * (i + 1)..n - 4 * i].copy_from_slice(&wi.to_be_bytes());
    }
}

/// Block byte 0 lives in bits [127:120] of the port; the bridge's word 0 is bits [31:0].
pub fn to_words(b: &Block) -> [u32; 4] {
    be_to_words(b)
}

/// A port value of `N` words from the first words of `v` (the rest zero): a wide port driven
/// from a vector built at run time.
pub fn padded<const N: usize>(v: &[u32]) -> [u32; N] {
    let mut a = [0u32; N];
    let n = v.len().min(N);
    a[..n].copy_from_slice(&v[..n]);
    a
}

/// Inverse of [`to_words`].
pub fn from_words(w: &[u32; 4]) -> Block {
    let mut b = [0u8; 16];
    words_to_be(w, &mut b);
    b
}

/// Whether a deadline has been reached at `now`, both the low 32 bits of `nic_time` (modular:
/// the deadline lies less than 2^31 cycles from `now`).
pub fn reached(now: u32, deadline: u32) -> bool {
    (now.wrapping_sub(deadline) as i32) >= 0
}

/// Writes the low `width` (at most 128) bits of `v` at bit `lsb` of a port value (word 0 = bits
/// 31:0). Panics if the field runs past the end of `dst`. The port is viewed as one LSB-first
/// bit string (`bitvec`), so a field may straddle any number of words.
pub fn put_bits(dst: &mut [u32], lsb: usize, width: usize, v: u128) {
    let val = v.to_le_bytes();
    dst.view_bits_mut::<Lsb0>()[lsb..lsb + width]
        .clone_from_bitslice(&val.view_bits::<Lsb0>()[..width]);
}

/// Reads `width` (at most 128) bits at bit `lsb` of a port value. Panics if the field runs past
/// the end of `src`.
pub fn get_bits(src: &[u32], lsb: usize, width: usize) -> u128 {
    let mut val = [0u8; 16];
    val.view_bits_mut::<Lsb0>()[..width]
        .clone_from_bitslice(&src.view_bits::<Lsb0>()[lsb..lsb + width]);
    u128::from_le_bytes(val)
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HexError {
    #[error("odd number of hex digits ({0})")]
    Odd(usize),
    #[error("not a hex digit at {0}")]
    Digit(usize),
    #[error("{got} bytes, want {want}")]
    Length { got: usize, want: usize },
}

/// Bytes from a hex string (no prefix, no separators).
pub fn hex(s: &str) -> Result<Vec<u8>, HexError> {
    if !s.len().is_multiple_of(2) {
        return Err(HexError::Odd(s.len()));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            s.get(i..i + 2)
                .and_then(|d| u8::from_str_radix(d, 16).ok())
                .ok_or(HexError::Digit(i))
        })
        .collect()
}

/// A fixed-size array from a hex string.
pub fn hex_array<const N: usize>(s: &str) -> Result<[u8; N], HexError> {
    let v = hex(s)?;
    let got = v.len();
    v.try_into().map_err(|_| HexError::Length { got, want: N })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_byte_order() {
        let b: Block = std::array::from_fn(|i| i as u8);
        let w = to_words(&b);
        assert_eq!(w[3], 0x0001_0203, "byte 0 in the top word's top byte");
        assert_eq!(w[0], 0x0c0d_0e0f);
        assert_eq!(from_words(&w), b);
    }

    #[test]
    fn bit_fields_cross_words_and_keep_their_neighbours() {
        let mut w = [u32::MAX; 3];
        put_bits(&mut w, 20, 40, 0);
        assert_eq!(w, [0x000f_ffff, 0xf000_0000, u32::MAX]);
        put_bits(&mut w, 20, 40, 0xab_cdef_0123);
        assert_eq!(get_bits(&w, 20, 40), 0xab_cdef_0123);
        assert_eq!(get_bits(&w, 0, 20), 0xf_ffff);
        assert_eq!(get_bits(&w, 60, 36), 0xf_ffff_ffff);
        // Only the low `width` bits of the value are written.
        put_bits(&mut w, 20, 4, u128::MAX);
        assert_eq!(get_bits(&w, 20, 5), 0xf);
    }

    #[test]
    fn hex_parses_and_rejects() {
        assert_eq!(hex("00ff10"), Ok(vec![0, 255, 16]));
        assert_eq!(hex("abc"), Err(HexError::Odd(3)));
        assert_eq!(hex("zz"), Err(HexError::Digit(0)));
        assert_eq!(hex_array::<2>("0102"), Ok([1, 2]));
        assert!(hex_array::<3>("0102").is_err());
    }
}
