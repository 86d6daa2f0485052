//! `onerma`: run the demo scenario and the benchmarks (`onerma --help`).

mod bench;
mod demo;
mod error;
mod gcm_bench;
mod gcm_vectors;
mod nic_bench;
mod replay;
mod run;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "onerma",
    version,
    about = "onerma: 1RMA NIC RTL, driven from Rust"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Drive the Verilated blocks with random traffic, check them, print a result table.
    Demo(demo::Args),
    /// Run the registered benchmarks.
    Bench(bench::Args),
    /// Run a scenario file (docs/scenarios.md) on the RTL or the model; non-zero exit on any
    /// divergence from the model.
    Run(run::Args),
    /// Re-run a saved op stream (cocotb-free-tests/regressions/*.json) or a scenario file with
    /// FST waves of the RTL NICs; prints the first divergence and the wave files.
    Replay(replay::Args),
    /// Run AES-GCM test vectors (Wycheproof aes_gcm_test.json schema) through the RTL engine.
    GcmVectors(gcm_vectors::Args),
}

fn main() -> ExitCode {
    let r = match Cli::parse().cmd {
        Cmd::Demo(a) => demo::run(&a),
        Cmd::Bench(a) => bench::run(&a),
        Cmd::Run(a) => run::run(&a),
        Cmd::Replay(a) => replay::run(&a),
        Cmd::GcmVectors(a) => gcm_vectors::run(&a),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
