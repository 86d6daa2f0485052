//! Build-time Verilator bridge: verilate a top, generate a safe Rust handle
