//! Layout-generic checks, run for every layout of the real spec and of the generator's fixture.
//!
//! Bits are read and written here one at a time from the `FIELDS` metadata, independently of
//! `onerma_layouts::bits`, so a packing bug there cannot hide behind itself.

#![allow(dead_code)]

use onerma_layouts::{FieldKind, Layout, LayoutError};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

pub const CASES: u32 = 256;

pub fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

pub fn naive_get(bytes: &[u8], offset: usize, bits: u32) -> u128 {
    (0..bits as usize).fold(0u128, |acc, i| {
        let p = offset + i;
        (acc << 1) | u128::from((bytes[p / 8] >> (7 - p % 8)) & 1)
    })
}

pub fn naive_put(bytes: &mut [u8], offset: usize, bits: u32, value: u128) {
    for i in 0..bits as usize {
        let p = offset + i;
        let m = 1u8 << (7 - p % 8);
        if (value >> (bits as usize - 1 - i)) & 1 == 1 {
            bytes[p / 8] |= m;
        } else {
            bytes[p / 8] &= !m;
        }
    }
}

/// Values biased towards the edges (0, all ones, single bits), where packing bugs show.
fn value_strategy(bits: u32) -> BoxedStrategy<u128> {
    let m = mask(bits);
    prop_oneof![
        Just(0u128),
        Just(m),
        (0..bits).prop_map(|k| 1u128 << k),
        any::<u128>().prop_map(move |x| x & m),
    ]
    .boxed()
}

/// One legal value per non-reserved field, in `FIELDS` order.
pub fn field_values<L: Layout>() -> impl Strategy<Value = Vec<u128>> {
    L::FIELDS
        .iter()
        .filter_map(|f| match f.kind {
            FieldKind::Reserved => None,
            FieldKind::Value => Some(value_strategy(f.bits)),
            FieldKind::Enum { values, .. } => Some(proptest::sample::select(values).boxed()),
        })
        .collect::<Vec<_>>()
}

/// The smallest legal encoding: everything zero except enum fields, which take their first value.
pub fn base_bytes<L: Layout>() -> Vec<u8> {
    let mut b = vec![0u8; L::BYTES];
    for f in L::FIELDS {
        if let FieldKind::Enum { values, .. } = f.kind {
            naive_put(&mut b, f.offset, f.bits, values[0]);
        }
    }
    b
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    })
}

fn qualified<L: Layout>(field: &str) -> String {
    format!("{}.{field}", L::NAME)
}

/// The metadata the other checks rely on describes a gapless MSB-first layout.
pub fn metadata<L: Layout>() {
    let mut next = 0;
    for f in L::FIELDS {
        assert_eq!(
            f.offset,
            next,
            "{}: field {} not contiguous",
            L::NAME,
            f.name
        );
        assert!((1..=128).contains(&f.bits), "{}.{}", L::NAME, f.name);
        next += f.bits as usize;
    }
    assert_eq!(
        next,
        L::BYTES * 8,
        "{}: fields do not fill the layout",
        L::NAME
    );
}

