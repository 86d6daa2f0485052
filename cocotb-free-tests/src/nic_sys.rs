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
//!
//! A mixed system ([`MultiRig::mixed`]) makes some NICs model NICs: the golden model's own NICs
//! (not external), with the same host memory map, regions, keys and slots as an RTL node, that
//! initiate and serve through the same workload and the same end-to-end checks; every RTL NIC
//! keeps its observer.

use std::collections::BTreeMap;

use onerma_layouts::{Cmd, OpType, Status};
use onerma_model::crypto::{self, Key};
use onerma_model::{FabricConfig, NicConfig, System};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::axi::MemConfig;
use crate::nic_node::Node;
use crate::nic_rig::{
    Dut, NicPorts, PID, RTL_REGION, RTL_SERVED_SIZE, RigError, fail, memory, rtl_config_for,
    server_config_for,
};
use crate::par::Pool;

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

/// A model NIC of a mixed system: the rig's copy of its served regions' keys and contents (its
/// state is `System::nics[idx]`).
pub struct ModelNic {
    pub idx: usize,
    pub keys: Vec<Key>,
    pub served: Vec<Vec<u8>>,
}

/// N NICs on one fabric, RTL or model (see the module documentation).
pub struct MultiRig<D: NicPorts = Dut> {
    /// The RTL NICs, in NIC order (all of them unless the system is mixed).
    pub nodes: Vec<Node<D>>,
    /// The model NICs of a mixed system, in NIC order.
    pub models: Vec<ModelNic>,
    /// Per NIC: its place in `nodes` (`Ok`) or in `models` (`Err`).
    at: Vec<Result<usize, usize>>,
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
    /// The threads that step the nodes ([`MultiRig::set_threads`]; one unless asked).
    par: Pool<Node<D>, RigError>,
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
        let all: Vec<usize> = (0..n).collect();
        Self::mixed(n, &all, seed, fabric, mem_cfg, p_tx_ready)
    }

    /// [`MultiRig::new`] with only the NICs in `rtl` RTL (at least one); the others are model
    /// NICs with the model server's configuration ([`server_config_for`] `D::TOP`) and the same
    /// memory map, regions and slots, programmed here.
    pub fn mixed(
        n: usize,
        rtl: &[usize],
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
        if rtl.is_empty() || rtl.iter().any(|&i| i >= n) {
            return Err(fail(format!(
                "RTL NICs {rtl:?}: at least one, each below {n}"
            )));
        }
        let is_rtl = |i: usize| rtl.contains(&i);
        let cfgs: Vec<NicConfig> = (0..n)
            .map(|i| {
                if is_rtl(i) {
                    NicConfig {
                        nic_addr: nic_addr(i),
                        // Served WRITEs wait for WR_DATA sealed by an RTL initiator: the small
                        // top's one iterative engine takes about 1,000 cycles per 1 KB chunk,
                        // behind the jobs already queued (as the model server's
                        // `server_config_for`).
                        server_timeout: server_config_for(&D::TOP).server_timeout,
                        ..rtl_config_for(&D::TOP)
                    }
                } else {
                    NicConfig {
                        nic_addr: nic_addr(i),
                        ..server_config_for(&D::TOP)
                    }
                }
            })
            .collect();
        let mut sys =
            System::new(cfgs.clone(), fabric).map_err(|e| fail(format!("system: {e}")))?;
        for i in (0..n).filter(|&i| is_rtl(i)) {
            sys.set_external(i)
                .map_err(|e| fail(format!("external NIC {i}: {e}")))?;
        }
        let mut models = Vec::new();
        for i in (0..n).filter(|&i| !is_rtl(i)) {
            models.push(Self::program_model(&mut sys, i, seed)?);
        }
        let mut at = Vec::new();
        let (mut r, mut m) = (0, 0);
        for i in 0..n {
            if is_rtl(i) {
                at.push(Ok(r));
                r += 1;
            } else {
                at.push(Err(m));
                m += 1;
            }
        }
        let nodes: Vec<Node<D>> = cfgs
            .into_iter()
            .enumerate()
            .filter(|(i, _)| is_rtl(*i))
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
            models,
            at,
            sys,
            rng: StdRng::seed_from_u64(seed ^ 0x5359_5354),
            mix: Mix::default(),
            done: Vec::new(),
            refused: Vec::new(),
            rekey_want: vec![false; n],
            rereg_want: vec![false; n],
            writes: Vec::new(),
            stats: SysStats::default(),
            par: Pool::new(1),
        })
    }

    pub fn cycle(&self) -> u64 {
        self.nodes.first().map_or(0, |n| n.cycle)
    }

    /// NICs on the fabric, RTL and model.
    pub fn nics(&self) -> usize {
        self.at.len()
    }

    /// Whether NIC `i` is an RTL NIC.
    pub fn is_rtl(&self, i: usize) -> bool {
        matches!(self.at.get(i), Some(Ok(_)))
    }

    /// The RTL node of NIC `i`, if it is one.
    pub fn node(&self, i: usize) -> Option<&Node<D>> {
        match self.at.get(i) {
            Some(Ok(k)) => self.nodes.get(*k),
            _ => None,
        }
    }

    fn node_mut(&mut self, i: usize) -> Option<&mut Node<D>> {
        match self.at.get(i) {
            Some(Ok(k)) => self.nodes.get_mut(*k),
            _ => None,
        }
    }

    /// Model NIC `i`'s driver: the local regions (0: the slots' buffers, 1: the completion
    /// records) and every slot enabled for [`PID`], as an RTL node's `setup_queue`; the two
    /// served regions with random keys and contents, as its `serve_queue`.
    fn program_model(sys: &mut System, i: usize, seed: u64) -> Result<ModelNic, RigError> {
        let t = D::TOP;
        let mut rng = StdRng::seed_from_u64(seed.wrapping_add(0x9e37_79b9 * (i as u64 + 1)));
        let nic = sys
            .nics
            .get_mut(i)
            .ok_or_else(|| fail(format!("no model NIC {i}")))?;
        let err = |e: onerma_model::ModelError| fail(format!("model NIC {i}: {e}"));
        for (index, e) in crate::nic_node::local_regions(&t) {
            nic.write_rrt(index, e).map_err(err)?;
        }
        for s in 0..t.slots {
            nic.enable_slot(s, PID).map_err(err)?;
        }
        let mut m = ModelNic {
            idx: i,
            keys: Vec::new(),
            served: Vec::new(),
        };
        for r in 0..2u16 {
            let key: Key = rng.random();
            let fill: Vec<u8> = (0..RTL_SERVED_SIZE).map(|_| rng.random()).collect();
            if let Some(mm) = nic.mem_mut() {
                mm.write(t.rtl_served_base + u64::from(r) * RTL_SERVED_SIZE, &fill);
            }
            nic.write_rrt(
                RTL_REGION + r,
                crate::nic_node::served_entry_for(&t, r, &key),
            )
            .map_err(err)?;
            m.keys.push(key);
            m.served.push(fill);
        }
        Ok(m)
    }

    /// NIC `i`'s served regions' keys as the rig holds them.
    fn keys_mut(&mut self, i: usize) -> &mut Vec<Key> {
        match self.at[i] {
            Ok(k) => &mut self.nodes[k].rtl_keys,
            Err(k) => &mut self.models[k].keys,
        }
    }

    /// NIC `i`'s served regions' initial contents (the READ half stays so).
    fn served(&self, i: usize) -> &[Vec<u8>] {
        match self.at[i] {
            Ok(k) => &self.nodes[k].rtl_served,
            Err(k) => &self.models[k].served,
        }
    }

    /// `len` bytes of NIC `i`'s host memory at `addr`.
    fn host_bytes(&self, i: usize, addr: u64, len: usize) -> Vec<u8> {
        match self.at[i] {
            Ok(k) => {
                let a = addr as usize;
                self.nodes[k]
                    .mem
                    .bytes()
                    .get(a..a + len)
                    .map_or_else(Vec::new, <[u8]>::to_vec)
            }
            Err(_) => {
                let mut v = vec![0u8; len];
                if let Some(m) = self.sys.nics[i].mem() {
                    m.read(addr, &mut v);
                }
                v
            }
        }
    }

    /// Whether NIC `i`'s slot `s` may take a new op now.
    fn slot_free(&self, i: usize, s: u16) -> bool {
        match self.at[i] {
            Ok(k) => self.nodes[k].slot_free(s),
            Err(_) => {
                let nic = &self.sys.nics[i];
                !nic.slot_busy(s) && nic.slot_free_at(s) <= self.cycle()
            }
        }
    }

    /// Whether NIC `i`'s register writes are all answered (a model NIC's are instant).
    fn lite_idle(&self, i: usize) -> bool {
        self.node(i).is_none_or(Node::lite_idle)
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

    /// Steps the nodes on `threads` threads in all (the caller's included; 1: on the caller's
    /// only, the default). Each node's cycle is its own (its top, buses and observer), so the
    /// run is the same on any count ([`crate::par`]); more threads than cores only costs.
    pub fn set_threads(&mut self, threads: usize) {
        if threads != self.par.threads() {
            self.par = Pool::new(threads);
        }
    }

    /// The threads stepping the nodes ([`MultiRig::set_threads`]).
    pub fn threads(&self) -> usize {
        self.par.threads()
    }

    fn observe_node(n: &mut Node<D>) -> Result<(), RigError> {
        let i = n.idx;
        n.observe().map_err(|e| fail(format!("NIC {i}: {e}")))
    }

    /// One clock cycle of every node, the fabric up to it, and the checks.
    pub fn step(&mut self) -> Result<(), RigError> {
        self.par.each(&mut self.nodes, Node::step_ports)?;
        for n in &mut self.nodes {
            for (c, f) in std::mem::take(&mut n.outbox) {
                self.sys.send_external(c, n.idx, f);
            }
        }
        let now = self.cycle();
        self.sys.run_until(now);
        for (_, dst, f) in std::mem::take(&mut self.sys.external_rx) {
            if let Some(n) = self.node_mut(dst) {
                n.deliver([f]);
            }
        }
        if !self.sys.errors.is_empty() {
            return Err(fail(format!("model errors: {:?}", self.sys.errors)));
        }
        for k in 0..self.nodes.len() {
            let i = self.nodes[k].idx;
            for c in std::mem::take(&mut self.nodes[k].records) {
                self.completed(i, c.slot, c.status)?;
            }
            for s in std::mem::take(&mut self.nodes[k].refused_slots) {
                let f = self.flight[i]
                    .get_mut(usize::from(s))
                    .and_then(Option::take)
                    .ok_or_else(|| fail(format!("NIC {i}: refused command on idle slot {s}")))?;
                self.refused.push(f.op);
            }
        }
        for r in std::mem::take(&mut self.sys.reports) {
            match r {
                onerma_model::sim::Report::Completion { nic, c } => {
                    self.completed(nic, c.slot, c.cpl.status)?;
                }
                onerma_model::sim::Report::Submitted {
                    nic,
                    slot,
                    result: Err(e),
                } => {
                    return Err(fail(format!(
                        "model NIC {nic}: submission on slot {slot} refused: {e}"
                    )));
                }
                onerma_model::sim::Report::Submitted { .. } => {}
            }
        }
        self.par.each(&mut self.nodes, Self::observe_node)
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
        let n = self.nics();
        let slots = D::TOP.slots;
        // Re-registrations (a driver's RRT write) of quiet regions whose key is unknown.
        for t in 0..n {
            if self.rereg_want[t] && !self.on_region(t, RTL_REGION, None) {
                let key: Key = self.rng.random();
                self.keys_mut(t)[0] = key;
                if let Some(node) = self.node_mut(t) {
                    let e = node.served_entry(0, true);
                    node.rrt_queue(RTL_REGION, &e);
                } else {
                    let e = crate::nic_node::served_entry_for(&D::TOP, 0, &key);
                    if let Err(e) = self.sys.nics[t].write_rrt(RTL_REGION, e) {
                        self.sys.errors.push((self.cycle(), t, e));
                    }
                }
                self.rereg_want[t] = false;
                self.stats.reregistered += 1;
            }
        }
        for i in 0..n {
            for s in 0..slots {
                let free = self.flight[i][usize::from(s)].is_none() && self.slot_free(i, s);
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
            || !self.lite_idle(t)
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
        let buf = D::TOP.data_base + u64::from(s) * 8192;
        let kr = self.keys_mut(t)[usize::from(region - RTL_REGION)];
        if op == OpType::Read
            && let Some(n) = self.node_mut(t)
        {
            n.expect_served_read(region, offset, len);
        }
        let cos = self.rng.random_range(0..D::TOP.classes.min(2));
        let cycle = self.cycle();
        if let Some(node) = self.node_mut(i) {
            if !src.is_empty() {
                node.load_source(buf, &src);
            }
            node.submit_to(op, s, nic_addr(t), region, &kr, offset, len, cos, 1);
        } else {
            // A model NIC's driver: the source in its buffer, the command as `Node::submit_to`
            // writes it (local buffer at `slot * 8192` of region 0, record at `slot * 16` of
            // region 1).
            if !src.is_empty()
                && let Some(m) = self.sys.nics[i].mem_mut()
            {
                m.write(buf, &src);
            }
            let cmd = crypto::derive_kd(&kr, nic_addr(i), PID, op).map(|kd| Cmd {
                op_type: op as u8,
                cos,
                length: len,
                remote_nic: nic_addr(t),
                remote_region: region,
                local_region: 0,
                cq_region: 1,
                remote_offset: offset,
                local_offset: u64::from(s) * 8192,
                cq_offset: u64::from(s) * 16,
                kd: crypto::key_to_u128(&kd),
            });
            match cmd.and_then(|c| c.to_bytes()) {
                Ok(bytes) => self.sys.schedule_submit(cycle, i, s, bytes),
                Err(e) => self.sys.errors.push((cycle, i, e.into())),
            }
        }
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
        let n = self.nics();
        if i >= n || t >= n || i == t || s >= D::TOP.slots {
            return false;
        }
        if self.flight[i][usize::from(s)].is_some() || !self.slot_free(i, s) {
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
        op.t_done = self.cycle();
        let (t, r) = (op.target, usize::from(op.region - RTL_REGION));
        let len = usize::from(op.len);
        match (op.op, st) {
            (OpType::Read, Status::Ok) => {
                let got = self.host_bytes(i, D::TOP.data_base + u64::from(slot) * 8192, len);
                let off = op.offset as usize;
                let want = &self.served(t)[r][off..off + len];
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
                    let base = D::TOP.rtl_served_base + r as u64 * RTL_SERVED_SIZE;
                    if self.host_bytes(t, base + op.offset, len) != f.src {
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
                self.keys_mut(t)[0] = key;
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
        for n in &mut self.nodes {
            let i = n.idx;
            n.finish().map_err(|e| fail(format!("NIC {i}: {e}")))?;
        }
        Ok(())
    }

    /// Reads register `addr` of node `i` (stepping the system until the answer).
    ///
    /// # Errors
    /// No answer within 10,000 cycles, or a check failed meanwhile.
    pub fn read_reg(&mut self, i: usize, addr: u64) -> Result<u32, RigError> {
        let idx = self
            .node_mut(i)
            .ok_or_else(|| fail(format!("NIC {i} is not an RTL NIC")))?
            .lite_read(addr);
        let end = self.cycle() + 10_000;
        loop {
            if let Some(v) = self.node(i).and_then(|n| n.lite_value(idx)) {
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
