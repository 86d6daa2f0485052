//! Many Verilated `onerma_nic` tops on one model fabric (issue 17): every NIC of a model
//! `System` is external and is an RTL [`Node`]; each initiates READ, WRITE and REKEY to the
//! others' served regions and serves theirs. Every node's own `Observer` checks every frame it
//! sends, every host access and every completion record; the rig checks end to end what no
//! single observer sees: a READ that completed OK landed exactly the target's bytes, a WRITE
//! that completed OK left its source bytes in the target's host memory, and a REKEY that
//! completed OK put its key in force (later ops under it authenticate).
//!
//! Two choices of a served WRITE / REKEY are invisible to an observer (docs/verification.md),
//! and the workload stays clear of them as the one-NIC suites do: a REKEY goes only to a quiet
//! region and nothing else goes to that region until it completes; READs take the lower half of
//! the readable region and WRITEs its upper half or the write-only region. A REKEY that did not
//! complete OK leaves its region's key unknown to the initiators, so the target's driver
//! re-registers the region under a fresh key (an RRT write while the region is quiet).

use std::collections::BTreeMap;

use onerma_layouts::{OpType, Status};
use onerma_model::crypto::Key;
use onerma_model::{FabricConfig, NicConfig, System};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::axi::MemConfig;
use crate::nic_node::Node;
use crate::nic_rig::{
    Dut, NicPorts, RTL_REGION, RTL_SERVED_SIZE, RigError, fail, memory, rtl_config_for,
    server_config_for,
};

/// Fabric address of RTL NIC `i` of a [`MultiRig`].
pub fn nic_addr(i: usize) -> u32 {
    0x0a00_0100 + i as u32
}

/// An op one RTL NIC issued to another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SysOp {
    pub op: OpType,
    pub initiator: usize,
    pub slot: u16,
    pub target: usize,
    pub region: u16,
    pub offset: u64,
    pub len: u16,
    /// Cycle of submission and of the completion record.
    pub t_sub: u64,
    pub t_done: u64,
}

/// The workload's mix: per free slot and cycle the chance of a new op, and of those the share
/// of WRITEs and of REKEYs (the rest READs), with sizes drawn from `sizes`.
#[derive(Debug, Clone)]
pub struct Mix {
    pub p_submit: f64,
    pub p_write: f64,
    pub p_rekey: f64,
    pub sizes: Vec<u16>,
}

impl Default for Mix {
    fn default() -> Self {
        Self {
            p_submit: 0.001,
            p_write: 0.4,
            p_rekey: 0.02,
            sizes: vec![1, 64, 700, 1024, 2500, 4096],
        }
    }
}

#[derive(Debug, Default, Clone)]
pub struct SysStats {
    /// WRITEs whose bytes the rig did not compare: an overlapping WRITE to the same bytes was
    /// in flight (the target's observer checked each host write).
    pub raced_writes: u64,
    /// Regions re-registered under a fresh key after a REKEY that did not complete OK.
    pub reregistered: u64,
    /// READ / WRITE bytes of ops that completed OK.
    pub ok_bytes: u64,
}

struct InFlight {
    op: SysOp,
    /// WRITE data or the new key.
    src: Vec<u8>,
}

/// N RTL NICs on one fabric (see the module documentation).
pub struct MultiRig<D: NicPorts = Dut> {
    pub nodes: Vec<Node<D>>,
    pub sys: System,
    rng: StdRng,
    pub mix: Mix,
    /// Per node and slot: the op in flight.
    flight: Vec<Vec<Option<InFlight>>>,
    /// Completed ops with their status, in completion order.
    pub done: Vec<(SysOp, Status)>,
    /// Ops the initiator's NIC refused at its command port (a stopped NIC, §1.1).
    pub refused: Vec<SysOp>,
    /// Per target: a REKEY (or a re-registration) is wanted on its readable region, so nothing
    /// new goes there until it is issued and done.
    rekey_want: Vec<bool>,
    /// Per target: its readable region's key is unknown (a REKEY failed); re-registered when quiet.
    rereg_want: Vec<bool>,
    /// Completed WRITEs (target, region, offset, len, t_sub, t_done) for the overlap check.
    writes: Vec<(usize, u16, u64, u16, u64, u64)>,
    pub stats: SysStats,
}

