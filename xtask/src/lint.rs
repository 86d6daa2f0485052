//! `cargo xtask lint`: Verilator `-Wall` lint of every module file under rtl/, one top each.

use crate::util::{Result, XtaskError, cmd, files_with_ext, rel, root, show};

pub fn lint() -> Result<()> {
    let rtl = root().join("rtl");
    let files = files_with_ext(&rtl, "sv")?;
    // Packages (`*_pkg.sv`) are not tops; they go first on every command line, the generated
    // onerma_pkg before the others.
    let is_pkg = |f: &std::path::PathBuf| {
        f.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with("_pkg.sv"))
    };
    let mut pkgs: Vec<_> = files.iter().filter(|f| is_pkg(f)).cloned().collect();
    pkgs.sort_by_key(|f| f.file_name().and_then(|n| n.to_str()) != Some("onerma_pkg.sv"));
    let mut dirs: Vec<String> = files.iter().filter_map(|f| f.parent().map(rel)).collect();
    dirs.sort();
    dirs.dedup();
    let (mut pass, mut fail) = (0, 0);
    for f in files.iter().filter(|f| !is_pkg(f)) {
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let mut c = cmd("verilator");
        c.args(["--lint-only", "-Wall", "--top-module", stem]);
        // Submodules resolve by file name from these dirs; the package must come first.
        for d in &dirs {
            c.arg("-y").arg(d).arg(format!("+incdir+{d}"));
        }
        for p in &pkgs {
            c.arg(rel(p));
        }
        c.arg(rel(f));
        let out = c.output().map_err(|source| XtaskError::Spawn {
            tool: "verilator".into(),
            cmd: show(&c),
            source,
        })?;
        if out.status.success() {
            pass += 1;
            println!("lint: PASS {}", rel(f));
        } else {
            fail += 1;
            println!("lint: FAIL {}\n  $ {}", rel(f), show(&c));
            print!("{}", String::from_utf8_lossy(&out.stderr));
        }
    }
    println!("lint: {pass} passed, {fail} failed");
    if fail > 0 {
        return Err(XtaskError::Failed(format!(
            "verilator lint: {fail} file(s) failed"
        )));
    }
    Ok(())
}
