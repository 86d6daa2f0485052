//! `cargo xtask gen [--check]`: write (or verify) the files generated from spec/layouts.json
//! (onerma-gen) and spec/onerma_regs.rdl (PeakRDL, `crate::regs`).

use crate::util::{Result, XtaskError, io_err, root};

pub fn gen_files(check: bool) -> Result<()> {
    let root = root();
    let mut outputs = onerma_gen::generate(&root)?;
    outputs.extend(crate::regs::outputs()?);
    let stale: Vec<_> = outputs
        .iter()
        .filter(|(p, content)| {
            std::fs::read_to_string(root.join(p)).map_or(true, |disk| &disk != content)
        })
        .collect();
    if check {
        if stale.is_empty() {
            println!("gen: {} generated files up to date", outputs.len());
            return Ok(());
        }
        for (p, _) in &stale {
            println!("gen: stale: {}", p.display());
        }
        return Err(XtaskError::Failed(format!(
            "gen: {} generated file(s) out of date; run `cargo xtask gen`",
            stale.len()
        )));
    }
    for (p, content) in &stale {
        let full = root.join(p);
        if let Some(dir) = full.parent() {
            std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        }
        std::fs::write(&full, content).map_err(io_err(&full))?;
        println!("gen: wrote {}", p.display());
    }
    println!(
        "gen: {} file(s) written, {} unchanged",
        stale.len(),
        outputs.len() - stale.len()
    );
    Ok(())
}