impl<D: NicPorts> MultiRig<D> {
    /// `n` fresh tops `D` on `fabric`, each with host memory `mem_cfg` (seeded per node) and its
    /// transmit port ready with chance `p_tx_ready`; configurations [`rtl_config_for`] `D::TOP`
    /// with addresses [`nic_addr`].
    pub fn new(
        n: usize,
        seed: u64,
        fabric: FabricConfig,
        mem_cfg: MemConfig,
        p_tx_ready: f64,
    ) -> Result<Self, RigError> {
        if n < 2 {
            return Err(fail(format!(
                "a multi-NIC system needs 2 NICs or more, got {n}"
            )));
        }
        let cfgs: Vec<NicConfig> = (0..n)
            .map(|i| NicConfig {
                nic_addr: nic_addr(i),
                // Served WRITEs wait for WR_DATA sealed by an RTL initiator: the small top's
                // one iterative engine takes about 1,000 cycles per 1 KB chunk, behind the
                // jobs already queued (the model server's `server_config_for` does the same).
                server_timeout: server_config_for(&D::TOP).server_timeout,
                ..rtl_config_for(&D::TOP)
            })
            .collect();
        let mut sys =
            System::new(cfgs.clone(), fabric).map_err(|e| fail(format!("system: {e}")))?;
        for i in 0..n {
            sys.set_external(i)
                .map_err(|e| fail(format!("external NIC {i}: {e}")))?;
        }
        let nodes: Vec<Node<D>> = cfgs
            .into_iter()
            .enumerate()
            .map(|(i, c)| {
                let s = seed.wrapping_add(0x9e37_79b9 * (i as u64 + 1));
                Node::new(
                    i,
                    s,
                    MemConfig {
                        seed: s,
                        ..mem_cfg.clone()
                    },
                    p_tx_ready,
                    c,
                )
            })
            .collect();
        let slots = usize::from(D::TOP.slots);
        Ok(Self {
            flight: (0..n).map(|_| (0..slots).map(|_| None).collect()).collect(),
            nodes,
            sys,
            rng: StdRng::seed_from_u64(seed ^ 0x5359_5354),
            mix: Mix::default(),
            done: Vec::new(),
            refused: Vec::new(),
            rekey_want: vec![false; n],
            rereg_want: vec![false; n],
            writes: Vec::new(),
            stats: SysStats::default(),
        })
    }

    pub fn cycle(&self) -> u64 {
        self.nodes.first().map_or(0, |n| n.cycle)
    }

    /// Every node programmed as its driver would (registers, local regions, slots, its two
    /// served regions), all at once.
    pub fn setup(&mut self) -> Result<(), RigError> {
        for n in &mut self.nodes {
            n.setup_queue();
            n.serve_queue();
        }
        let end = self.cycle() + 200_000;
        while !self.nodes.iter().all(|n| n.lite_idle()) {
            if self.cycle() >= end {
                return Err(fail("setup register writes never answered"));
            }
            self.step()?;
        }
        Ok(())
    }

    /// One clock cycle of every node, the fabric up to it, and the checks.
    pub fn step(&mut self) -> Result<(), RigError> {
        for n in &mut self.nodes {
            n.step_ports()?;
        }
        for n in &mut self.nodes {
            for (c, f) in std::mem::take(&mut n.outbox) {
                self.sys.send_external(c, n.idx, f);
            }
        }
        let now = self.cycle();
        self.sys.run_until(now);
        for (_, dst, f) in self.sys.external_rx.drain(..) {
            if let Some(n) = self.nodes.get_mut(dst) {
                n.deliver([f]);
            }
        }
        if !self.sys.errors.is_empty() {
            return Err(fail(format!("model errors: {:?}", self.sys.errors)));
        }
        for i in 0..self.nodes.len() {
            for c in std::mem::take(&mut self.nodes[i].records) {
                self.completed(i, c.slot, c.status)?;
            }
            for s in std::mem::take(&mut self.nodes[i].refused_slots) {
                let f = self.flight[i]
                    .get_mut(usize::from(s))
                    .and_then(Option::take)
                    .ok_or_else(|| fail(format!("NIC {i}: refused command on idle slot {s}")))?;
                self.refused.push(f.op);
            }
        }
        for (i, n) in self.nodes.iter_mut().enumerate() {
            n.observe().map_err(|e| fail(format!("NIC {i}: {e}")))?;
        }
        Ok(())
    }

