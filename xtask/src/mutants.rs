//! `cargo xtask mutants-model`: mutation score of the golden model's protocol code with the
//! pinned cargo-mutants (installed project-locally in `.tools/cargo`). Not part of `test`: a full
//! run builds and tests every mutant (hours on two cores).

use std::path::Path;

use crate::util::{Result, XtaskError, cargo, cmd, io_err, root, run};

/// Pinned cargo-mutants.
pub const VERSION: &str = "27.1.0";

/// The model's protocol code: the codecs (`onerma-layouts`), the fabric, the workload, the CLI
/// and the crypto wrappers are not mutated (their own tests cover them).
pub const FILES: &[&str] = &[
    "harness/model/src/config.rs",
    "harness/model/src/initiator.rs",
    "harness/model/src/invariants.rs",
    "harness/model/src/nic.rs",
    "harness/model/src/responder.rs",
    "harness/model/src/shared.rs",
    "harness/model/src/timing.rs",
    "harness/model/src/wire.rs",
];

fn tool_dir() -> std::path::PathBuf {
    root().join(".tools").join("cargo")
}

/// Installs the pinned cargo-mutants into `.tools/cargo` unless it is there.
///
/// # Errors
/// `cargo install` failed.
pub fn install() -> Result<()> {
    let bin = tool_dir().join("bin").join("cargo-mutants");
    if bin.is_file() {
        let out = std::process::Command::new(&bin)
            .args(["mutants", "--version"])
            .output();
        if out.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(VERSION)) {
            return Ok(());
        }
    }
    run(
        "cargo install",
        cargo()
            .args([
                "install",
                "cargo-mutants",
                "--version",
                VERSION,
                "--locked",
                "--root",
            ])
            .arg(tool_dir()),
    )
}

fn count(dir: &Path, name: &str) -> Result<Vec<String>> {
    let p = dir.join(name);
    if !p.is_file() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&p).map_err(io_err(&p))?;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect())
}

/// Runs cargo-mutants on `files` (default [`FILES`]) and prints the score: caught over viable
/// mutants (caught + missed + timed out). Returns whether the score meets `goal` percent.
///
/// # Errors
/// The tool could not be installed or run.
pub fn mutants_model(files: &[String], jobs: u32, goal: f64) -> Result<bool> {
    install()?;
    let out_dir = root().join("build").join("mutants");
    std::fs::create_dir_all(&out_dir).map_err(io_err(&out_dir))?;
    let mut c = cmd(tool_dir().join("bin").join("cargo-mutants"));
    c.args(["mutants", "--package", "onerma-model", "--no-shuffle"])
        .args(["--jobs", &jobs.to_string()])
        .args(["--timeout", "120"])
        .arg("--output")
        .arg(&out_dir);
    let list: Vec<String> = if files.is_empty() {
        FILES.iter().map(|s| (*s).to_string()).collect()
    } else {
        files.to_vec()
    };
    for f in &list {
        c.args(["--file", f]);
    }
    // cargo-mutants exits non-zero when a mutant is missed; the score below is the verdict.
    let _ = run("cargo mutants", &mut c);
    let res = out_dir.join("mutants.out");
    let caught = count(&res, "caught.txt")?;
    let missed = count(&res, "missed.txt")?;
    let timeout = count(&res, "timeout.txt")?;
    let unviable = count(&res, "unviable.txt")?;
    let viable = caught.len() + missed.len() + timeout.len();
    if viable == 0 {
        return Err(XtaskError::Failed(format!(
            "mutants: no viable mutant tested (see {})",
            res.display()
        )));
    }
    let score = 100.0 * caught.len() as f64 / viable as f64;
    println!("\n==== mutants-model ====");
    for m in &missed {
        println!("MISSED   {m}");
    }
    for m in &timeout {
        println!("TIMEOUT  {m}");
    }
    println!(
        "caught {}, missed {}, timeout {}, unviable {}: score {score:.1} % of {viable} viable (goal {goal} %)",
        caught.len(),
        missed.len(),
        timeout.len(),
        unviable.len()
    );
    Ok(score >= goal)
}
