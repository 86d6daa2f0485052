//! `cargo xtask lint`: Verilator `-Wall` lint of every core that has a `lint` target, with the
//! files, top and parameters the target resolves to (the same target `fusesoc run --target lint`
//! runs).

use crate::util::{Result, XtaskError, cmd, show};

pub fn lint() -> Result<()> {
    let cores = crate::synth::load_cores()?;
    let (mut pass, mut fail) = (0, 0);
    for core in cores.cores().filter(|c| c.targets.contains_key("lint")) {
        let r = cores
            .resolve(&core.name, "lint")
            .map_err(|e| XtaskError::Failed(format!("lint: {e}")))?;
        let top = r.toplevel.clone().ok_or_else(|| {
            XtaskError::Failed(format!(
                "lint: `{}`: lint target without toplevel",
                core.name
            ))
        })?;
        let mut c = cmd("verilator");
        c.args(["--lint-only", "-Wall", "--top-module", &top]);
        for d in r.include_dirs() {
            c.arg(format!("+incdir+{d}"));
        }
        for (k, v) in &r.params {
            c.arg(format!("-G{k}={v}"));
        }
        for d in &r.defines {
            c.arg(format!("-D{d}"));
        }
        c.args(r.sources());
        let out = c.output().map_err(|source| XtaskError::Spawn {
            tool: "verilator".into(),
            cmd: show(&c),
            source,
        })?;
        if out.status.success() {
            pass += 1;
            println!("lint: PASS {} ({top})", core.name);
        } else {
            fail += 1;
            println!("lint: FAIL {} ({top})\n  $ {}", core.name, show(&c));
            print!("{}", String::from_utf8_lossy(&out.stderr));
        }
    }
    println!("lint: {pass} passed, {fail} failed");
    if fail > 0 {
        return Err(XtaskError::Failed(format!(
            "verilator lint: {fail} core(s) failed"
        )));
    }
    Ok(())
}
