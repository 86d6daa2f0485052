//! `cargo xtask sta`: read an SDF, run the onerma-sta analysis, print and keep its report.

use crate::util::{Result, XtaskError, elapsed, io_err, rel, root};
use onerma_sta::{analyse, parse, report};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `cargo xtask sta`: read `build/fpga/<name>.sdf` (report also written to
/// `build/fpga/<name>_sta.txt`) or the file `sdf`, and print the report at `period_ns`.
pub fn sta(
    name: Option<&str>,
    sdf: Option<&Path>,
    period_ns: f64,
    max_groups: usize,
) -> Result<()> {
    let t = Instant::now();
    let (sdf, out): (PathBuf, Option<PathBuf>) = match (name, sdf) {
        (Some(n), None) => {
            let dir = root().join("build").join("fpga");
            (
                dir.join(format!("{n}.sdf")),
                Some(dir.join(format!("{n}_sta.txt"))),
            )
        }
        (None, Some(p)) => (p.to_path_buf(), None),
        _ => {
            return Err(XtaskError::Failed(
                "sta: give exactly one of --name and --sdf".into(),
            ));
        }
    };
    if !(period_ns.is_finite() && period_ns > 0.0) {
        return Err(XtaskError::Failed(format!(
            "sta: --period-ns must be a positive number, not {period_ns}"
        )));
    }
    let text = std::fs::read_to_string(&sdf).map_err(io_err(&sdf))?;
    let g = parse(&text).map_err(|why| XtaskError::Parse {
        path: sdf.clone(),
        why,
    })?;
    drop(text);
    let a = analyse(&g, period_ns * 1000.0);
    let r = report(&g, &a, period_ns, max_groups);
    print!("{r}");
    println!();
    if let Some(out) = &out {
        std::fs::write(out, &r).map_err(io_err(out))?;
        println!("sta: report written to {}", rel(out));
    }
    println!(
        "sta: {}: {} pins, {} arcs, {} clock-to-q starts ({})",
        rel(&sdf),
        g.pin_count(),
        g.arcs(),
        g.starts(),
        elapsed(t)
    );
    Ok(())
}
