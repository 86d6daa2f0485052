//! Round trips and error cases for every layout and enum of `spec/layouts.json`.
//! Written against the `Layout` trait so they follow the spec without edits.

mod common;

use onerma_layouts::*;

macro_rules! each_layout {
    ($check:ident) => {{
        macro_rules! one {
            ($t:ident) => {
                common::$check::<$t>();
            };
        }
        onerma_layouts::for_each_layout!(one);
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
    onerma_layouts::for_each_enum!(check_enum);
}

#[test]
fn sizes_match_constants() {
    // Ties the spec's size constants to the layouts they describe, so one cannot change alone.
    let mut checked = 0;
    macro_rules! size {
        ($t:ident) => {
            let want = match <$t as Layout>::NAME {
                "cmd" => Some(CMD_BYTES),
                "cpl" => Some(CPL_BYTES),
                "hdr" => Some(HDR_BYTES),
                "rrt_entry" => Some(RRT_ENTRY_BYTES),
                _ => None,
            };
            if let Some(want) = want {
                assert_eq!($t::BYTES, want, "{}", <$t as Layout>::NAME);
                assert_eq!($t::BITS, want * 8);
                checked += 1;
            }
        };
    }
    for_each_layout!(size);
    assert_eq!(checked, 4);
}
