//! `cargo xtask test`: every check CI runs, with a per-stage summary.

use crate::util::{Result, XtaskError, cargo, elapsed, run};
use std::time::Instant;

pub const STAGES: &[&str] = &[
    "install",
    "gen",
    "fmt",
    "clippy",
    "cargo-test",
    "cores",
    "lint",
    "formal",
    "synth",
    "pnr",
];

fn stage(name: &str) -> Result<()> {
    match name {
        "install" => crate::install::install(),
        "gen" => crate::generate::gen_files(true),
        "fmt" => run("cargo fmt", cargo().args(["fmt", "--all", "--check"])),
        "clippy" => run(
            "cargo clippy",
            cargo().args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ]),
        ),
        "cargo-test" => run(
            "cargo test",
            cargo().args(["test", "--workspace", "--release"]),
        ),
        "cores" => crate::cores::cores(),
        "lint" => crate::lint::lint(),
        "formal" => crate::formal::formal(None),
        "synth" => crate::synth::synth(&[]),
        // One small place-and-route proves the flow down to a bitstream on every run.
        "pnr" => crate::synth::fpga(
            "fifo",
            &crate::synth::PnrOpts {
                device: crate::synth::Device::K25,
                package: "CABGA381".into(),
                freq: 100.0,
                seeds: vec![1],
                ooc: false,
                extra: Vec::new(),
            },
        )
        .map(|_| ()),
        other => Err(XtaskError::Failed(format!("no stage `{other}`"))),
    }
}

/// Every name in `skip` must be a stage: a typo would otherwise run the stage it meant to skip.
pub fn check_skip(skip: &[String]) -> Result<()> {
    match skip.iter().find(|s| !STAGES.contains(&s.as_str())) {
        Some(bad) => Err(XtaskError::Failed(format!(
            "unknown stage `{bad}` in --skip (stages: {})",
            STAGES.join(", ")
        ))),
        None => Ok(()),
    }
}

pub fn test(skip: &[String]) -> Result<bool> {
    check_skip(skip)?;
    let mut rows = Vec::new();
    for name in STAGES {
        if skip.iter().any(|s| s == name) {
            rows.push((name, "SKIP", String::new()));
            continue;
        }
        println!("\n==== stage {name} ====");
        let t = Instant::now();
        let r = stage(name);
        let status = match &r {
            Ok(()) => "PASS",
            Err(e) => {
                println!("stage {name} failed: {e}");
                "FAIL"
            }
        };
        rows.push((name, status, elapsed(t)));
    }
    println!("\n==== summary ====");
    for (n, s, t) in &rows {
        println!("{n:<12} {s:<5} {t:>8}");
    }
    let passed = rows.iter().filter(|r| r.1 == "PASS").count();
    let failed = rows.iter().filter(|r| r.1 == "FAIL").count();
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_accepts_stages_and_rejects_unknown_names() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(check_skip(&names(&["pnr", "formal", "cores"])).is_ok());
        assert!(check_skip(&[]).is_ok());
        let e = check_skip(&names(&["pnr", "fromal"])).expect_err("typo accepted");
        assert!(e.to_string().contains("`fromal`"), "{e}");
        // test() refuses before running any stage.
        assert!(test(&names(&["lnt"])).is_err());
    }
}
