//! Big-endian bit-field access used by the generated code.
//!
//! Offsets count bits from the most significant bit of byte 0 (network order), so a field at
//! offset 0 occupies the top bits of byte 0. Offsets and widths come from the generator and are
//! constants; a field outside the buffer is a generator bug and panics. `field` arguments name
//! the field as `layout.field` for error messages.

use crate::{LayoutEnum, LayoutError};

/// True if `value` fits in `bits` bits (1..=128).
#[inline]
pub const fn fits(value: u128, bits: u32) -> bool {
    bits >= 128 || value >> bits == 0
}

/// Mask of the low `n` bits of a byte, `n` in 1..=8.
const fn low_mask(n: usize) -> u8 {
    (((1u16) << n) - 1) as u8
}

/// Reads the `bits`-wide (1..=128) field whose most significant bit is at `offset`.
///
/// # Panics
/// If the field does not lie inside `bytes` or `bits` is not in 1..=128.
#[inline]
pub fn get(bytes: &[u8], offset: usize, bits: u32) -> u128 {
    assert!(
        (1..=128).contains(&bits),
        "field width {bits} not in 1..=128"
    );
    let end = offset + bits as usize;
    assert!(
        end <= bytes.len() * 8,
        "field [{offset}, {end}) outside {} bytes",
        bytes.len()
    );
    if (offset | bits as usize) & 7 == 0 {
        // Every generated layout field but the 1-bit flags is byte aligned: whole bytes, in
        // network order, are the field. Same result as the general loop, far fewer steps.
        return bytes[offset / 8..end / 8]
            .iter()
            .fold(0u128, |acc, &b| (acc << 8) | u128::from(b));
    }
    let mut acc: u128 = 0;
    let mut pos = offset;
    while pos < end {
        let in_byte = pos % 8;
        let take = (8 - in_byte).min(end - pos);
        let chunk = (bytes[pos / 8] >> (8 - in_byte - take)) & low_mask(take);
        // `acc` holds at most `bits - take` bits here, so nothing is shifted out.
        acc = (acc << take) | u128::from(chunk);
        pos += take;
    }
    acc
}

/// Writes the low `bits` bits of `value` into the field whose most significant bit is at
/// `offset`, leaving all other bits of `bytes` unchanged. Higher bits of `value` are ignored.
///
/// # Panics
/// As [`get`].
#[inline]
pub fn put(bytes: &mut [u8], offset: usize, bits: u32, value: u128) {
    assert!(
        (1..=128).contains(&bits),
        "field width {bits} not in 1..=128"
    );
    let end = offset + bits as usize;
    assert!(
        end <= bytes.len() * 8,
        "field [{offset}, {end}) outside {} bytes",
        bytes.len()
    );
    if (offset | bits as usize) & 7 == 0 {
        // Byte-aligned field (see `get`): store its bytes most significant first.
        let n = bits as usize / 8;
        for (i, b) in bytes[offset / 8..end / 8].iter_mut().enumerate() {
            *b = (value >> (8 * (n - 1 - i))) as u8;
        }
        return;
    }
    let mut pos = offset;
    while pos < end {
        let in_byte = pos % 8;
        let take = (8 - in_byte).min(end - pos);
        let remaining_after = end - pos - take;
        let chunk = ((value >> remaining_after) as u8) & low_mask(take);
        let shift = 8 - in_byte - take;
        let mask = low_mask(take) << shift;
        let byte = &mut bytes[pos / 8];
        *byte = (*byte & !mask) | (chunk << shift);
        pos += take;
    }
}

/// [`put`] after checking that `value` fits, naming the field in the error.
///
/// # Errors
/// [`LayoutError::FieldOverflow`].
#[inline]
pub fn put_field(
    bytes: &mut [u8],
    offset: usize,
    bits: u32,
    value: u128,
    field: &'static str,
) -> Result<(), LayoutError> {
    field_value(value, bits, field)?;
    put(bytes, offset, bits, value);
    Ok(())
}

/// Returns `value` if it fits in `bits` bits.
///
/// # Errors
/// [`LayoutError::FieldOverflow`].
#[inline]
pub fn field_value(value: u128, bits: u32, field: &'static str) -> Result<u128, LayoutError> {
    if fits(value, bits) {
        Ok(value)
    } else {
        Err(LayoutError::FieldOverflow { field, bits, value })
    }
}

/// Decodes an enum encoding, naming the field in the error.
///
/// # Errors
/// [`LayoutError::InvalidEnumField`].
#[inline]
pub fn enum_value<E: LayoutEnum>(raw: u128, field: &'static str) -> Result<E, LayoutError> {
    E::from_u128(raw).ok_or(LayoutError::InvalidEnumField {
        field,
        enum_name: E::NAME,
        value: raw,
    })
}

/// Reads and decodes an enum field.
///
/// # Errors
/// [`LayoutError::InvalidEnumField`].
#[inline]
pub fn get_enum<E: LayoutEnum>(
    bytes: &[u8],
    offset: usize,
    bits: u32,
    field: &'static str,
) -> Result<E, LayoutError> {
    enum_value(get(bytes, offset, bits), field)
}

