//! Op streams on many RTL NICs (issue 17), shared by the property suite
//! (`tests/nic_system_streams.rs`, which draws and shrinks them), the regression replay
//! (`tests/nic_system_replay.rs`) and `onerma replay`: a [`StreamSystem`] (NICs, seed, faults)
//! and a sequence of [`Step`]s run against a [`MultiRig`], and the file a shrunk failing stream
//! is saved in ([`SavedStream`], JSON, under `cocotb-free-tests/regressions/`; the format is
//! documented in docs/verification.md).
//!
//! An op whose slot is busy or that the workload's rules refuse at that moment (a REKEY to a
//! region in use, anything to a region being rekeyed; docs/verification.md) is skipped, so every
//! shrunk stream is still a legal one.

use std::path::{Path, PathBuf};

use onerma_layouts::OpType;
use serde::{Deserialize, Serialize};

use crate::nic_rig::{Dut, RigError, fabric, fail, memory};
use crate::nic_sys::{Mix, MultiRig};

/// Op sizes a [`Step::Op`] picks from (`size` indexes this).
pub const SIZES: [u16; 7] = [1, 16, 64, 700, 1024, 2500, 4096];

/// The system a stream runs on (drawn once per case).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StreamSystem {
    /// RTL NICs (2 to 4 in the suite, at most 8).
    pub nics: usize,
    pub seed: u64,
    /// A faulty fabric (jitter, drops, reordering, duplicates) and host back-pressure.
    pub faults: bool,
}

/// An op's kind in a stream file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StreamOp {
    Read,
    Write,
    Rekey,
}

impl StreamOp {
    pub fn op_type(self) -> OpType {
        match self {
            Self::Read => OpType::Read,
            Self::Write => OpType::Write,
            Self::Rekey => OpType::Rekey,
        }
    }
}

/// One transition of a stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Step {
    /// NIC `from`'s slot `slot` submits `op` of `SIZES[size]` bytes to NIC `(from + 1 + to) %
    /// nics`, at `pos` of the legal offset range (`write_only`: a WRITE to the write-only region).
    Op {
        from: usize,
        slot: u16,
        to: usize,
        op: StreamOp,
        size: usize,
        pos: f64,
        write_only: bool,
    },
    /// The system runs this many cycles.
    Run(u64),
    /// NIC `nic`'s driver re-registers its readable region under a fresh key once it is quiet.
    Reregister(usize),
}

/// A stream saved to a file: the system, the steps, and a note (why it was saved).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedStream {
    /// Free text: the failure that saved it, or why it is kept.
    #[serde(default)]
    pub note: String,
    pub system: StreamSystem,
    pub steps: Vec<Step>,
}

impl SavedStream {
    /// Reads and checks a stream file.
    pub fn load(path: &Path) -> Result<Self, RigError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| fail(format!("{}: {e}", path.display())))?;
        let s: Self =
            serde_json::from_str(&text).map_err(|e| fail(format!("{}: {e}", path.display())))?;
        s.check()
            .map_err(|e| fail(format!("{}: {e}", path.display())))?;
        Ok(s)
    }

    /// The ranges [`run_step`] relies on.
    pub fn check(&self) -> Result<(), RigError> {
        let n = self.system.nics;
        if !(2..=8).contains(&n) {
            return Err(fail(format!("nics must be 2..=8, got {n}")));
        }
        for (i, s) in self.steps.iter().enumerate() {
            let ok = match *s {
                Step::Op {
                    from,
                    to,
                    size,
                    pos,
                    ..
                } => from < n && to < n - 1 && size < SIZES.len() && (0.0..=1.0).contains(&pos),
                Step::Run(c) => c <= 10_000_000,
                Step::Reregister(t) => t < n,
            };
            if !ok {
                return Err(fail(format!("step {i} out of range: {s:?}")));
            }
        }
        Ok(())
    }

    /// Writes the stream as pretty JSON to `dir/<name>-<hash>.json` (the hash of the content, so
    /// the same stream saved twice is one file). Returns the path.
    pub fn save(&self, dir: &Path, name: &str) -> Result<PathBuf, RigError> {
        let text = serde_json::to_string_pretty(self).map_err(|e| fail(format!("json: {e}")))?;
        let body = serde_json::to_string(&(&self.system, &self.steps))
            .map_err(|e| fail(format!("json: {e}")))?;
        // FNV-1a of the system and steps (not the note).
        let h = body.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        std::fs::create_dir_all(dir).map_err(|e| fail(format!("{}: {e}", dir.display())))?;
        let path = dir.join(format!("{name}-{h:016x}.json"));
        std::fs::write(&path, text + "\n").map_err(|e| fail(format!("{}: {e}", path.display())))?;
        Ok(path)
    }
}

