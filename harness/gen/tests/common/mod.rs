//! Paths shared by the generator tests.

#![allow(dead_code)]

use std::path::PathBuf;

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub const FIXTURE: &str = "harness/gen/tests/fixtures/layouts.json";
/// Where the fixture's renderings are committed, for the `onerma-layouts` tests to compile,
/// simulate and lint.
pub const FIXTURE_RUST: &str = "harness/layouts/tests/fixture/generated.rs";
pub const FIXTURE_SV: &str = "harness/layouts/tests/sv/onerma_fixture_pkg.sv";

pub fn fixture_json() -> String {
    let p = repo_root().join(FIXTURE);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()))
}
