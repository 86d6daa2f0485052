//! `onerma replay FILE`: re-runs a saved op stream (`cocotb-free-tests/regressions/*.json`,
//! docs/verification.md) or a scenario file (docs/scenarios.md) with FST waves of every RTL NIC
//! (or of the `--nic`s named), and prints the first divergence and the wave files to open in
//! GTKWave or Surfer. Exits 1 on a divergence, as `onerma run`.

use crate::error::CliError;
use crate::run::{self, Scenario};
use onerma_rtl_tests::nic_rig::RigError;
use onerma_rtl_tests::nic_streams::{self, SavedStream};
use onerma_rtl_tests::nic_sys::MultiRig;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// A saved stream (JSON with `system` and `steps`) or a scenario file.
    file: PathBuf,
    /// Waves of this RTL NIC only (repeatable); default: every RTL NIC.
    #[arg(long)]
    nic: Vec<usize>,
    /// Directory the wave files are written to (`<file stem>-nic<N>.fst`).
    #[arg(long, default_value = ".")]
    waves: PathBuf,
    /// First cycle of the waves (default 0: the whole run, from reset and setup).
    #[arg(long, default_value_t = 0)]
    from: u64,
    /// Cycle the waves end at (default: the end of the run).
    #[arg(long)]
    to: Option<u64>,
    /// No waves (e.g. only the divergence and `--trace`).
    #[arg(long)]
    no_waves: bool,
    /// Write every frame and completion as JSON lines (as `onerma run --trace`).
    #[arg(long)]
    trace: Option<PathBuf>,
    /// A scenario's backend: `rtl` or `mixed` (a saved stream is all RTL).
    #[arg(long, default_value = "rtl")]
    backend: String,
}

/// What the file holds.
enum Input {
    Stream(SavedStream),
    Scenario(Box<Scenario>),
}

fn read_input(path: &Path) -> Result<Input, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
    if v.get("steps").is_some() {
        let s = SavedStream::load(path).map_err(|e| CliError::Usage(e.to_string()))?;
        Ok(Input::Stream(s))
    } else {
        Ok(Input::Scenario(Box::new(run::load_path(path)?)))
    }
}

pub fn run(a: &Args) -> Result<(), CliError> {
    let input = read_input(&a.file)?;
    let stem = a
        .file
        .file_stem()
        .map_or_else(|| "replay".into(), |s| s.to_string_lossy().into_owned());
    if a.to.is_some_and(|t| t <= a.from) {
        return Err(CliError::Usage("--to must be after --from".into()));
    }
    let mut waves: Vec<PathBuf> = Vec::new();
    let wanted = |i: usize| a.nic.is_empty() || a.nic.contains(&i);
    let configure = |r: &mut MultiRig| {
        for n in &mut r.nodes {
            n.log_frames = a.trace.is_some();
            if !a.no_waves && wanted(n.idx) {
                let p = a.waves.join(format!("{stem}-nic{}.fst", n.idx));
                n.vcd = Some((p.clone(), a.from, a.to.unwrap_or(u64::MAX)));
                waves.push(p);
            }
        }
    };
    if !a.no_waves {
        std::fs::create_dir_all(&a.waves)
            .map_err(|e| CliError::Usage(format!("{}: {e}", a.waves.display())))?;
    }
    let t = std::time::Instant::now();
    let (rig, res): (Option<MultiRig>, Result<(), RigError>) = match &input {
        Input::Stream(s) => {
            println!(
                "saved stream: {} steps on {} RTL NICs (seed {}, {} fabric){}",
                s.steps.len(),
                s.system.nics,
                s.system.seed,
                if s.system.faults { "faulty" } else { "clean" },
                if s.note.is_empty() {
                    String::new()
                } else {
                    format!("\n  note: {}", s.note)
                }
            );
            nic_streams::replay(s, configure)
        }
        Input::Scenario(sc) => {
            let rtl: Vec<usize> = match a.backend.as_str() {
                "rtl" => (0..sc.nics).collect(),
                "mixed" => run::mixed_rtl_nics(sc),
                b => {
                    return Err(CliError::Usage(format!(
                        "--backend must be rtl or mixed, got {b}"
                    )));
                }
            };
            if !(2..=8).contains(&sc.nics) {
                return Err(CliError::Usage(format!(
                    "replay runs 2..=8 NICs, the scenario has {}",
                    sc.nics
                )));
            }
            println!(
                "scenario: {} NICs, RTL NICs {rtl:?}, seed {}, {} cycles",
                sc.nics, sc.seed, sc.cycles
            );
            match run::system(sc, &rtl, configure) {
                Ok(mut r) => {
                    let res = r.load(sc.cycles).and_then(|()| r.drain(sc.drain_bound));
                    (Some(r), res)
                }
                Err(e) => (None, Err(e)),
            }
        }
    };
    if let Some(mut r) = rig {
        for n in &mut r.nodes {
            n.m.trace_stop();
        }
        if let Some(p) = &a.trace {
            run::write_trace(&r, p)?;
            println!("trace: {}", p.display());
        }
        println!(
            "ran {} cycles on {} NICs in {:.1} s; {} ops completed",
            r.cycle(),
            r.nics(),
            t.elapsed().as_secs_f64(),
            r.done.len()
        );
    }
    if !waves.is_empty() {
        println!(
            "waves (open in GTKWave or Surfer, e.g. `surfer {}`):",
            waves[0].display()
        );
        for w in &waves {
            println!("  {}", w.display());
        }
    }
    match res {
        Ok(()) => {
            println!("no divergence");
            Ok(())
        }
        Err(e) => {
            println!("first divergence: {e}");
            Err(CliError::CheckFailed(
                "the replay diverged from the model".into(),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first shipped saved stream replays clean with a wave of NIC 0 for its first 3,000
    /// cycles: the run passes and the wave is an FST file whose header's end time is the
    /// window's end (10 time units per cycle).
    #[test]
    fn saved_stream_replays_with_a_wave() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cocotb-free-tests/regressions");
        let files = nic_streams::stream_files(&dir).expect("regressions/");
        let Some(file) = files.first() else {
            panic!("no saved stream in {}", dir.display());
        };
        let waves = std::env::temp_dir().join(format!("onerma-replay-{}", std::process::id()));
        let a = Args {
            file: file.clone(),
            nic: vec![0],
            waves: waves.clone(),
            from: 0,
            to: Some(3_000),
            no_waves: false,
            trace: None,
            backend: "rtl".into(),
        };
        run(&a).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let stem = file
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        let fst = std::fs::read(waves.join(format!("{stem}-nic0.fst"))).expect("the wave");
        let _ = std::fs::remove_dir_all(&waves);
        let end = fst
            .get(17..25)
            .and_then(|b| b.try_into().ok())
            .map(u64::from_be_bytes);
        assert_eq!(fst.first(), Some(&0), "FST header block");
        assert!(
            end.is_some_and(|t| (29_000..=31_000).contains(&t)),
            "FST end time {end:?}"
        );
    }
}
