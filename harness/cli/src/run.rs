//! `onerma run SCENARIO.json`: a system of NICs and a workload from a scenario file
//! (docs/scenarios.md), on the RTL (N Verilated `onerma_nic`, every output checked by the
//! model's observers), on a mixed system (the scenario's `rtl_nics` RTL, the others model NICs,
//! on the same rig) or on the golden model alone. Prints the outcome and the agreement with the
//! model; exits non-zero on any divergence.

use crate::error::CliError;
use onerma_layouts::{OpType, Status};
use onerma_rtl_tests::nic_rig::{Dut, RigError, fabric, memory};
use onerma_rtl_tests::nic_sys::{Mix, MultiRig};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The scenario file (JSON, docs/scenarios.md).
    scenario: PathBuf,
    /// `rtl`: N Verilated NICs, each checked by a model observer; `mixed`: the scenario's
    /// `rtl_nics` RTL and the others model NICs; `model`: the golden model.
    #[arg(long, default_value = "rtl")]
    backend: String,
    /// Print the outcome as one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Write every frame each NIC received and sent and every completion as JSON lines, in
    /// cycle order (RTL backend; written also when the run diverges).
    #[arg(long)]
    trace: Option<PathBuf>,
    /// An FST wave of one RTL NIC's top: `NIC:PATH:FROM:TO` (cycles `[FROM, TO)`). Open it
    /// in GTKWave or Surfer. (`--vcd` is the old name; the file is FST.)
    #[arg(long, alias = "vcd")]
    wave: Option<String>,
}

/// A scenario file (docs/scenarios.md). Every field but `nics` has a default.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    /// What the scenario shows (printed).
    pub description: String,
    /// NICs on the fabric (2..=8 on the RTL and mixed backends).
    pub nics: usize,
    /// The NICs that are RTL on the mixed backend (the others are model NICs); default: the
    /// even-numbered ones. Ignored by the other backends.
    pub rtl_nics: Option<Vec<usize>>,
    pub seed: u64,
    /// Cycles of workload; every op then drains (at most `drain_bound` more cycles).
    pub cycles: u64,
    pub drain_bound: u64,
    pub fabric: FabricSpec,
    pub host: HostSpec,
    pub mix: MixSpec,
}

impl Default for Scenario {
    fn default() -> Self {
        Self {
            description: String::new(),
            nics: 2,
            rtl_nics: None,
            seed: 1,
            cycles: 30_000,
            drain_bound: 400_000,
            fabric: FabricSpec::default(),
            host: HostSpec::default(),
            mix: MixSpec::default(),
        }
    }
}

/// The fabric between the NICs (per frame: latency, jitter, faults).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FabricSpec {
    pub latency: u64,
    pub jitter_mean: f64,
    pub drop: f64,
    pub duplicate: f64,
    pub reorder: f64,
}

impl Default for FabricSpec {
    fn default() -> Self {
        Self {
            latency: 40,
            jitter_mean: 0.0,
            drop: 0.0,
            duplicate: 0.0,
            reorder: 0.0,
        }
    }
}

/// Each NIC's host memory: latency in cycles and the chance per cycle that a channel is ready.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HostSpec {
    pub latency: u64,
    pub p_ready: f64,
}

impl Default for HostSpec {
    fn default() -> Self {
        Self {
            latency: 6,
            p_ready: 1.0,
        }
    }
}

/// The workload: every NIC's slots in a closed loop, ops to the other NICs' regions.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MixSpec {
    /// Chance per free slot and cycle of a new op.
    pub p_submit: f64,
    /// Shares of WRITEs and REKEYs (the rest READs).
    pub p_write: f64,
    pub p_rekey: f64,
    /// Op sizes in bytes, drawn uniformly (a REKEY is 16).
    pub sizes: Vec<u16>,
}

impl Default for MixSpec {
    fn default() -> Self {
        let m = Mix::default();
        Self {
            p_submit: m.p_submit,
            p_write: m.p_write,
            p_rekey: m.p_rekey,
            sizes: m.sizes,
        }
    }
}

/// The outcome of a run (the `--json` output).
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub backend: String,
    pub nics: usize,
    /// The RTL NICs (every NIC on the `rtl` backend, none on `model`).
    pub rtl_nics: Vec<usize>,
    pub cycles: u64,
    /// Completed ops by `"OP STATUS"`.
    pub ops: std::collections::BTreeMap<String, u64>,
    /// Payload bytes of READs and WRITEs that completed OK.
    pub ok_bytes: u64,
    /// Submission-to-record latency of OK ops (cycles): p50, p90, p99, max.
    pub latency: [u64; 4],
    /// Frames, host writes, host reads and records the observers checked (RTL backend).
    pub checked: [u64; 4],
    pub divergences: u64,
    pub wall_seconds: f64,
}

