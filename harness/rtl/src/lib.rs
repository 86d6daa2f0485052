//! Verilated models of the onerma RTL, driven from Rust.
//!
//! One module per `tops/<name>.json` whose group feature is enabled, each with a `Model`
//! (see `docs/verilator-bridge.md`). Drivers for the blocks are added below, gated by the
//! same feature as their top.

include!(concat!(env!("OUT_DIR"), "/models.rs"));

#[cfg(feature = "crypto")]
pub mod gcm;
