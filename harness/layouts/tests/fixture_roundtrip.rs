//! The same generic checks on the generator's fixture (`harness/gen/tests/fixtures/layouts.json`),
//! which has what the real spec may lack: fields straddling bytes, 1-bit, 33-bit, 65-bit and
//! unaligned 128-bit fields, a 3-bit enum and an enum wider than 64 bits. Also hand-written
//! known-answer tests, possible here because the fixture does not change.

mod common;

// The generated code refers to these through `crate::`.
use onerma_layouts::{FieldInfo, FieldKind, Layout, LayoutEnum, LayoutError, bits};

#[macro_use]
// Not every generated item is exercised by these tests.
#[allow(dead_code)]
mod fixture {
    include!("fixture/generated.rs");
}

use fixture::*;

macro_rules! each_layout {
    ($check:ident) => {{
        macro_rules! one {
            ($t:ident) => {
                common::$check::<$t>();
            };
        }
        for_each_layout!(one);
    }};
}

#[test]
fn metadata() {
    each_layout!(metadata);
}

#[test]
fn values_roundtrip() {
    each_layout!(values_roundtrip);
}

#[test]
fn bytes_roundtrip() {
    each_layout!(bytes_roundtrip);
}

#[test]
fn errors() {
    each_layout!(errors);
}

#[test]
fn enums() {
    for_each_enum!(check_enum);
}

fn hdr() -> Hdr {
    Hdr {
        op: Op::WriteAck,
        flag: 1,
        mode: Mode::B,
        len: 0x1ABC,
        addr: 0x1_2345_6789,
        tag: 0xFEDC_BA98_7654_3210,
    }
}

/// Bytes worked out by hand from the fixture's field list.
#[test]
fn hdr_known_answer() {
    // op=0x80 | flag=1 mode=101 rsvd=0000 | len=1_1010_1011_1100 | addr=1_0010_0011_0100_0101_0110_0111_1000_1001 | rsvd=00 | tag
    // bits:  10000000 1101 0000 11010101 11100 100 (addr starts at bit 29) ...
    let mut want = [0u8; 16];
    let bitstr = format!(
        "{:08b}{:01b}{:03b}{:04b}{:013b}{:033b}{:02b}{:064b}",
        0x80, 1, 5, 0, 0x1ABC, 0x1_2345_6789u64, 0, 0xFEDC_BA98_7654_3210u64
    );
    assert_eq!(bitstr.len(), 128);
    for (i, chunk) in bitstr.as_bytes().chunks(8).enumerate() {
        want[i] = u8::from_str_radix(std::str::from_utf8(chunk).expect("ascii"), 2).expect("bits");
    }
    assert_eq!(&want[..4], &[0x80, 0xD0, 0xD5, 0xE4]);
    assert_eq!(hdr().to_bytes(), Ok(want));
    assert_eq!(Hdr::from_bytes(&want), Ok(hdr()));
}

#[test]
fn odd_straddling_enum() {
    // rsvd_hi=000000 m=111 val=0x7FFF -> 000000 11|1 1111111 11111111
    let o = Odd {
        m: Mode::C,
        val: 0x7FFF,
    };
    assert_eq!(o.to_bytes(), Ok([0x03, 0xFF, 0xFF]));
    // m=110 is not a mode value.
    assert_eq!(
        Odd::from_bytes(&[0x03, 0x00, 0x00]),
        Err(LayoutError::InvalidEnumField {
            field: "odd.m",
            enum_name: "mode",
            value: 6
        })
    );
    assert_eq!(
        Odd::from_bytes(&[0x04, 0x00, 0x00]),
        Err(LayoutError::ReservedNonZero {
            field: "odd.rsvd_hi",
            value: 1
        })
    );
}

#[test]
fn wide_fields() {
    let w = Wide {
        a: u128::MAX,
        b: 0,
        c: 1,
        t: BigTag::High,
        d: 1,
    };
    let b = w.to_bytes().expect("fits");
    assert_eq!(&b[..16], &[0xFF; 16]);
    // b (7 bits) = 0 then c's top bit: byte 16 = 0000000|0.
    assert_eq!(b[16], 0x00);
    // c = 1 sets bit 128+7+127 = 262 (byte 32); t's first of 65 ones is bit 263.
    assert_eq!(b[32], 0b0000_0011);
    assert_eq!(&b[33..40], &[0xFF; 7]);
    assert_eq!(b[40], 0xFF);
    // t covers bits 263..=327, ending with byte 40; d=1 is the top bit of byte 41.
    assert_eq!(b[41], 0b1000_0000, "d=1, then reserved");
    assert_eq!(Wide::from_bytes(&b), Ok(w));
    assert_eq!(
        BigTag::try_from(36_893_488_147_419_103_231u128),
        Ok(BigTag::High)
    );
    assert_eq!(BigTag::High.as_raw(), (1u128 << 65) - 1);
}

/// Public fields can hold values wider than the spec field: packing must refuse them rather
/// than truncate.
#[test]
fn to_bytes_rejects_over_wide_values() {
    let cases: [(Hdr, &str, u32, u128); 2] = [
        (Hdr { flag: 2, ..hdr() }, "hdr.flag", 1, 2),
        (
            Hdr {
                len: 0x2000,
                ..hdr()
            },
            "hdr.len",
            13,
            0x2000,
        ),
    ];
    for (h, field, bits, value) in cases {
        assert_eq!(
            h.to_bytes(),
            Err(LayoutError::FieldOverflow { field, bits, value })
        );
    }
    assert_eq!(
        Hdr {
            addr: 1 << 33,
            ..hdr()
        }
        .to_bytes(),
        Err(LayoutError::FieldOverflow {
            field: "hdr.addr",
            bits: 33,
            value: 1 << 33
        })
    );
    assert_eq!(
        Wide {
            a: 0,
            b: 0x80,
            c: 0,
            t: BigTag::Low,
            d: 0
        }
        .to_bytes(),
        Err(LayoutError::FieldOverflow {
            field: "wide.b",
            bits: 7,
            value: 0x80
        })
    );
    assert_eq!(
        Tiny { x: 1, y: 0x80 }.to_bytes(),
        Err(LayoutError::FieldOverflow {
            field: "tiny.y",
            bits: 7,
            value: 0x80
        })
    );
    assert_eq!(Tiny { x: 1, y: 0x7F }.to_bytes(), Ok([0xFF]));
}

#[test]
fn unknown_enum_via_try_from() {
    assert_eq!(
        Op::try_from(3),
        Err(LayoutError::UnknownEnumValue {
            enum_name: "op",
            value: 3
        })
    );
    assert_eq!(
        Mode::try_from(8),
        Err(LayoutError::UnknownEnumValue {
            enum_name: "mode",
            value: 8
        })
    );
}

#[test]
fn constants() {
    assert_eq!(HDR_BYTES, Hdr::BYTES);
    assert_eq!(MAX_LEN, 4_294_967_295);
}
