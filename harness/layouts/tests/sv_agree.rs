//! The SV packages and the Rust types agree on every layout, checked by the SV compiler rather
//! than by the generator: a Verilator testbench assigns field values to each packed struct by
//! field name and prints the packed bits, which must equal Rust's `to_bytes` of the same
//! values. This catches any disagreement in field order, width or offset between the two
//! renderers (both are generated, but SV computes the packing itself from the declarations).
//! It also checks `$bits` of each struct and the value of every SV enum constant.
//!
//! Covers `rtl/onerma_pkg.sv` and the fixture `tests/sv/onerma_fixture_pkg.sv`. Verilator is a
//! project prerequisite; if it is missing the test fails.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use onerma_layouts::{FieldInfo, FieldKind, Layout, LayoutEnum, LayoutError, bits};

#[macro_use]
// Not every generated item is exercised by these tests.
#[allow(dead_code)]
mod fixture {
    include!("fixture/generated.rs");
}

/// Value sets per layout: all zeros (enums at their first value), all ones (enums at their
/// last) and pseudo-random ones.
const RANDOM_CASES: u64 = 4;

struct Bench {
    decls: String,
    body: String,
    expected: Vec<String>,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn upper_camel(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| {
                f.to_ascii_uppercase().to_string() + c.as_str()
            })
        })
        .collect()
}

fn add_layout<L: Layout>(bench: &mut Bench, pkg: &str, seed: u64) {
    let var = format!("v_{pkg}_{}", L::NAME);
    let _ = writeln!(bench.decls, "  {pkg}::{}_t {var};", L::NAME);
    let mut state = seed;
    for case in 0..RANDOM_CASES + 2 {
        let mut values = Vec::new();
        let _ = writeln!(bench.body, "    {var} = '0;");
        for f in L::FIELDS {
            let FieldInfo {
                name, bits, kind, ..
            } = *f;
            let v = match kind {
                FieldKind::Reserved => continue,
                FieldKind::Value => match case {
                    0 => 0,
                    1 => common::mask(bits),
                    _ => {
                        (u128::from(splitmix(&mut state)) << 64 | u128::from(splitmix(&mut state)))
                            & common::mask(bits)
                    }
                },
                FieldKind::Enum { values: raws, .. } => match case {
                    0 => raws[0],
                    1 => raws[raws.len() - 1],
                    _ => raws[(splitmix(&mut state) % raws.len() as u64) as usize],
                },
            };
            let lit = format!("{bits}'h{v:x}");
            let rhs = match kind {
                FieldKind::Enum { name: e, .. } => format!("{pkg}::{e}_e'({lit})"),
                _ => lit,
            };
            let _ = writeln!(bench.body, "    {var}.{name} = {rhs};");
            values.push(v);
        }
        let x = L::from_field_values(&values).unwrap_or_else(|e| panic!("{}: {e}", L::NAME));
        let bytes = x.encode().unwrap_or_else(|e| panic!("{}: {e}", L::NAME));
        let _ = writeln!(
            bench.body,
            "    $display(\"L {pkg}.{} {case} %0d %h\", $bits({var}), {var});",
            L::NAME
        );
        bench.expected.push(format!(
            "L {pkg}.{} {case} {} {}",
            L::NAME,
            L::BYTES * 8,
            hex(&bytes)
        ));
    }
}

fn add_enum<E: LayoutEnum + std::fmt::Debug>(bench: &mut Bench, pkg: &str, all: &[E]) {
    for v in all {
        let sv = format!("{}{v:?}", upper_camel(E::NAME));
        let _ = writeln!(
            bench.body,
            "    $display(\"E {pkg}::{sv} %0h\", {pkg}::{sv});"
        );
        bench
            .expected
            .push(format!("E {pkg}::{sv} {:x}", v.to_u128()));
    }
}

fn build() -> Bench {
    let mut b = Bench {
        decls: String::new(),
        body: String::new(),
        expected: Vec::new(),
    };
    let mut seed = 1;
    macro_rules! real_layout {
        ($t:ident) => {
            seed += 1;
            add_layout::<onerma_layouts::$t>(&mut b, "onerma_pkg", seed);
        };
    }
    macro_rules! real_enum {
        ($t:ident, $r:ident) => {
            add_enum(&mut b, "onerma_pkg", &onerma_layouts::$t::ALL);
        };
    }
    onerma_layouts::for_each_layout!(real_layout);
    onerma_layouts::for_each_enum!(real_enum);
    macro_rules! fixture_layout {
        ($t:ident) => {
            seed += 1;
            add_layout::<fixture::$t>(&mut b, "onerma_fixture_pkg", seed);
        };
    }
    macro_rules! fixture_enum {
        ($t:ident, $r:ident) => {
            add_enum(&mut b, "onerma_fixture_pkg", &fixture::$t::ALL);
        };
    }
    for_each_layout!(fixture_layout);
    for_each_enum!(fixture_enum);
    b
}

fn testbench(b: &Bench) -> String {
    format!(
        "`default_nettype none\n// Written by harness/layouts/tests/sv_agree.rs.\nmodule tb;\n{}\n  initial begin\n{}    $finish;\n  end\nendmodule\n`default_nettype wire\n",
        b.decls, b.body
    )
}

#[test]
fn sv_structs_match_rust_packing() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pkgs: [PathBuf; 2] = [
        crate_dir.join("../../rtl/onerma_pkg.sv"),
        crate_dir.join("tests/sv/onerma_fixture_pkg.sv"),
    ];
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sv_agree");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("create work dir");
    let bench = build();
    let tb = work.join("tb.sv");
    std::fs::write(&tb, testbench(&bench)).expect("write tb.sv");

    let out = Command::new("verilator")
        .current_dir(&work)
        .args([
            "--binary",
            "-Wall",
            "--top-module",
            "tb",
            "--Mdir",
            "obj",
            "-o",
            "tb",
        ])
        .args(&pkgs)
        .arg(&tb)
        .output()
        .expect("verilator must be installed (cargo xtask install)");
    assert!(
        out.status.success(),
        "verilator failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(work.join("obj/tb"))
        .current_dir(&work)
        .output()
        .expect("run tb");
    assert!(
        run.status.success(),
        "tb failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    let got: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("L ") || l.starts_with("E "))
        .collect();
    assert_eq!(
        got.len(),
        bench.expected.len(),
        "testbench output:\n{stdout}"
    );
    for (g, want) in got.iter().zip(&bench.expected) {
        assert_eq!(*g, want, "SV (left) and Rust (right) disagree");
    }
}