fn load(a: &Args) -> Result<Scenario, CliError> {
    load_path(&a.scenario)
}

/// Reads and range-checks a scenario file.
pub fn load_path(path: &std::path::Path) -> Result<Scenario, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
    let sc: Scenario = serde_json::from_str(&text)
        .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
    let p = |x: f64| (0.0..=1.0).contains(&x);
    let ok = sc.cycles > 0
        && sc.cycles <= 10_000_000
        && !sc.mix.sizes.is_empty()
        && sc.mix.sizes.iter().all(|&s| (1..=4096).contains(&s))
        && [
            sc.fabric.drop,
            sc.fabric.duplicate,
            sc.fabric.reorder,
            sc.host.p_ready,
            sc.mix.p_submit,
            sc.mix.p_write,
            sc.mix.p_rekey,
        ]
        .into_iter()
        .all(p)
        && sc.host.p_ready > 0.0
        && sc.mix.p_write + sc.mix.p_rekey <= 1.0
        && sc.fabric.jitter_mean >= 0.0
        && sc.rtl_nics.as_ref().is_none_or(|v| {
            !v.is_empty() && v.iter().all(|&i| i < sc.nics) && (1..v.len()).all(|k| v[k - 1] < v[k])
        });
    if !ok {
        return Err(CliError::Usage(format!(
            "{}: a field is out of range (docs/scenarios.md)",
            path.display()
        )));
    }
    Ok(sc)
}

pub fn run(a: &Args) -> Result<(), CliError> {
    let sc = load(a)?;
    let out = match a.backend.as_str() {
        "rtl" => run_rtl(&sc, a, false)?,
        "mixed" => run_rtl(&sc, a, true)?,
        "model" => run_model(&sc)?,
        b => {
            return Err(CliError::Usage(format!(
                "--backend must be rtl, mixed or model, got {b}"
            )));
        }
    };
    if a.json {
        let s =
            serde_json::to_string(&out).map_err(|e| CliError::CheckFailed(format!("json: {e}")))?;
        println!("{s}");
    } else {
        if !sc.description.is_empty() {
            println!("{}", sc.description);
        }
        print_outcome(&out);
    }
    if out.divergences > 0 {
        return Err(CliError::CheckFailed(format!(
            "{} divergence(s) from the model",
            out.divergences
        )));
    }
    Ok(())
}

/// The RTL backend's system, ready to load (setup done).
pub fn rtl_system(sc: &Scenario) -> Result<MultiRig, RigError> {
    let all: Vec<usize> = (0..sc.nics).collect();
    system(sc, &all, |_| {})
}

/// The mixed backend's RTL NICs: the scenario's `rtl_nics`, or the even-numbered NICs.
pub fn mixed_rtl_nics(sc: &Scenario) -> Vec<usize> {
    sc.rtl_nics
        .clone()
        .unwrap_or_else(|| (0..sc.nics).step_by(2).collect())
}

/// The system of `sc` with the NICs `rtl` RTL (the others model NICs), `configure`d (e.g.
/// waves from cycle 0), then set up, ready to load.
pub fn system(
    sc: &Scenario,
    rtl: &[usize],
    configure: impl FnOnce(&mut MultiRig),
) -> Result<MultiRig, RigError> {
    let mut f = fabric(sc.seed, false, false);
    f.latency = sc.fabric.latency;
    f.jitter_mean = sc.fabric.jitter_mean;
    f.drop = sc.fabric.drop;
    f.duplicate = sc.fabric.duplicate;
    f.reorder = sc.fabric.reorder;
    let mut r = MultiRig::<Dut>::mixed(
        sc.nics,
        rtl,
        sc.seed,
        f,
        memory(sc.seed, sc.host.latency, sc.host.p_ready),
        1.0,
    )?;
    r.mix = Mix {
        p_submit: sc.mix.p_submit,
        p_write: sc.mix.p_write,
        p_rekey: sc.mix.p_rekey,
        sizes: sc.mix.sizes.clone(),
    };
    r.set_threads(onerma_rtl_tests::par::default_threads(rtl.len()));
    configure(&mut r);
    r.setup()?;
    Ok(r)
}

