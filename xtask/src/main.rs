//! Every developer command of onerma: `cargo xtask <command> --help`.

mod bench;
mod cores;
mod formal;
mod generate;
mod install;
mod lint;
mod mutants;
mod regs;
mod sta;
mod synth;
mod test;
mod util;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use util::{Result, cargo, run};

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "onerma developer commands"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Install Verilator (apt) and the pinned YoWASP/solver venv in .tools/ (idempotent).
    Install,
    /// Write the files generated from spec/layouts.json and spec/onerma_regs.rdl.
    Gen {
        /// Only check: fail listing every generated file that is out of date.
        #[arg(long)]
        check: bool,
    },
    /// Verilator -Wall lint of every core with a `lint` target.
    Lint,
    /// FuseSoC validates the cores: it resolves every target of every core to the same files
    /// as xtask, and runs `fusesoc run --target lint` of onerma:crypto:gcm_pool and onerma:nic:csr.
    Cores,
    /// Run every formal/*.sby proof.
    Formal {
        /// Run only formal/NAME.sby.
        #[arg(long, value_name = "NAME")]
        only: Option<String>,
    },
    /// Smoke synthesis (yosys synth_ecp5) of every entry of fpga/synth_smoke.json.
    Synth {
        /// Synthesize only this entry of fpga/synth_smoke.json or fpga/blocks.json (repeatable;
        /// synthesis only, no place and route).
        #[arg(long = "name", value_name = "NAME")]
        names: Vec<String>,
    },
    /// Full ECP5 place-and-route of one fpga/synth_smoke.json or fpga/blocks.json entry, down to
    /// a bitstream (or, with --ooc, to a timing/area report).
    Fpga {
        /// Entry name in fpga/synth_smoke.json or fpga/blocks.json.
        #[arg(long)]
        name: String,
        #[arg(long, value_enum, default_value = "85k")]
        device: synth::Device,
        #[arg(long, default_value = "CABGA381")]
        package: String,
        /// Target clock in MHz.
        #[arg(long, default_value_t = 100.0)]
        freq: f64,
        /// Placer seed; repeat it for a seed sweep of one synthesized netlist (one run per
        /// seed, files `<name>_s<seed>*`, a table at the end).
        #[arg(long = "seed", value_name = "SEED", default_values_t = [1u32])]
        seeds: Vec<u32>,
        /// Out of context (blocks with more port bits than pins): report only, no bitstream.
        #[arg(long)]
        ooc: bool,
        /// Extra nextpnr-ecp5 argument, repeatable (placer experiments, e.g.
        /// `--pnr-arg=--placer --pnr-arg=static`).
        #[arg(long = "pnr-arg", value_name = "ARG", allow_hyphen_values = true)]
        pnr_args: Vec<String>,
    },
    /// Register-to-register static timing over the SDF of an `fpga` run: every failing
    /// endpoint, grouped by start and end register, with the worst path of each group (nextpnr
    /// reports only the worst path per clock).
    #[command(group(clap::ArgGroup::new("input").required(true).args(["name", "sdf"])))]
    Sta {
        /// Output name of an `fpga` run (`<name>` or `<name>_s<seed>`): reads
        /// build/fpga/NAME.sdf and also writes the report to build/fpga/NAME_sta.txt.
        #[arg(long)]
        name: Option<String>,
        /// Read this SDF file instead (report on stdout only).
        #[arg(long, value_name = "PATH")]
        sdf: Option<PathBuf>,
        /// Clock period in ns (8 = 125 MHz).
        #[arg(long, default_value_t = 8.0)]
        period_ns: f64,
        /// Print the worst N start->end groups.
        #[arg(long, value_name = "N", default_value_t = 20)]
        groups: usize,
    },
    /// Everything CI checks; ends with `N passed, M failed` (stages).
    Test {
        /// Skip a stage (local iteration only): install, gen, fmt, clippy, cargo-test, cores,
        /// lint, formal, synth, pnr. An unknown name is an error.
        #[arg(long, value_name = "STAGE")]
        skip: Vec<String>,
    },
    /// The Rust tests ROUNDS times under fresh proptest seeds (`test` pins one seed); prints
    /// each failing seed. A campaign: not part of `test`. With `--seed S` the rounds' seeds
    /// derive from S (shard S of a campaign: same S, same seeds); `--cases N` runs N cases per
    /// property; `--test NAME` runs one test file of the RTL tests (e.g. nic_system_streams).
    Soak {
        #[arg(long, default_value_t = 10)]
        rounds: u32,
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long)]
        cases: Option<u32>,
        #[arg(long)]
        test: Option<String>,
    },
    /// Install, then run the CLI demo (`onerma demo`).
    Demo,
    /// Run every benchmark and refresh the table in docs/performance.md.
    Bench,
    /// cargo fmt --all
    Fmt,
    /// Mutation score of the golden model's protocol code (pinned cargo-mutants in .tools/cargo;
    /// hours: not part of `test`). Fails below the goal.
    MutantsModel {
        /// Mutate only these files (default: the protocol modules of harness/model/src).
        #[arg(long = "file", value_name = "PATH")]
        files: Vec<String>,
        /// Mutants built and tested at once.
        #[arg(long, default_value_t = 1)]
        jobs: u32,
        /// Required caught / viable, in percent.
        #[arg(long, default_value_t = 90.0)]
        goal: f64,
    },
}

fn dispatch(cmd: Cmd) -> Result<bool> {
    // Every command that runs a pinned tool installs what is missing first (idempotent, seconds
    // when everything is there), so each works from a fresh clone on its own. `test` installs
    // as its first stage.
    if matches!(
        cmd,
        Cmd::Gen { .. }
            | Cmd::Lint
            | Cmd::Cores
            | Cmd::Formal { .. }
            | Cmd::Synth { .. }
            | Cmd::Fpga { .. }
            | Cmd::Bench
            | Cmd::Demo
            | Cmd::Soak { .. }
    ) {
        install::install()?;
    }
    match cmd {
        Cmd::Install => install::install()?,
        Cmd::Gen { check } => generate::gen_files(check)?,
        Cmd::Lint => lint::lint()?,
        Cmd::Cores => cores::cores()?,
        Cmd::Formal { only } => formal::formal(only.as_deref())?,
        Cmd::Synth { names } => synth::synth(&names)?,
        Cmd::Fpga {
            name,
            device,
            package,
            freq,
            seeds,
            ooc,
            pnr_args,
        } => {
            let o = synth::PnrOpts {
                device,
                package,
                freq,
                seeds,
                ooc,
                extra: pnr_args,
            };
            synth::fpga(&name, &o)?;
        }
        Cmd::Sta {
            name,
            sdf,
            period_ns,
            groups,
        } => sta::sta(name.as_deref(), sdf.as_deref(), period_ns, groups)?,
        Cmd::Test { skip } => return test::test(&skip),
        Cmd::Soak {
            rounds,
            seed,
            cases,
            test,
        } => return test::soak(rounds, seed, cases, test.as_deref()),
        Cmd::Demo => {
            run(
                "onerma demo",
                cargo().args(["run", "--release", "-q", "-p", "onerma-cli", "--", "demo"]),
            )?;
        }
        Cmd::Bench => bench::bench()?,
        Cmd::Fmt => run("cargo fmt", cargo().args(["fmt", "--all"]))?,
        Cmd::MutantsModel { files, jobs, goal } => {
            return mutants::mutants_model(&files, jobs, goal);
        }
    }
    Ok(true)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli.cmd) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
