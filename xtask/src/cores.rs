//! `cargo xtask cores`: FuseSoC (pinned in .tools/venv) validates the cores every other command
//! reads through onerma-cores.
//!
//! 1. FuseSoC loads every core (a core it cannot parse is an error) and resolves every target of
//!    every core; its files and toplevel must equal what onerma-cores resolves, so the xtask
//!    flows and `fusesoc run` build the same thing.
//! 2. Real FuseSoC flows: `fusesoc run --target lint` of onerma:crypto:gcm_pool and
//!    onerma:nic:csr (Verilator `--lint-only -Wall` through edalize; csr also checks that the
//!    Verilator waiver file of the generated register block works on FuseSoC's copied sources).

use crate::util::{Result, XtaskError, capture, cmd, elapsed, io_err, root, venv_bin};
use onerma_cores::Library;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// The FuseSoC flows run on every check.
const FLOW_CORES: &[&str] = &["onerma:crypto:gcm_pool", "onerma:nic:csr"];

/// Prints one JSON object: `"<vendor:library:name> <target>"` -> {files, toplevel}, plus
/// `"!errors"` (core files FuseSoC rejected). argv: repository root, then the cores roots.
const RESOLVE_PY: &str = r#"
import json, logging, os, sys
from fusesoc.config import Config
from fusesoc.coremanager import CoreManager
from fusesoc.librarymanager import Library

logging.basicConfig(level=logging.ERROR)
root = os.path.realpath(sys.argv[1])
cm = CoreManager(Config(path=os.devnull))
for r in sys.argv[2:]:
    cm.add_library(Library(r, os.path.join(root, r)), [])
out = {"!errors": [f"{f}: {e}" for f, e in cm.parse_errors]}
for core in cm.get_cores().values():
    n = core.name
    vln = f"{n.vendor}:{n.library}:{n.name}"
    for t in core.get_data({}).targets:
        try:
            flags = dict(core.get_flags(t))
            flags["target"] = t
            files = []
            for c in cm.get_depends(core.name, flags):
                f2 = dict(flags)
                f2["is_toplevel"] = c.name == core.name
                for f in c.get_files(f2):
                    p = os.path.normpath(os.path.join(c.files_root, f["name"]))
                    files.append(os.path.relpath(os.path.realpath(p), root))
            top = core.get_toplevel(flags) if t != "default" else None
            out[f"{vln} {t}"] = {"files": files, "toplevel": top}
        except Exception as e:
            out[f"{vln} {t}"] = {"error": f"{type(e).__name__}: {e}"}
print(json.dumps(out))
"#;

/// The top-level directories that hold cores: FuseSoC's cores roots (`--cores-root .` would
/// also walk the tool venv behind the `.tools` symlink and every build directory).
fn cores_roots(lib: &Library) -> Vec<String> {
    let roots: BTreeSet<String> = lib
        .cores()
        .filter_map(|c| c.path.components().next())
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    roots.into_iter().collect()
}

#[derive(serde::Deserialize)]
struct FuseResolved {
    #[serde(default)]
    files: Vec<String>,
    #[serde(default)]
    toplevel: Option<String>,
    /// FuseSoC could not resolve the target.
    #[serde(default)]
    error: Option<String>,
}

pub fn cores() -> Result<()> {
    let t = Instant::now();
    let lib = crate::synth::load_cores()?;
    let roots = cores_roots(&lib);
    let dir = root().join("build").join("fusesoc");
    std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
    let script = dir.join("resolve.py");
    std::fs::write(&script, RESOLVE_PY).map_err(io_err(&script))?;
    let out = capture(
        "fusesoc (python API)",
        cmd(venv_bin().join("python"))
            .arg(&script)
            .arg(root())
            .args(&roots),
    )?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut fuse: BTreeMap<String, serde_json::Value> = serde_json::from_str(text.trim())
        .map_err(|e| XtaskError::Failed(format!("cores: FuseSoC output is not JSON: {e}")))?;
    let errors = fuse.remove("!errors").unwrap_or_default();
    let mut problems: Vec<String> = errors
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| format!("FuseSoC rejects {}", e.as_str().unwrap_or_default()))
        .collect();
    let mut checked = 0;
    for core in lib.cores() {
        for target in core.targets.keys() {
            let key = format!("{} {target}", core.name);
            let Some(v) = fuse.remove(&key) else {
                problems.push(format!("{key}: FuseSoC does not know this core or target"));
                continue;
            };
            let f: FuseResolved = serde_json::from_value(v)
                .map_err(|e| XtaskError::Failed(format!("cores: {key}: {e}")))?;
            if let Some(e) = &f.error {
                problems.push(format!("{key}: FuseSoC: {e}"));
            }
            let ours = match lib.resolve(&core.name, target) {
                Ok(r) => r,
                Err(e) => {
                    problems.push(format!("{key}: {e}"));
                    continue;
                }
            };
            let our_files: Vec<String> = ours.files.iter().map(|f| f.path.clone()).collect();
            let (a, b): (BTreeSet<_>, BTreeSet<_>) =
                (our_files.iter().collect(), f.files.iter().collect());
            if a != b {
                problems.push(format!(
                    "{key}: files differ: only onerma-cores {:?}, only FuseSoC {:?}",
                    a.difference(&b).collect::<Vec<_>>(),
                    b.difference(&a).collect::<Vec<_>>()
                ));
            }
            if target != "default" && ours.toplevel != f.toplevel {
                problems.push(format!(
                    "{key}: toplevel {:?} (onerma-cores) vs {:?} (FuseSoC)",
                    ours.toplevel, f.toplevel
                ));
            }
            checked += 1;
        }
    }
    for key in fuse.keys() {
        problems.push(format!("{key}: FuseSoC finds a core onerma-cores does not"));
    }
    println!(
        "cores: FuseSoC and onerma-cores resolve {checked} targets of {} cores ({})",
        lib.cores().count(),
        elapsed(t)
    );
    if !problems.is_empty() {
        for p in &problems {
            println!("cores: FAIL {p}");
        }
        return Err(XtaskError::Failed(format!(
            "cores: {} problem(s)",
            problems.len()
        )));
    }
    for core in FLOW_CORES {
        let t = Instant::now();
        let mut c = cmd(venv_bin().join("fusesoc"));
        for r in &roots {
            c.args(["--cores-root", r]);
        }
        c.args([
            "run",
            "--build-root",
            "build/fusesoc",
            "--target",
            "lint",
            core,
        ]);
        capture("fusesoc", &mut c)?;
        println!(
            "cores: PASS fusesoc run --target lint {core} (Verilator -Wall) ({})",
            elapsed(t)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn roots_are_the_top_directories_holding_cores() {
        let lib = Library::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("..")).expect("cores");
        assert_eq!(cores_roots(&lib), ["fpga", "harness", "rtl"]);
    }
}
