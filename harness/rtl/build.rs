//! Verilates every top in `tops/*.json` whose group feature is enabled (see onerma-vbridge); each
//! names a core and target of the repository's FuseSoC cores, which give its sources.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Cargo shows build-script stderr on failure; one readable message beats a panic.
            eprintln!("error: building the Verilated models failed: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), onerma_vbridge::BridgeError> {
    let manifest = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let repo_root = manifest
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let tops_dir = manifest.join("tops");
    println!("cargo:rerun-if-changed={}", tops_dir.display());
    let cores = onerma_cores::Library::load(&repo_root).map_err(|e| {
        onerma_vbridge::BridgeError::SpecFile {
            path: repo_root.clone(),
            why: e.to_string(),
        }
    })?;
    // Every core: a spec's tree can change through any of them (a new dependency, a file).
    for c in cores.cores() {
        println!(
            "cargo:rerun-if-changed={}",
            repo_root.join(&c.path).display()
        );
    }
    let specs: Vec<_> = onerma_vbridge::load_specs(&tops_dir, &cores)?
        .into_iter()
        .inspect(|s| {
            println!(
                "cargo:rerun-if-changed={}",
                tops_dir.join(format!("{}.json", s.name)).display()
            )
        })
        .filter(|s| {
            let feature = format!("CARGO_FEATURE_{}", s.group.to_uppercase().replace('-', "_"));
            std::env::var_os(feature).is_some()
        })
        .map(|mut s| {
            // Feature `waves`: FST waves in every top, not only those whose spec asks.
            s.waves |= std::env::var_os("CARGO_FEATURE_WAVES").is_some();
            s
        })
        .collect();
    let out_dir = PathBuf::from(env("OUT_DIR"));
    // A benchmark build (any of the features that add benchmark tops) gets `-O2` models: the
    // figures of docs/performance.md are measured on them.
    let bench = ["BENCH", "NIC_BENCH", "NIC_CURVE", "CRYPTO_BENCH"]
        .iter()
        .any(|f| std::env::var_os(format!("CARGO_FEATURE_{f}")).is_some());
    let opt = if bench {
        onerma_vbridge::ModelOpt::Bench
    } else {
        onerma_vbridge::ModelOpt::Test
    };
    onerma_vbridge::build_all(&repo_root, &specs, &out_dir, opt)?;
    Ok(())
}

fn env(key: &str) -> String {
    // Cargo always sets these for build scripts; empty falls back to relative paths.
    std::env::var(key).unwrap_or_default()
}