fn run_rtl(sc: &Scenario, a: &Args, mixed: bool) -> Result<Outcome, CliError> {
    if !(2..=8).contains(&sc.nics) {
        return Err(CliError::Usage(format!(
            "the RTL and mixed backends run 2..=8 NICs, the scenario has {}",
            sc.nics
        )));
    }
    let rtl: Vec<usize> = if mixed {
        mixed_rtl_nics(sc)
    } else {
        (0..sc.nics).collect()
    };
    let wave = a.wave.as_deref().map(parse_wave).transpose()?;
    if let Some((i, ..)) = &wave
        && !rtl.contains(i)
    {
        return Err(CliError::Usage(format!(
            "--wave: NIC {i} is not an RTL NIC"
        )));
    }
    let t = std::time::Instant::now();
    let mut r = system(sc, &rtl, |r| {
        for n in &mut r.nodes {
            n.log_frames = a.trace.is_some();
            if let Some((i, path, from, to)) = &wave
                && n.idx == *i
            {
                n.vcd = Some((path.clone(), *from, *to));
            }
        }
    })
    .map_err(|e| CliError::CheckFailed(format!("setup: {e}")))?;
    // A divergence ends the run: it is reported with its cycle, NIC and field.
    let res = r.load(sc.cycles).and_then(|()| r.drain(sc.drain_bound));
    if let Some(p) = &a.trace {
        write_trace(&r, p)?;
    }
    for n in &mut r.nodes {
        if n.vcd.is_some() {
            n.m.trace_stop();
        }
    }
    let mut o = rtl_outcome(&r, t.elapsed().as_secs_f64());
    if mixed {
        o.backend = "mixed".into();
        o.rtl_nics = rtl;
    }
    if let Err(e) = res {
        eprintln!("divergence: {e}");
        o.divergences = 1;
    }
    Ok(o)
}

/// `NIC:PATH:FROM:TO`.
fn parse_wave(v: &str) -> Result<(usize, PathBuf, u64, u64), CliError> {
    let bad = || CliError::Usage(format!("--wave must be NIC:PATH:FROM:TO, got {v}"));
    let (nic, rest) = v.split_once(':').ok_or_else(bad)?;
    let mut it = rest.rsplitn(3, ':');
    let (to, from, path) = (
        it.next().ok_or_else(bad)?,
        it.next().ok_or_else(bad)?,
        it.next().ok_or_else(bad)?,
    );
    let (nic, from, to) = (
        nic.parse().map_err(|_| bad())?,
        from.parse().map_err(|_| bad())?,
        to.parse::<u64>().map_err(|_| bad())?,
    );
    if from >= to {
        return Err(bad());
    }
    Ok((nic, path.into(), from, to))
}

/// Frames in and out of every NIC (their headers) and every completion, one JSON object per
/// line, in cycle order.
pub fn write_trace(r: &MultiRig, path: &std::path::Path) -> Result<(), CliError> {
    use std::io::Write;
    let mut lines: Vec<(u64, serde_json::Value)> = Vec::new();
    for n in &r.nodes {
        let i = n.idx;
        for (c, sent, h) in &n.frame_log {
            lines.push((
                *c,
                serde_json::json!({
                    "cycle": c,
                    "nic": i,
                    "kind": if *sent { "frame_out" } else { "frame_in" },
                    "msg": onerma_model::hdr_text(h),
                    "src_nic": h.src_nic,
                    "dst_nic": h.dst_nic,
                    "counter": h.counter,
                    "status": format!("{:?}", h.status),
                }),
            ));
        }
    }
    for (o, st) in &r.done {
        lines.push((
            o.t_done,
            serde_json::json!({
                "cycle": o.t_done,
                "nic": o.initiator,
                "kind": "completion",
                "op": format!("{:?}", o.op),
                "status": format!("{st:?}"),
                "slot": o.slot,
                "target": o.target,
                "region": o.region,
                "offset": o.offset,
                "len": o.len,
                "submitted": o.t_sub,
            }),
        ));
    }
    lines.sort_by_key(|(c, _)| *c);
    let f = std::fs::File::create(path)
        .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
    let mut w = std::io::BufWriter::new(f);
    for (_, v) in &lines {
        writeln!(w, "{v}").map_err(|e| CliError::CheckFailed(format!("trace: {e}")))?;
    }
    w.flush()
        .map_err(|e| CliError::CheckFailed(format!("trace: {e}")))?;
    Ok(())
}

