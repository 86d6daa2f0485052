//! Verilated models of the onerma RTL, driven from Rust.
//!
//! One module per `tops/<name>.json` whose group feature is enabled, each with a `Model`
//! (see `docs/verilator-bridge.md`). The drivers that feed the models live in the test library
//! `onerma-rtl-tests` (`cocotb-free-tests/src`), which depends on this crate.

include!(concat!(env!("OUT_DIR"), "/models.rs"));