    /// Whether any initiator has an op in flight on `target`'s region `region` (any op, or one
    /// of kind `kind`).
    fn on_region(&self, target: usize, region: u16, kind: Option<OpType>) -> bool {
        self.flight.iter().flatten().flatten().any(|f| {
            f.op.target == target && f.op.region == region && kind.is_none_or(|k| f.op.op == k)
        })
    }

    /// One cycle's submissions of the closed loop ([`MultiRig::mix`]).
    fn submit_some(&mut self) {
        let n = self.nodes.len();
        let slots = self.nodes[0].top.slots;
        // Re-registrations (a driver's RRT write) of quiet regions whose key is unknown.
        for t in 0..n {
            if self.rereg_want[t] && !self.on_region(t, RTL_REGION, None) {
                let key: Key = self.rng.random();
                let node = &mut self.nodes[t];
                node.rtl_keys[0] = key;
                let e = node.served_entry(0, true);
                node.rrt_queue(RTL_REGION, &e);
                self.rereg_want[t] = false;
                self.stats.reregistered += 1;
            }
        }
        for i in 0..n {
            for s in 0..slots {
                let free = self.flight[i][usize::from(s)].is_none() && self.nodes[i].slot_free(s);
                if !free || !self.rng.random_bool(self.mix.p_submit) {
                    continue;
                }
                let t = (i + self.rng.random_range(1..n)) % n;
                let pick: f64 = self.rng.random();
                let len = self.mix.sizes[self.rng.random_range(0..self.mix.sizes.len())];
                let half = RTL_SERVED_SIZE / 2;
                let (op, region, offset, len) = if pick < self.mix.p_rekey {
                    (OpType::Rekey, RTL_REGION, 0, 16)
                } else if pick < self.mix.p_rekey + self.mix.p_write {
                    if self.rng.random_bool(0.5) {
                        let off = self.rng.random_range(0..=RTL_SERVED_SIZE - u64::from(len));
                        (OpType::Write, RTL_REGION + 1, off, len)
                    } else {
                        let off = self
                            .rng
                            .random_range(half..=RTL_SERVED_SIZE - u64::from(len));
                        (OpType::Write, RTL_REGION, off, len)
                    }
                } else {
                    let off = self.rng.random_range(0..=half - u64::from(len));
                    (OpType::Read, RTL_REGION, off, len)
                };
                if self.admit(t, op, region) {
                    self.issue(i, s, t, op, region, offset, len);
                }
            }
        }
    }

    /// Whether `op` may go to `target`'s region `region` now: a REKEY only to a quiet readable
    /// region (else it is wanted, and nothing new goes there until it is issued), nothing else
    /// there while a REKEY or a re-registration is under way.
    fn admit(&mut self, t: usize, op: OpType, region: u16) -> bool {
        if region != RTL_REGION {
            return true;
        }
        let busy = self.on_region(t, region, Some(OpType::Rekey))
            || !self.nodes[t].lite_idle()
            || self.rereg_want[t];
        if busy {
            return false;
        }
        if op == OpType::Rekey {
            if self.on_region(t, region, None) {
                self.rekey_want[t] = true;
                return false;
            }
            self.rekey_want[t] = false;
            true
        } else {
            !self.rekey_want[t]
        }
    }

    /// NIC `i` submits `op` on slot `s` to `t` (its source bytes and class drawn here).
    #[allow(clippy::too_many_arguments)]
    fn issue(
        &mut self,
        i: usize,
        s: u16,
        t: usize,
        op: OpType,
        region: u16,
        offset: u64,
        len: u16,
    ) {
        let src: Vec<u8> = match op {
            OpType::Read => Vec::new(),
            _ => (0..len).map(|_| self.rng.random()).collect(),
        };
        let node = &mut self.nodes[i];
        if !src.is_empty() {
            node.load_source(node.top.data_base + u64::from(s) * 8192, &src);
        }
        let kr = self.nodes[t].rtl_keys[usize::from(region - RTL_REGION)];
        if op == OpType::Read {
            self.nodes[t].expect_served_read(region, offset, len);
        }
        let cos = self.rng.random_range(0..self.nodes[i].top.classes.min(2));
        let cycle = self.nodes[i].cycle;
        self.nodes[i].submit_to(op, s, nic_addr(t), region, &kr, offset, len, cos, 1);
        self.flight[i][usize::from(s)] = Some(InFlight {
            op: SysOp {
                op,
                initiator: i,
                slot: s,
                target: t,
                region,
                offset,
                len,
                t_sub: cycle,
                t_done: 0,
            },
            src,
        });
    }