/// The outcome of a finished RTL system run.
pub fn rtl_outcome(r: &MultiRig, wall_seconds: f64) -> Outcome {
    let mut lat: Vec<u64> = r
        .done
        .iter()
        .filter(|(_, s)| *s == Status::Ok)
        .map(|(o, _)| o.t_done - o.t_sub)
        .collect();
    lat.sort_unstable();
    let pct = |p: f64| {
        lat.get(((lat.len().max(1) - 1) as f64 * p).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    let mut checked = [0u64; 4];
    for n in &r.nodes {
        let os = n.obs.stats();
        checked[0] += os.frames;
        checked[1] += os.host_writes;
        checked[2] += os.host_reads;
        checked[3] += os.records;
    }
    Outcome {
        backend: "rtl".into(),
        nics: r.nics(),
        rtl_nics: r.nodes.iter().map(|n| n.idx).collect(),
        cycles: r.cycle(),
        ops: r
            .by_status()
            .into_iter()
            .map(|((o, s), k)| (format!("{o} {s}"), k))
            .collect(),
        ok_bytes: r.stats.ok_bytes,
        latency: [pct(0.5), pct(0.9), pct(0.99), pct(1.0)],
        checked,
        divergences: 0,
        wall_seconds,
    }
}

fn run_model(sc: &Scenario) -> Result<Outcome, CliError> {
    use onerma_model::workload::{ClientSpec, RateSpec, Runner, Scenario as ModelScenario};
    let t = std::time::Instant::now();
    // Weights in thousandths; the closed loop's think time is the mean wait of a free slot.
    let w = |p: f64| (p * 1000.0).round() as u32;
    let mut m = ModelScenario {
        seed: sc.seed,
        nics: sc.nics,
        duration: sc.cycles,
        clients: vec![ClientSpec {
            slots: 8,
            read: w(1.0 - sc.mix.p_write - sc.mix.p_rekey),
            write: w(sc.mix.p_write),
            rekey: w(sc.mix.p_rekey),
            sizes: sc.mix.sizes.clone(),
            rate: RateSpec::ClosedLoop {
                think: (1.0 / sc.mix.p_submit.max(1e-9)).min(1e9) as u64,
            },
            ..ClientSpec::default()
        }],
        ..ModelScenario::default()
    };
    m.fabric.seed = sc.seed;
    m.fabric.latency = sc.fabric.latency;
    m.fabric.jitter_mean = sc.fabric.jitter_mean;
    m.fabric.drop = sc.fabric.drop;
    m.fabric.duplicate = sc.fabric.duplicate;
    m.fabric.reorder = sc.fabric.reorder;
    let mut r = Runner::new(&m).map_err(|e| CliError::CheckFailed(format!("model: {e}")))?;
    let st = r.run().clone();
    let errors = r.system.errors.len() as u64;
    for (c, nic, e) in &r.system.errors {
        eprintln!("model error: NIC {nic} at cycle {c}: {e}");
    }
    Ok(Outcome {
        backend: "model".into(),
        nics: sc.nics,
        rtl_nics: Vec::new(),
        cycles: st.sim_cycles,
        ops: st.by_status.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        ok_bytes: st.bytes_read_ok + st.bytes_written_ok,
        latency: [0, 0, 0, st.max_total_delay],
        checked: [0; 4],
        divergences: errors + st.divergences.len() as u64,
        wall_seconds: t.elapsed().as_secs_f64(),
    })
}

/// The outcome as a table (the demo prints the same).
pub fn print_outcome(o: &Outcome) {
    println!(
        "{} backend: {} NICs, {} cycles, {:.1} s",
        o.backend, o.nics, o.cycles, o.wall_seconds
    );
    println!("{:<36} {:>8}", "op and status", "count");
    for (k, n) in &o.ops {
        println!("{k:<36} {n:>8}");
    }
    println!(
        "goodput: {} bytes of OK READs and WRITEs in {} cycles ({:.3} B/cycle)",
        o.ok_bytes,
        o.cycles,
        o.ok_bytes as f64 / o.cycles.max(1) as f64
    );
    if o.backend != "model" {
        // The small top's clock: 250 MHz (`clk_period_ps` 4000).
        let us = |c: u64| c as f64 * 4e-3;
        let [p50, p90, p99, max] = o.latency;
        println!(
            "latency of OK ops, submission to record (cycles / us at 250 MHz): p50 {p50} / \
             {:.2}, p90 {p90} / {:.2}, p99 {p99} / {:.2}, max {max} / {:.2}",
            us(p50),
            us(p90),
            us(p99),
            us(max)
        );
        let [f, w, rd, rc] = o.checked;
        println!(
            "checked by {} model observers (RTL NICs {:?}): {f} frames, {w} host writes, {rd} \
             host reads, {rc} completion records",
            o.rtl_nics.len(),
            o.rtl_nics
        );
    } else {
        println!("total_delay max {} cycles", o.latency[3]);
    }
    println!("divergences: {}", o.divergences);
    let ok = |op: OpType| {
        o.ops
            .iter()
            .any(|(k, n)| *n > 0 && k.starts_with(&format!("{op:?}")) && k.ends_with("Ok"))
    };
    if o.backend != "model" && !(ok(OpType::Read) || ok(OpType::Write)) {
        println!("(no READ or WRITE completed OK)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shipped scenario parses and passes the range checks.
    #[test]
    fn shipped_scenarios_load() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).expect("scenarios/") {
            let path = e.expect("entry").path();
            if path.extension().is_some_and(|x| x == "json") {
                let a = Args {
                    scenario: path.clone(),
                    backend: "rtl".into(),
                    json: false,
                    trace: None,
                    wave: None,
                };
                let sc = load(&a).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert!((2..=8).contains(&sc.nics), "{}", path.display());
                n += 1;
            }
        }
        assert!(n >= 3, "{n} scenarios");
    }

    /// `scenarios/mixed-3nic.json` on the mixed backend, shortened to 6,000 cycles of workload:
    /// NICs 0 and 2 RTL, NIC 1 a model NIC; no divergence, and ops completed OK both from the
    /// model NIC to the RTL ones and from the RTL NICs to the model one.
    #[test]
    fn mixed_scenario_runs() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios/mixed-3nic.json");
        let a = Args {
            scenario: path,
            backend: "mixed".into(),
            json: false,
            trace: None,
            wave: None,
        };
        let mut sc = load(&a).expect("mixed-3nic.json");
        sc.cycles = 6_000;
        sc.mix.p_submit = 0.004;
        let rtl = mixed_rtl_nics(&sc);
        assert_eq!(rtl, vec![0, 2]);
        let mut r = system(&sc, &rtl, |_| {}).expect("setup");
        assert!(!r.is_rtl(1) && r.is_rtl(0) && r.is_rtl(2));
        r.load(sc.cycles)
            .and_then(|()| r.drain(sc.drain_bound))
            .unwrap_or_else(|e| panic!("divergence: {e}"));
        let ok = |from_model: bool| {
            r.done
                .iter()
                .filter(|(o, s)| *s == Status::Ok && (o.initiator == 1) == from_model)
                .count()
        };
        println!("{:?}", r.by_status());
        assert!(ok(true) > 0, "no op of the model NIC completed OK");
        assert!(
            r.done
                .iter()
                .any(|(o, s)| *s == Status::Ok && o.initiator != 1 && o.target == 1),
            "no op of an RTL NIC to the model NIC completed OK"
        );
        assert!(ok(false) > 0);
        let o = rtl_outcome(&r, 0.0);
        assert_eq!(o.nics, 3);
        assert_eq!(o.rtl_nics, vec![0, 2]);
    }

    /// A field out of range or unknown is refused, not run.
    #[test]
    fn bad_scenarios_are_refused() {
        let dir = std::env::temp_dir().join(format!("onerma-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp");
        for (i, text) in [
            r#"{"nics": 2, "bogus": 1}"#,
            r#"{"nics": 2, "mix": {"p_write": 0.9, "p_rekey": 0.2}}"#,
            r#"{"nics": 2, "mix": {"sizes": [0]}}"#,
            r#"{"nics": 2, "cycles": 0}"#,
            r#"{"nics": 2, "fabric": {"drop": 1.5}}"#,
            r#"{"nics": 3, "rtl_nics": [3]}"#,
            r#"{"nics": 3, "rtl_nics": []}"#,
            r#"{"nics": 3, "rtl_nics": [1, 0]}"#,
        ]
        .into_iter()
        .enumerate()
        {
            let path = dir.join(format!("{i}.json"));
            std::fs::write(&path, text).expect("write");
            let a = Args {
                scenario: path,
                backend: "rtl".into(),
                json: false,
                trace: None,
                wave: None,
            };
            assert!(load(&a).is_err(), "accepted: {text}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
