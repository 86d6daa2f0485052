//! `onerma-gen [--check] [--root DIR]`: regenerate (or, with `--check`, verify) the SV package,
//! Rust types and docs from `spec/layouts.json`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage: onerma-gen [--check] [--root DIR]

Renders spec/layouts.json into rtl/<package>.sv, harness/layouts/src/generated.rs and
docs/layouts.md. --check writes nothing and exits 1 if any output is stale.
--root defaults to the nearest ancestor of the current directory holding spec/layouts.json.";

struct Args {
    check: bool,
    root: Option<PathBuf>,
}

fn parse_args() -> Result<Option<Args>, String> {
    let mut args = Args {
        check: false,
        root: None,
    };
    let mut it = std::env::args_os().skip(1);
    while let Some(a) = it.next() {
        match a.to_str() {
            Some("--check") => args.check = true,
            Some("--root") => {
                args.root = Some(it.next().ok_or("--root needs a directory")?.into());
            }
            Some("-h" | "--help") => return Ok(None),
            _ => return Err(format!("unexpected argument {}", a.to_string_lossy())),
        }
    }
    Ok(Some(args))
}

fn find_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join(onerma_gen::SPEC_PATH).is_file())
        .map(Path::to_path_buf)
}

fn run() -> Result<ExitCode, String> {
    let Some(args) = parse_args()? else {
        println!("{USAGE}");
        return Ok(ExitCode::SUCCESS);
    };
    let root = match args.root {
        Some(r) => r,
        None => {
            let cwd = std::env::current_dir().map_err(|e| format!("current directory: {e}"))?;
            find_root(&cwd)
                .ok_or_else(|| format!("no {} above {}", onerma_gen::SPEC_PATH, cwd.display()))?
        }
    };
    let outputs = onerma_gen::generate(&root).map_err(|e| e.to_string())?;
    if args.check {
        let stale = onerma_gen::stale(&root, &outputs);
        for p in &stale {
            eprintln!("stale: {} (run `cargo xtask gen`)", p.display());
        }
        return Ok(if stale.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    for p in onerma_gen::write(&root, &outputs).map_err(|e| e.to_string())? {
        println!("wrote {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("onerma-gen: {msg}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