/// struct -> bytes -> struct, and every field sits at its documented bits.
pub fn values_roundtrip<L: Layout>() {
    runner()
        .run(&field_values::<L>(), |v| {
            let x = L::from_field_values(&v).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(x.field_values(), v.clone());
            let bytes = x.encode().map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(bytes.len(), L::BYTES);
            let mut data = v.iter();
            for f in L::FIELDS {
                let want = match f.kind {
                    FieldKind::Reserved => 0,
                    _ => *data
                        .next()
                        .ok_or_else(|| TestCaseError::fail("too few values"))?,
                };
                prop_assert_eq!(
                    naive_get(&bytes, f.offset, f.bits),
                    want,
                    "{}",
                    qualified::<L>(f.name)
                );
            }
            prop_assert_eq!(L::decode(&bytes), Ok(x));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{}: {e}", L::NAME));
}

/// bytes -> struct -> bytes for any legal encoding (reserved zero, enums valid).
pub fn bytes_roundtrip<L: Layout>() {
    let strat = (
        proptest::collection::vec(any::<u8>(), L::BYTES),
        proptest::collection::vec(any::<usize>(), L::FIELDS.len()),
    );
    runner()
        .run(&strat, |(mut bytes, picks)| {
            for (f, pick) in L::FIELDS.iter().zip(picks) {
                match f.kind {
                    FieldKind::Reserved => naive_put(&mut bytes, f.offset, f.bits, 0),
                    FieldKind::Enum { values, .. } => {
                        naive_put(&mut bytes, f.offset, f.bits, values[pick % values.len()]);
                    }
                    FieldKind::Value => {}
                }
            }
            let x = L::decode(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(x.encode(), Ok(bytes));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{}: {e}", L::NAME));
}

/// Every malformed-input class is rejected with the matching error.
pub fn errors<L: Layout>() {
    let base = base_bytes::<L>();
    assert!(
        L::decode(&base).is_ok(),
        "{}: base encoding must decode",
        L::NAME
    );

    for len in [0, L::BYTES - 1, L::BYTES + 1] {
        let b = vec![0u8; len];
        assert_eq!(
            L::decode(&b),
            Err(LayoutError::Length {
                layout: L::NAME,
                expected: L::BYTES,
                actual: len
            })
        );
    }

    let data_fields = L::FIELDS
        .iter()
        .filter(|f| f.kind != FieldKind::Reserved)
        .count();
    let zeros = vec![0u128; data_fields + 1];
    assert_eq!(
        L::from_field_values(&zeros),
        Err(LayoutError::FieldCount {
            layout: L::NAME,
            expected: data_fields,
            actual: data_fields + 1
        })
    );

    let mut legal: Vec<u128> = Vec::new();
    for f in L::FIELDS {
        match f.kind {
            FieldKind::Reserved => {}
            FieldKind::Value => legal.push(0),
            FieldKind::Enum { values, .. } => legal.push(values[0]),
        }
    }
    let mut i = 0;
    for f in L::FIELDS {
        let field = qualified::<L>(f.name);
        match f.kind {
            FieldKind::Reserved => {
                // Each bit of a reserved field on its own must be caught.
                for bit in 0..f.bits {
                    let mut b = base.clone();
                    naive_put(&mut b, f.offset, f.bits, 1u128 << bit);
                    match L::decode(&b) {
                        Err(LayoutError::ReservedNonZero { field: got, value }) => {
                            assert_eq!((got, value), (field.as_str(), 1u128 << bit));
                        }
                        other => {
                            panic!("{field} bit {bit}: expected ReservedNonZero, got {other:?}")
                        }
                    }
                }
                continue;
            }
            FieldKind::Enum { name, values } => {
                for raw in invalid_enum_raws(f.bits, values) {
                    let mut b = base.clone();
                    naive_put(&mut b, f.offset, f.bits, raw);
                    let want = LayoutError::InvalidEnumField {
                        field: leak(&field),
                        enum_name: name,
                        value: raw,
                    };
                    assert_eq!(L::decode(&b), Err(want.clone()), "{field} raw {raw:#x}");
                    let mut v = legal.clone();
                    v[i] = raw;
                    assert_eq!(L::from_field_values(&v), Err(want));
                }
                if f.bits < 128 {
                    let mut v = legal.clone();
                    v[i] = 1u128 << f.bits;
                    assert!(
                        L::from_field_values(&v).is_err(),
                        "{field}: over-wide enum accepted"
                    );
                }
            }
            FieldKind::Value => {
                if f.bits < 128 {
                    let mut v = legal.clone();
                    v[i] = 1u128 << f.bits;
                    assert_eq!(
                        L::from_field_values(&v),
                        Err(LayoutError::FieldOverflow {
                            field: leak(&field),
                            bits: f.bits,
                            value: 1u128 << f.bits
                        })
                    );
                    v[i] = mask(f.bits);
                    assert!(
                        L::from_field_values(&v).is_ok(),
                        "{field}: all-ones value rejected"
                    );
                }
            }
        }
        i += 1;
    }
}

/// Encodings that fit the field but name no enum value: all of them for narrow enums, a spread
/// for wide ones.
fn invalid_enum_raws(bits: u32, values: &[u128]) -> Vec<u128> {
    let candidates: Vec<u128> = if bits <= 12 {
        (0..=mask(bits)).collect()
    } else {
        let mut c = vec![0, 1, 2, mask(bits), mask(bits) - 1, 1u128 << (bits - 1)];
        c.extend(values.iter().map(|v| v.wrapping_add(1) & mask(bits)));
        c.extend(values.iter().map(|v| v.wrapping_sub(1) & mask(bits)));
        c
    };
    candidates
        .into_iter()
        .filter(|r| !values.contains(r))
        .collect()
}

/// `raw` as the enum's repr type (generic so the u128 case is not a lint-visible no-op).
pub fn narrow<T: TryFrom<u128>>(raw: u128) -> T {
    T::try_from(raw).unwrap_or_else(|_| panic!("{raw:#x} does not fit the repr"))
}

/// Errors carry `&'static str`; tests compare against names built at run time.
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// Enum encodings agree with `TryFrom`, `as_raw` and `RAW_VALUES`, and nothing else decodes.
#[macro_export]
macro_rules! check_enum {
    ($t:ident, $repr:ident) => {{
        use onerma_layouts::LayoutEnum as _;
        let raws: Vec<u128> = $t::ALL.iter().map(|v| v.to_u128()).collect();
        assert_eq!(
            raws,
            <$t as onerma_layouts::LayoutEnum>::RAW_VALUES,
            "{}",
            stringify!($t)
        );
        for v in $t::ALL {
            assert_eq!($t::try_from(v.as_raw()), Ok(v));
            assert_eq!(
                <$t as onerma_layouts::LayoutEnum>::from_u128(v.to_u128()),
                Some(v)
            );
        }
        let bits = <$t as onerma_layouts::LayoutEnum>::BITS;
        let probe: Vec<u128> = if bits <= 16 {
            (0..=$crate::common::mask(bits)).collect()
        } else {
            vec![
                0,
                1,
                $crate::common::mask(bits),
                $crate::common::mask(bits) >> 1,
            ]
        };
        for raw in probe.into_iter().filter(|r| !raws.contains(r)) {
            let r: $repr = $crate::common::narrow(raw);
            assert_eq!(
                $t::try_from(r),
                Err(onerma_layouts::LayoutError::UnknownEnumValue {
                    enum_name: <$t as onerma_layouts::LayoutEnum>::NAME,
                    value: raw
                })
            );
        }
    }};
}