    /// An op chosen by a test (the state-machine streams): NIC `i`'s slot `s` submits `op` of
    /// `len` bytes to NIC `t` if the slot is free and the workload's rules allow it now (see
    /// the module documentation; `len` is 16 for a REKEY). `pos` in [0, 1] places the offset in
    /// the legal range; `write_only` sends a WRITE to the write-only region. Returns whether it
    /// was submitted.
    #[allow(clippy::too_many_arguments)]
    pub fn try_submit(
        &mut self,
        i: usize,
        s: u16,
        t: usize,
        op: OpType,
        len: u16,
        pos: f64,
        write_only: bool,
    ) -> bool {
        let n = self.nodes.len();
        if i >= n || t >= n || i == t || s >= self.nodes[i].top.slots {
            return false;
        }
        if self.flight[i][usize::from(s)].is_some() || !self.nodes[i].slot_free(s) {
            return false;
        }
        let len = if op == OpType::Rekey {
            16
        } else {
            len.clamp(1, 4096)
        };
        let half = RTL_SERVED_SIZE / 2;
        let at = |lo: u64, hi: u64| lo + ((hi - lo) as f64 * pos.clamp(0.0, 1.0)) as u64;
        let (region, offset) = match op {
            OpType::Rekey => (RTL_REGION, 0),
            OpType::Write if write_only => {
                (RTL_REGION + 1, at(0, RTL_SERVED_SIZE - u64::from(len)))
            }
            OpType::Write => (RTL_REGION, at(half, RTL_SERVED_SIZE - u64::from(len))),
            _ => (RTL_REGION, at(0, half - u64::from(len))),
        };
        if !self.admit(t, op, region) {
            return false;
        }
        self.issue(i, s, t, op, region, offset, len);
        true
    }

    /// The driver of NIC `t` re-registers its readable region under a fresh key as soon as the
    /// region is quiet (the state-machine streams' deregistration and re-registration).
    pub fn reregister(&mut self, t: usize) {
        if let Some(w) = self.rereg_want.get_mut(t) {
            *w = true;
        }
    }

    /// Node `i` wrote the completion record of slot `slot`: the end-to-end checks.
    fn completed(&mut self, i: usize, slot: u16, st: Status) -> Result<(), RigError> {
        let Some(f) = self
            .flight
            .get_mut(i)
            .and_then(|v| v.get_mut(usize::from(slot)))
            .and_then(Option::take)
        else {
            return Err(fail(format!("NIC {i}: record of idle slot {slot}")));
        };
        let mut op = f.op;
        op.t_done = self.nodes[i].cycle;
        let (t, r) = (op.target, usize::from(op.region - RTL_REGION));
        let len = usize::from(op.len);
        match (op.op, st) {
            (OpType::Read, Status::Ok) => {
                let at = (self.nodes[i].top.data_base + u64::from(slot) * 8192) as usize;
                let got = &self.nodes[i].mem.bytes()[at..at + len];
                let off = op.offset as usize;
                let want = &self.nodes[t].rtl_served[r][off..off + len];
                if got != want {
                    return Err(fail(format!("READ {op:?} OK, but the landed bytes differ")));
                }
                self.stats.ok_bytes += len as u64;
            }
            (OpType::Write, Status::Ok) => {
                let overlap = |&(wt, wr, wo, wl, ws, wd): &(usize, u16, u64, u16, u64, u64)| {
                    wt == t
                        && wr == op.region
                        && wo < op.offset + u64::from(op.len)
                        && op.offset < wo + u64::from(wl)
                        && wd >= op.t_sub
                        && ws <= op.t_done
                };
                let racing = self.flight.iter().flatten().flatten().any(|g| {
                    g.op.op == OpType::Write
                        && g.op.target == t
                        && g.op.region == op.region
                        && g.op.offset < op.offset + u64::from(op.len)
                        && op.offset < g.op.offset + u64::from(g.op.len)
                });
                if racing || self.writes.iter().any(overlap) {
                    self.stats.raced_writes += 1;
                } else {
                    let base = self.nodes[t].top.rtl_served_base + r as u64 * RTL_SERVED_SIZE;
                    let at = (base + op.offset) as usize;
                    if self.nodes[t].mem.bytes()[at..at + len] != f.src[..] {
                        return Err(fail(format!(
                            "WRITE {op:?} OK, but NIC {t}'s host memory differs from its data"
                        )));
                    }
                }
                self.writes
                    .push((t, op.region, op.offset, op.len, op.t_sub, op.t_done));
                self.stats.ok_bytes += len as u64;
            }
            (OpType::Rekey, Status::Ok) => {
                let key: Key = f
                    .src
                    .get(..16)
                    .and_then(|k| k.try_into().ok())
                    .ok_or_else(|| fail("REKEY source shorter than a key"))?;
                self.nodes[t].rtl_keys[0] = key;
            }
            (OpType::Rekey, _) => self.rereg_want[t] = true,
            _ => {}
        }
        if std::env::var_os("ONERMA_RIG_TRACE").is_some() {
            eprintln!("{:>8} nic {i} record {st:?} {op:?}", op.t_done);
        }
        self.done.push((op, st));
        Ok(())
    }

