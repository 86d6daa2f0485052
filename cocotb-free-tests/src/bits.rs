//! Conversions between byte blocks and the bridge's port words, shared by the crypto tests.

use thiserror::Error;

/// A 128-bit block, byte 0 first (as AES and GHASH write it).
pub type Block = [u8; 16];

/// Block byte 0 lives in bits [127:120] of the port; the bridge's word 0 is bits [31:0].
pub fn to_words(b: &Block) -> [u32; 4] {
    std::array::from_fn(|i| {
        let j = 12 - 4 * i;
        u32::from_be_bytes([b[j], b[j + 1], b[j + 2], b[j + 3]])
    })
}

/// Inverse of [`to_words`].
pub fn from_words(w: &[u32; 4]) -> Block {
    let mut b = [0u8; 16];
    for (i, wi) in w.iter().enumerate() {
        let j = 12 - 4 * i;
        b[j..j + 4].copy_from_slice(&wi.to_be_bytes());
    }
    b
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
    fn hex_parses_and_rejects() {
        assert_eq!(hex("00ff10"), Ok(vec![0, 255, 16]));
        assert_eq!(hex("abc"), Err(HexError::Odd(3)));
        assert_eq!(hex("zz"), Err(HexError::Digit(0)));
        assert_eq!(hex_array::<2>("0102"), Ok([1, 2]));
        assert!(hex_array::<3>("0102").is_err());
    }
}