/// The stream files (`*.json`) in `dir`, sorted; none if `dir` does not exist.
pub fn stream_files(dir: &Path) -> Result<Vec<PathBuf>, RigError> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut v = Vec::new();
    for e in rd {
        let p = e
            .map_err(|e| fail(format!("{}: {e}", dir.display())))?
            .path();
        if p.extension().is_some_and(|x| x == "json") {
            v.push(p);
        }
    }
    v.sort();
    Ok(v)
}

/// A fresh system for stream `s`, before its setup: `configure` runs first (e.g. wave tracing
/// from cycle 0), then every NIC is programmed, and the rig makes no submissions of its own.
pub fn stream_rig(
    s: &StreamSystem,
    configure: impl FnOnce(&mut MultiRig),
) -> Result<MultiRig, RigError> {
    let mut r = unprogrammed(s)?;
    configure(&mut r);
    r.setup()?;
    Ok(r)
}

/// [`stream_rig`] before `configure` and the setup.
fn unprogrammed(s: &StreamSystem) -> Result<MultiRig, RigError> {
    let mut r = MultiRig::<Dut>::new(
        s.nics,
        s.seed,
        fabric(s.seed, s.faults, false),
        memory(s.seed, 6, if s.faults { 0.8 } else { 1.0 }),
        0.95,
    )?;
    // Only the stream's ops: no random submissions.
    r.mix = Mix {
        p_submit: 0.0,
        ..Mix::default()
    };
    Ok(r)
}

/// One step of a stream.
pub fn run_step(r: &mut MultiRig, s: &StreamSystem, step: &Step) -> Result<(), RigError> {
    match *step {
        Step::Op {
            from,
            slot,
            to,
            op,
            size,
            pos,
            write_only,
        } => {
            let t = (from + 1 + to) % s.nics;
            let len = *SIZES
                .get(size)
                .ok_or_else(|| fail(format!("size index {size}")))?;
            r.try_submit(from, slot, t, op.op_type(), len, pos, write_only);
            Ok(())
        }
        Step::Run(c) => r.load(c),
        Step::Reregister(t) => {
            r.reregister(t);
            Ok(())
        }
    }
}

/// Cycles the drain at a stream's end may take.
pub const DRAIN_BOUND: u64 = 400_000;

/// A whole stream: setup (after `configure`), every step, then every op drained and every
/// observer finished. The first divergence ends it (the error names the cycle, NIC and field);
/// the rig is returned either way, for its logs and waves.
pub fn replay(
    saved: &SavedStream,
    configure: impl FnOnce(&mut MultiRig),
) -> (Option<MultiRig>, Result<(), RigError>) {
    let mut r = match unprogrammed(&saved.system) {
        Ok(r) => r,
        Err(e) => return (None, Err(fail(format!("system: {e}")))),
    };
    configure(&mut r);
    let mut res = r.setup().map_err(|e| fail(format!("setup: {e}")));
    for (i, st) in saved.steps.iter().enumerate() {
        if res.is_err() {
            break;
        }
        if let Err(e) = run_step(&mut r, &saved.system, st) {
            res = Err(fail(format!("step {i} ({st:?}): {e}")));
        }
    }
    if res.is_ok() {
        res = r
            .drain(DRAIN_BOUND)
            .map_err(|e| fail(format!("drain: {e}")));
    }
    (Some(r), res)
}