/// # Errors
/// [`LayoutError::Length`] unless `bytes.len() == expected`.
#[inline]
pub fn check_len(bytes: &[u8], expected: usize, layout: &'static str) -> Result<(), LayoutError> {
    if bytes.len() == expected {
        Ok(())
    } else {
        Err(LayoutError::Length {
            layout,
            expected,
            actual: bytes.len(),
        })
    }
}

/// # Errors
/// [`LayoutError::ReservedNonZero`] unless the field is all zero.
#[inline]
pub fn check_reserved(
    bytes: &[u8],
    offset: usize,
    bits: u32,
    field: &'static str,
) -> Result<(), LayoutError> {
    match get(bytes, offset, bits) {
        0 => Ok(()),
        value => Err(LayoutError::ReservedNonZero { field, value }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Reference: one bit at a time, written independently of the chunked code above.
    fn naive_get(bytes: &[u8], offset: usize, bits: u32) -> u128 {
        (0..bits as usize).fold(0u128, |acc, i| {
            let p = offset + i;
            (acc << 1) | u128::from((bytes[p / 8] >> (7 - p % 8)) & 1)
        })
    }

    fn naive_put(bytes: &mut [u8], offset: usize, bits: u32, value: u128) {
        for i in 0..bits as usize {
            let p = offset + i;
            let bit = (value >> (bits as usize - 1 - i)) & 1 == 1;
            let m = 1u8 << (7 - p % 8);
            if bit {
                bytes[p / 8] |= m;
            } else {
                bytes[p / 8] &= !m;
            }
        }
    }

    /// A buffer plus a field that lies inside it.
    fn buf_and_field() -> impl Strategy<Value = (Vec<u8>, usize, u32)> {
        // Half the draws are byte aligned in offset and width: the fast path of get/put.
        let aligned = (1u32..=16, 0usize..5).prop_map(|(n, o)| (8 * n, 8 * o));
        let any_field = (1u32..=128, 0usize..40);
        (prop_oneof![aligned, any_field], 0usize..3).prop_flat_map(|((bits, offset), slack)| {
            let len = (offset + bits as usize).div_ceil(8) + slack;
            (
                proptest::collection::vec(any::<u8>(), len),
                Just(offset),
                Just(bits),
            )
        })
    }

    #[test]
    fn fixed_examples() {
        let b = [0xAB, 0xCD, 0xEF];
        assert_eq!(get(&b, 0, 8), 0xAB);
        assert_eq!(get(&b, 4, 8), 0xBC);
        assert_eq!(get(&b, 0, 1), 1);
        assert_eq!(get(&b, 1, 1), 0);
        assert_eq!(get(&b, 4, 20), 0xB_CDEF);
        let mut w = [0u8; 3];
        put(&mut w, 4, 12, 0xABC);
        assert_eq!(w, [0x0A, 0xBC, 0x00]);
        put(&mut w, 23, 1, 1);
        assert_eq!(w, [0x0A, 0xBC, 0x01]);
        let mut full = [0u8; 17];
        put(&mut full, 3, 128, u128::MAX);
        assert_eq!(full[0], 0x1F);
        assert_eq!(full[16], 0xE0);
        assert_eq!(get(&full, 3, 128), u128::MAX);
    }

    #[test]
    fn fits_edges() {
        assert!(fits(1, 1));
        assert!(!fits(2, 1));
        assert!(fits(u128::MAX, 128));
        assert!(!fits(u128::MAX, 127));
        assert!(fits((1 << 127) - 1, 127));
    }

    #[test]
    fn errors_name_the_field() {
        assert_eq!(
            put_field(&mut [0u8; 2], 0, 9, 0x200, "l.f"),
            Err(LayoutError::FieldOverflow {
                field: "l.f",
                bits: 9,
                value: 0x200
            })
        );
        assert_eq!(
            check_reserved(&[0x00, 0x10], 8, 8, "l.r"),
            Err(LayoutError::ReservedNonZero {
                field: "l.r",
                value: 0x10
            })
        );
        assert_eq!(check_reserved(&[0xFF, 0x00], 8, 8, "l.r"), Ok(()));
        assert_eq!(
            check_len(&[0u8; 3], 4, "l"),
            Err(LayoutError::Length {
                layout: "l",
                expected: 4,
                actual: 3
            })
        );
    }

    proptest! {
        #[test]
        fn get_matches_reference((buf, offset, bits) in buf_and_field()) {
            prop_assert_eq!(get(&buf, offset, bits), naive_get(&buf, offset, bits));
        }

        #[test]
        fn put_matches_reference((buf, offset, bits) in buf_and_field(), value in any::<u128>()) {
            let mut ours = buf.clone();
            let mut reference = buf;
            put(&mut ours, offset, bits, value);
            naive_put(&mut reference, offset, bits, value);
            // Also proves put leaves bits outside the field alone.
            prop_assert_eq!(ours, reference);
        }
    }
}