    /// The closed loop for `cycles`.
    pub fn load(&mut self, cycles: u64) -> Result<(), RigError> {
        let end = self.cycle() + cycles;
        while self.cycle() < end {
            self.submit_some();
            self.step()?;
        }
        Ok(())
    }

    /// Every op completes within `bound` cycles, every held observer input is shown, and every
    /// observer ends: whatever a NIC still owes is an error.
    pub fn drain(&mut self, bound: u64) -> Result<(), RigError> {
        let end = self.cycle() + bound;
        while self.flight.iter().flatten().any(Option::is_some)
            || self
                .nodes
                .iter()
                .any(|n| n.any_busy() || !n.lite_idle() || n.enable_changing())
        {
            if self.cycle() >= end {
                return Err(fail("ops still in flight at the drain bound"));
            }
            self.step()?;
        }
        for _ in 0..2 * crate::nic_rig::HOLD {
            self.step()?;
        }
        for (i, n) in self.nodes.iter_mut().enumerate() {
            n.finish().map_err(|e| fail(format!("NIC {i}: {e}")))?;
        }
        Ok(())
    }

    /// Reads register `addr` of node `i` (stepping the system until the answer).
    ///
    /// # Errors
    /// No answer within 10,000 cycles, or a check failed meanwhile.
    pub fn read_reg(&mut self, i: usize, addr: u64) -> Result<u32, RigError> {
        let idx = self.nodes[i].lite_read(addr);
        let end = self.cycle() + 10_000;
        loop {
            if let Some(v) = self.nodes[i].lite_value(idx) {
                return Ok(v);
            }
            if self.cycle() >= end {
                return Err(fail(format!("NIC {i}: register {addr:#x} never answered")));
            }
            self.step()?;
        }
    }

    /// Completed ops by kind and status.
    pub fn by_status(&self) -> BTreeMap<(String, String), u64> {
        let mut m = BTreeMap::new();
        for (o, s) in &self.done {
            *m.entry((format!("{:?}", o.op), format!("{s:?}")))
                .or_insert(0) += 1;
        }
        m
    }
}

/// The system runs of the suite and the demo: `n` small RTL NICs on a fabric with jitter, drops,
/// reordering and duplicates (`faults`), host memory with back-pressure, workload `mix` for
/// `cycles`, then drained and every observer finished.
pub fn run_system(
    n: usize,
    seed: u64,
    faults: bool,
    mix: Mix,
    cycles: u64,
) -> Result<MultiRig, RigError> {
    let mut r = MultiRig::<Dut>::new(
        n,
        seed,
        crate::nic_rig::fabric(seed, faults, false),
        memory(seed, 6, 0.8),
        0.9,
    )?;
    r.mix = mix;
    r.setup()?;
    r.load(cycles)?;
    r.drain(400_000)?;
    Ok(r)
}
