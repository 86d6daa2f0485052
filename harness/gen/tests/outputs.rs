//! The committed generated files are exactly what the generator produces now.
//! Set `ONERMA_BLESS=1` to rewrite the fixture renderings instead of comparing.

mod common;

use std::path::PathBuf;

use common::{FIXTURE, FIXTURE_RUST, FIXTURE_SV, fixture_json, repo_root};

#[test]
fn repo_outputs_are_fresh() {
    let root = repo_root();
    let outputs = onerma_gen::generate(&root).expect("spec/layouts.json must generate");
    let paths: Vec<_> = outputs.iter().map(|(p, _)| p.clone()).collect();
    assert_eq!(
        paths,
        [
            PathBuf::from("rtl/onerma_pkg.sv"),
            PathBuf::from("harness/layouts/src/generated.rs"),
            PathBuf::from("docs/layouts.md"),
        ]
    );
    let stale = onerma_gen::stale(&root, &outputs);
    assert!(
        stale.is_empty(),
        "stale generated files {stale:?}: run `cargo xtask gen`"
    );
}

#[test]
fn fixture_outputs_are_fresh() {
    let root = repo_root();
    let r = onerma_gen::render(&fixture_json(), FIXTURE, &root).expect("fixture must generate");
    let outputs = vec![
        (PathBuf::from(FIXTURE_RUST), r.rust),
        (PathBuf::from(FIXTURE_SV), r.sv),
    ];
    if std::env::var_os("ONERMA_BLESS").is_some() {
        onerma_gen::write(&root, &outputs).expect("write fixture outputs");
    }
    let stale = onerma_gen::stale(&root, &outputs);
    assert!(
        stale.is_empty(),
        "stale fixture renderings {stale:?}: rerun with ONERMA_BLESS=1"
    );
}

#[test]
fn generation_is_deterministic() {
    let root = repo_root();
    let a = onerma_gen::render(&fixture_json(), FIXTURE, &root).expect("fixture");
    let b = onerma_gen::render(&fixture_json(), FIXTURE, &root).expect("fixture");
    assert_eq!(a, b);
}

/// Docs are not compiled by anything, so check their content directly.
#[test]
fn fixture_docs_tables() {
    let r = onerma_gen::render(&fixture_json(), FIXTURE, &repo_root()).expect("fixture");
    let d = &r.docs;
    // hdr.len: offset 16 bits -> byte 2, bit 7; 13 bits; SV [111:99] of 128.
    assert!(
        d.contains("| 2.7 | 13 | [111:99] | `len` | value | Straddles bytes 2 and 3. |"),
        "{d}"
    );
    // hdr.addr: offset 29 -> byte 3, bit 2.
    assert!(d.contains("| 3.2 | 33 | [98:66] | `addr` |"), "{d}");
    assert!(
        d.contains("| 1.3 | 4 | [115:112] | `rsvd0` | reserved (0) |"),
        "{d}"
    );
    assert!(
        d.contains("| 0x80 | `WRITE_ACK` | `OpWriteAck` | `Op::WriteAck` | Top bit set. |"),
        "{d}"
    );
    assert!(
        d.contains("Read \\| with a pipe"),
        "pipes in docs must be escaped: {d}"
    );
    assert!(d.contains("| `MAX_LEN` | `MaxLen` | 4294967295 |"), "{d}");
}

#[test]
fn fixture_sv_shapes() {
    let r = onerma_gen::render(&fixture_json(), FIXTURE, &repo_root()).expect("fixture");
    let sv = &r.sv;
    for needle in [
        "package onerma_fixture_pkg;",
        "localparam int unsigned HdrBytes = 16;",
        "typedef enum logic [7:0] {",
        "OpWriteAck = 8'd128",
        "typedef enum logic [2:0] {",
        "BigTagHigh = 65'd36893488147419103231",
        "} big_tag_e;",
        "op_e op; // [127:120]",
        "logic flag; // [119:119]",
        "logic [12:0] len; // [111:99]",
        "} hdr_t;",
        "localparam int unsigned HdrTBits = 128;",
        "localparam int unsigned WideTBits = 360;",
        "do not edit",
        "cargo xtask gen",
    ] {
        assert!(sv.contains(needle), "missing {needle:?} in\n{sv}");
    }
}
