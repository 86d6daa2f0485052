//! Verilated models of the onerma RTL, driven from Rust
