//! The initiator half: command slots, class queues, dispatch, the responses to its ops and
//! completions (protocol.md §2, §7.4, §7.5, §8.3, §8.5, §11).

use std::collections::VecDeque;

use onerma_layouts::{
    Cmd, Cpl, FieldKind, Hdr, Layout, LayoutError, MsgType, OpType, Status, bits,
};

use crate::config::{MAX_CLASSES, NicConfig};
use crate::crypto::{self, CipherKey, Crypto};
use crate::error::{ModelError, SubmitError};
use crate::host::{ReadPurpose, WritePurpose, settled};
use crate::nic::{Completion, DropReason, Event, Nic, Outputs, RxOutcome, SubmitOutcome};
use crate::shared::Owner;
use crate::timing::rearm_cycles;
use crate::wire::{
    self, CHUNK, MAX_CHUNKS, MAX_OP, REKEY_LEN, chunk_len, in_bounds, lines_for, n_chunks,
    payload_mut,
};

/// Where an op is (§7, §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    Queued,
    /// Request sent; no RD_RESP or WR_RDREQ accepted yet.
    AwaitFirst,
    /// READ: at least one RD_RESP accepted.
    Reading,
    /// WRITE/REKEY: WR_RDREQ accepted, data read and sent.
    AwaitCmpl,
}

/// A chunk of an op (§7.4): missing, pending in crypto, being written to host memory, done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Chunk {
    Missing,
    Pending,
    Writing,
    Done,
}

#[derive(Debug, Clone)]
pub(crate) struct Op {
    pub(crate) cmd: Cmd,
    pub(crate) op: OpType,
    kd: CipherKey,
    pub(crate) t_sub: u64,
    t_disp: Option<u64>,
    pub(crate) phase: Phase,
    req_counter: Option<u64>,
    rdreq_counter: u64,
    ctx: u16,
    chunks: [Chunk; MAX_CHUNKS as usize],
    n_chunks: u32,
    /// `base + local_offset`, folded at submission (H7).
    local_addr: u64,
    local_gen: u16,
    cq_addr: u64,
    cq_gen: u16,
    deadline: u64,
    /// `(arrival, deadline before)` of the WR_RDREQ that re-armed the op: a device whose
    /// deadline came earlier (it dispatched up to its transmit latency before its request was
    /// seen) may have found that frame late and timed out instead.
    rearmed: Option<(u64, u64)>,
    /// Host writes of this op not yet complete: the record waits for them (§11 order).
    writes: u32,
    /// The status decided; the record is issued once `writes` is 0.
    ending: Option<Status>,
}

#[derive(Debug, Clone)]
pub(crate) struct Slot {
    enabled: bool,
    pid: u32,
    busy: bool,
    /// The slot takes a new command once its completion record is complete.
    free_at: u64,
    seq: u16,
    inst: u32,
    staging: [u8; 64],
    mask: u64,
    op: Option<Op>,
}

/// Initiator state: the command slot table and the class queues.
#[derive(Debug, Clone)]
pub struct Initiator {
    slots: Vec<Slot>,
    classes: Vec<VecDeque<(u16, u32)>>,
    /// Ops in all class queues together: the NIC asks for ready classes after every input, and
    /// mostly none waits.
    waiting: usize,
    /// Dispatches each class was passed over while waiting (the anti-starvation bound, §2.3).
    passed: Vec<u32>,
    max_starve: u32,
    starve_slack: u32,
}

/// Parses a command; reserved bits are reported (BAD_COMMAND) rather than refused, because the
/// completion-region check comes first (§2.2).
fn parse_cmd(bytes: &[u8]) -> Result<(Cmd, bool), LayoutError> {
    match Cmd::from_bytes(bytes) {
        Ok(c) => Ok((c, false)),
        Err(LayoutError::ReservedNonZero { .. }) => {
            let mut b = bytes.to_vec();
            for f in Cmd::FIELDS {
                if f.kind == FieldKind::Reserved {
                    bits::put(&mut b, f.offset, f.bits, 0);
                }
            }
            Ok((Cmd::from_bytes(&b)?, true))
        }
        Err(e) => Err(e),
    }
}

fn sat32(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

impl Initiator {
    pub(crate) fn new(cfg: &NicConfig) -> Self {
        let slot = Slot {
            enabled: false,
            pid: 0,
            busy: false,
            free_at: 0,
            seq: 0,
            inst: 0,
            staging: [0; 64],
            mask: 0,
            op: None,
        };
        Self {
            slots: vec![slot; usize::from(cfg.num_slots)],
            classes: vec![VecDeque::new(); usize::from(cfg.num_classes)],
            waiting: 0,
            passed: vec![0; usize::from(cfg.num_classes)],
            max_starve: cfg.max_starve,
            starve_slack: cfg.starve_slack,
        }
    }

    pub(crate) fn enable(&mut self, slot: u16, pid: u32) -> Result<(), ModelError> {
        let s = self
            .slots
            .get_mut(usize::from(slot))
            .ok_or(ModelError::NoSuchSlot(slot))?;
        if s.busy {
            return Err(ModelError::SlotBusy(slot));
        }
        s.enabled = true;
        s.pid = pid;
        s.staging = [0; 64];
        s.mask = 0;
        Ok(())
    }

    pub(crate) fn disable(&mut self, slot: u16) -> Result<(), ModelError> {
        let s = self
            .slots
            .get_mut(usize::from(slot))
            .ok_or(ModelError::NoSuchSlot(slot))?;
        if s.busy {
            return Err(ModelError::SlotBusy(slot));
        }
        s.enabled = false;
        Ok(())
    }

    pub(crate) fn class_len(&self, class: u8) -> usize {
        self.classes
            .get(usize::from(class))
            .map_or(0, VecDeque::len)
    }

    /// Ops waiting in the class queues.
    pub(crate) fn waiting(&self) -> usize {
        self.waiting
    }

    pub(crate) fn busy(&self, slot: u16) -> bool {
        self.slots.get(usize::from(slot)).is_some_and(|s| s.busy)
    }

    pub(crate) fn free_at(&self, slot: u16) -> u64 {
        self.slots.get(usize::from(slot)).map_or(0, |s| s.free_at)
    }

    pub(crate) fn idle(&self) -> bool {
        self.slots.iter().all(|s| !s.busy)
    }

    /// Non-empty classes, or only the most starved one once it reached the bound.
    pub(crate) fn ready_classes(&self) -> Vec<u8> {
        let mut buf = [0u8; MAX_CLASSES];
        let n = self.ready_into(&mut buf);
        buf[..n].to_vec()
    }

    /// [`Initiator::ready_classes`] into `buf` (no allocation on the hot path); returns the count.
    pub(crate) fn ready_into(&self, buf: &mut [u8; MAX_CLASSES]) -> usize {
        if self.waiting == 0 {
            return 0;
        }
        let mut n = 0;
        let mut starved: Option<(u32, usize)> = None;
        for (c, q) in self.classes.iter().enumerate() {
            if q.is_empty() {
                continue;
            }
            buf[n] = c as u8;
            n += 1;
            let p = self.passed[c];
            if p >= self.max_starve && starved.is_none_or(|(bp, _)| p > bp) {
                starved = Some((p, c));
            }
        }
        if let Some((_, c)) = starved {
            buf[0] = c as u8;
            return 1;
        }
        n
    }

    /// Whether a device may dispatch the head of `class` now (§2.3): unless a waiting class has
    /// been passed over `MaxStarve + NumClasses - 1` times (the bound round-robin among starving
    /// classes guarantees), any waiting class; otherwise only a starving one (passed over at
    /// least `MaxStarve` times). The model's own choice ([`Initiator::ready_into`]) is one of
    /// these.
    pub(crate) fn may_dispatch(&self, class: u8) -> bool {
        let c = usize::from(class);
        if self.classes.get(c).is_none_or(VecDeque::is_empty) {
            return false;
        }
        if self.max_starve == 0 {
            return true;
        }
        let bound = self.max_starve + self.classes.len() as u32 - 1 + self.starve_slack;
        let overdue = self
            .classes
            .iter()
            .enumerate()
            .any(|(k, q)| k != c && !q.is_empty() && self.passed[k] >= bound);
        !overdue || self.passed[c] >= self.max_starve
    }

    /// A DISPATCH_TIMEOUT timer can still fire: the op waits in its class queue.
    pub(crate) fn queued(&self, slot: u16, inst: u32) -> bool {
        self.live_op(slot, inst)
            .is_some_and(|o| o.phase == Phase::Queued)
    }

    /// The class whose queue has `slot` at its head (the observer's dispatch).
    pub(crate) fn head_class(&self, slot: u16) -> Option<u8> {
        self.classes
            .iter()
            .position(|q| q.front().is_some_and(|&(s, _)| s == slot))
            .and_then(|c| u8::try_from(c).ok())
    }

    /// The deadline of the op in flight on `slot`, if it was dispatched.
    pub(crate) fn op_deadline(&self, slot: u16) -> Option<u64> {
        self.slots
            .get(usize::from(slot))
            .and_then(|s| s.op.as_ref())
            .filter(|o| o.t_disp.is_some())
            .map(|o| o.deadline)
    }

    /// The dispatched op in flight on `slot` that has no status yet.
    fn live(&self, slot: u16) -> Option<&Op> {
        self.slots
            .get(usize::from(slot))
            .and_then(|s| s.op.as_ref())
            .filter(|o| o.t_disp.is_some() && o.ending.is_none())
    }

    /// `(completion address, deadline)` of the dispatched op in flight on `slot` that has no
    /// status yet.
    pub(crate) fn live_cq(&self, slot: u16) -> Option<(u64, u64)> {
        self.live(slot).map(|o| (o.cq_addr, o.deadline))
    }

    /// `(completion address, arrival, deadline before)` of the dispatched op in flight on
    /// `slot` that has no status yet and was re-armed by a WR_RDREQ.
    pub(crate) fn rearmed_cq(&self, slot: u16) -> Option<(u64, u64, u64)> {
        self.live(slot)
            .and_then(|o| o.rearmed.map(|(t, d)| (o.cq_addr, t, d)))
    }

    /// `[start, end)` of a slot's live op's local bytes (the READ landing or WRITE source).
    pub(crate) fn live_local(&self, slot: u16) -> Option<(u64, u64)> {
        self.live(slot).map(|o| {
            (
                o.local_addr,
                o.local_addr.wrapping_add(u64::from(o.cmd.length)),
            )
        })
    }

    /// The key of a slot's live op.
    pub(crate) fn live_key(&self, slot: u16) -> Option<&CipherKey> {
        self.live(slot).map(|o| &o.kd)
    }

    /// The current op instance of a slot (0 for a slot out of range).
    pub(crate) fn slot_inst(&self, slot: u16) -> u32 {
        self.slots.get(usize::from(slot)).map_or(0, |s| s.inst)
    }

    /// `(completion address, cycle its DISPATCH_TIMEOUT is due)` of a slot's queued op.
    pub(crate) fn queued_cq(&self, slot: u16, dispatch_timeout: u64) -> Option<(u64, u64)> {
        self.slots
            .get(usize::from(slot))
            .and_then(|s| s.op.as_ref())
            .filter(|o| o.phase == Phase::Queued && o.ending.is_none())
            .map(|o| (o.cq_addr, o.t_sub + dispatch_timeout + 1))
    }

    /// `(enabled, pid)` of a slot.
    pub(crate) fn slot_config(&self, slot: u16) -> Option<(bool, u32)> {
        self.slots
            .get(usize::from(slot))
            .map(|s| (s.enabled, s.pid))
    }

    /// An op deadline armed for `at` is still the op's deadline.
    pub(crate) fn deadline_live(&self, slot: u16, inst: u32, at: u64) -> bool {
        self.live_op(slot, inst)
            .is_some_and(|o| o.phase != Phase::Queued && o.deadline == at)
    }

    fn live_op(&self, slot: u16, inst: u32) -> Option<&Op> {
        let s = self.slots.get(usize::from(slot))?;
        s.op.as_ref()
            .filter(|o| s.inst == inst && o.ending.is_none())
    }

    fn live_op_mut(&mut self, slot: u16, inst: u32) -> Option<&mut Op> {
        let s = self.slots.get_mut(usize::from(slot))?;
        let i = s.inst;
        s.op.as_mut().filter(|o| i == inst && o.ending.is_none())
    }

    /// The op even while it waits for its record (its writes still count).
    fn any_op_mut(&mut self, slot: u16, inst: u32) -> Option<&mut Op> {
        let s = self.slots.get_mut(usize::from(slot))?;
        let i = s.inst;
        s.op.as_mut().filter(|_| i == inst)
    }

    /// The live, dispatched op a response names (§7.4 step 1): busy with a dispatched op of the
    /// message's type to the message's sender, all echoed fields equal.
    fn response_op(&self, h: &Hdr, nic_addr: u32) -> Option<(u16, u32, &Op)> {
        let s = self.slots.get(usize::from(h.slot))?;
        let o = self.live_op(h.slot, s.inst)?;
        let echo = o.op == h.op_type
            && s.pid == h.pid
            && o.cmd.remote_region == h.region
            && o.cmd.remote_offset == h.offset
            && o.cmd.length == h.length;
        (o.phase != Phase::Queued && o.cmd.remote_nic == h.src_nic && h.dst_nic == nic_addr && echo)
            .then_some((h.slot, s.inst, o))
    }
}

impl Nic {
    /// Header fields every message of an initiator's op echoes.
    fn op_hdr(&self, slot: u16, o: &Op) -> Hdr {
        Hdr {
            msg_type: wire::request_msg(o.op),
            op_type: o.op,
            dst_nic: o.cmd.remote_nic,
            pid: self.ini.slots[usize::from(slot)].pid,
            region: o.cmd.remote_region,
            slot,
            offset: o.cmd.remote_offset,
            length: o.cmd.length,
            ..wire::empty_hdr()
        }
    }

    pub(crate) fn page_write(
        &mut self,
        now: u64,
        slot: u16,
        offset: usize,
        bytes: &[u8],
        out: &mut Outputs,
    ) -> Result<Option<SubmitOutcome>, SubmitError> {
        let si = usize::from(slot);
        let Some(s) = self.ini.slots.get_mut(si) else {
            return Err(SubmitError::NoSuchSlot(slot));
        };
        let end = offset.saturating_add(bytes.len());
        if bytes.is_empty() || end > Cmd::BYTES {
            return Err(SubmitError::BadLength(end));
        }
        // A stopped NIC treats every slot as disabled (§1.1).
        if !s.enabled || self.stopped {
            self.sh.counters.err_disabled_slot += 1;
            return Err(SubmitError::DisabledSlot(slot));
        }
        if s.busy || now < s.free_at {
            self.sh.counters.err_busy_slot += 1;
            return Err(SubmitError::BusySlot(slot));
        }
        s.staging[offset..end].copy_from_slice(bytes);
        let n = end - offset;
        s.mask |= if n == 64 {
            u64::MAX
        } else {
            ((1u64 << n) - 1) << offset
        };
        if s.mask != u64::MAX {
            return Ok(None);
        }
        s.mask = 0;
        let cmd = s.staging;
        self.submit_cmd(now, slot, &cmd, out).map(Some)
    }

    fn submit_cmd(
        &mut self,
        now: u64,
        slot: u16,
        bytes: &[u8; 64],
        out: &mut Outputs,
    ) -> Result<SubmitOutcome, SubmitError> {
        let si = usize::from(slot);
        let pid = self.ini.slots[si].pid;
        let (c, rsvd) = parse_cmd(bytes).map_err(|e| SubmitError::Model(e.into()))?;
        let cq = self.sh.rrt.get(c.cq_region).filter(|r| {
            let e = &r.e;
            e.valid == 1
                && e.perm_local_write == 1
                && e.owner_pid == pid
                && c.cq_offset % 16 == 0
                && in_bounds(c.cq_offset, 16, e.size)
        });
        let Some(cq) = cq else {
            self.sh.counters.err_bad_cq += 1;
            self.sh.counters.status_bad_cq = true;
            return Err(SubmitError::BadCompletionRegion(slot));
        };
        let (cq_addr, cq_gen) = (cq.e.base_addr.wrapping_add(c.cq_offset), cq.generation);
        let op_type = OpType::try_from(c.op_type).ok();
        let bad = match op_type {
            None => true,
            Some(t) => {
                c.length == 0
                    || u32::from(c.length) > MAX_OP
                    || (t == OpType::Rekey && (c.length != REKEY_LEN || c.remote_offset != 0))
                    || c.cos >= self.cfg.num_classes
                    || rsvd
            }
        };
        let op = op_type.unwrap_or(OpType::Read);
        let local = self.sh.rrt.get(c.local_region).filter(|r| {
            let e = &r.e;
            let perm = if op == OpType::Read {
                e.perm_local_write
            } else {
                e.perm_local_read
            };
            e.valid == 1
                && perm == 1
                && e.owner_pid == pid
                && in_bounds(c.local_offset, u64::from(c.length), e.size)
        });
        let local = local.map(|r| (r.e.base_addr.wrapping_add(c.local_offset), r.generation));
        let kd = self.sh.crypto.cipher(&crypto::key_from_u128(c.kd));
        let s = &mut self.ini.slots[si];
        s.busy = true;
        s.seq = s.seq.wrapping_add(1);
        s.inst = s.inst.wrapping_add(1);
        let (seq, inst) = (s.seq, s.inst);
        let cos = c.cos;
        let n = n_chunks(u32::from(c.length)).min(MAX_CHUNKS);
        s.op = Some(Op {
            op,
            kd,
            t_sub: now,
            t_disp: None,
            phase: Phase::Queued,
            req_counter: None,
            rdreq_counter: 0,
            ctx: 0,
            chunks: [wire_missing(); MAX_CHUNKS as usize],
            n_chunks: n,
            local_addr: local.map_or(0, |l| l.0),
            local_gen: local.map_or(0, |l| l.1),
            cq_addr,
            cq_gen,
            deadline: 0,
            rearmed: None,
            writes: 0,
            ending: None,
            cmd: c,
        });
        let status = if bad {
            Some(Status::BadCommand)
        } else if local.is_none() {
            Some(Status::LocalAccessError)
        } else {
            None
        };
        if let Some(status) = status {
            self.finish(now, slot, status, out)
                .map_err(SubmitError::Model)?;
            return Ok(SubmitOutcome::Completed { seq, status });
        }
        self.ini.classes[usize::from(cos)].push_back((slot, inst));
        self.ini.waiting += 1;
        // "Still queued at t_sub + dispatch_timeout + 1" (§2.3).
        self.timers.push(
            now + self.cfg.dispatch_timeout + 1 + self.cfg.dispatch_lag,
            Event::DispatchExpire { slot, inst },
        );
        Ok(SubmitOutcome::Queued { seq })
    }

    pub(crate) fn do_dispatch(
        &mut self,
        now: u64,
        class: u8,
        out: &mut Outputs,
    ) -> Result<u16, ModelError> {
        let ci = usize::from(class);
        let (slot, inst) = self.ini.classes[ci]
            .pop_front()
            .ok_or_else(|| ModelError::Internal(format!("dispatch from empty class {class}")))?;
        self.ini.waiting -= 1;
        for (k, q) in self.ini.classes.iter().enumerate() {
            if k != ci && !q.is_empty() {
                self.ini.passed[k] += 1;
            }
        }
        self.ini.passed[ci] = 0;
        let (h, kd, len) = {
            let o = self
                .ini
                .live_op(slot, inst)
                .ok_or_else(|| ModelError::Internal(format!("queued slot {slot} has no op")))?;
            let read = o.cmd.op_type == OpType::Read as u8;
            (
                self.op_hdr(slot, o),
                o.kd.clone(),
                if read { u32::from(o.cmd.length) } else { 0 },
            )
        };
        // A READ holds the lines its response lands in; a WRITE or REKEY holds none (its WR_DATA
        // streams from host memory into the sealer), so NICs writing to each other cannot
        // deadlock on their windows (§2.3).
        self.sh
            .window
            .alloc(Owner::Op(slot, inst), lines_for(len))?;
        let counter = self.send_empty(h, &kd, out)?;
        let deadline = now + self.cfg.op_timeout;
        if let Some(o) = self.ini.live_op_mut(slot, inst) {
            o.t_disp = Some(now);
            o.phase = Phase::AwaitFirst;
            o.req_counter = counter;
            o.deadline = deadline;
        }
        self.timers.push(
            deadline + self.cfg.deadline_lag,
            Event::OpDeadline {
                slot,
                inst,
                at: deadline,
            },
        );
        Ok(slot)
    }

    pub(crate) fn on_dispatch_expire(
        &mut self,
        t: u64,
        slot: u16,
        inst: u32,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        if self
            .ini
            .live_op(slot, inst)
            .is_some_and(|o| o.phase == Phase::Queued)
        {
            for (c, q) in self.ini.classes.iter_mut().enumerate() {
                if let Some(p) = q.iter().position(|&e| e == (slot, inst)) {
                    q.remove(p);
                    self.ini.waiting -= 1;
                    // A class that stops waiting starts its count of passes afresh (§2.3:
                    // consecutive passes over a waiting class).
                    if q.is_empty() {
                        self.ini.passed[c] = 0;
                    }
                }
            }
            self.finish(t, slot, Status::DispatchTimeout, out)?;
        }
        Ok(())
    }

    pub(crate) fn on_op_deadline(
        &mut self,
        t: u64,
        slot: u16,
        inst: u32,
        at: u64,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        if self
            .ini
            .live_op(slot, inst)
            .is_some_and(|o| o.phase != Phase::Queued && o.deadline == at)
        {
            self.finish(t, slot, Status::Timeout, out)?;
        }
        Ok(())
    }

    /// Decides the op's status (§11): no chunk is released from now on; the record is issued
    /// once every host write the op issued is complete.
    pub(crate) fn finish(
        &mut self,
        now: u64,
        slot: u16,
        status: Status,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        let s = &mut self.ini.slots[usize::from(slot)];
        let Some(o) = s.op.as_mut() else {
            return Err(ModelError::Internal(format!("finish of idle slot {slot}")));
        };
        if o.ending.is_some() {
            return Err(ModelError::Internal(format!("slot {slot} finished twice")));
        }
        o.ending = Some(status);
        if o.writes == 0 {
            self.emit_record(now, slot, out)?;
        }
        Ok(())
    }

    fn emit_record(&mut self, now: u64, slot: u16, out: &mut Outputs) -> Result<(), ModelError> {
        let si = usize::from(slot);
        let Some(o) = self.ini.slots[si].op.take() else {
            return Err(ModelError::Internal(format!("record of idle slot {slot}")));
        };
        let (seq, inst) = (self.ini.slots[si].seq, self.ini.slots[si].inst);
        let status = o
            .ending
            .ok_or_else(|| ModelError::Internal("record before a status".into()))?;
        let t_disp = o.t_disp.unwrap_or(now);
        let cpl = Cpl {
            valid: 1,
            status,
            op_type: o.cmd.op_type,
            slot,
            seq,
            issue_delay: sat32(t_disp - o.t_sub),
            total_delay: sat32(now - o.t_sub),
        };
        let bytes = cpl.to_bytes()?;
        let written = match self.sh.rrt.live(o.cmd.cq_region, o.cq_gen) {
            Some(_) => self
                .sh
                .host
                .dma_write(
                    now,
                    o.cmd.cq_region,
                    o.cq_addr,
                    &bytes,
                    WritePurpose::Completion { slot },
                )
                .ok(),
            None => None,
        };
        if written.is_none() {
            self.sh.counters.err_cq_write += 1;
            self.sh.counters.status_cq_write = true;
        }
        self.sh.window.release(Owner::Op(slot, inst))?;
        let visible = written.unwrap_or(now);
        let s = &mut self.ini.slots[si];
        s.busy = false;
        s.free_at = visible;
        out.completions.push(Completion {
            cpl,
            slot,
            cmd: o.cmd,
            t_sub: o.t_sub,
            t_disp: o.t_disp,
            t_cpl: now,
            visible,
            delivered: written.is_some(),
            req_counter: o.req_counter,
            deadline: o.t_disp.map(|_| o.deadline),
        });
        Ok(())
    }

    // ---- responses ----

    pub(crate) fn rx_rd_resp(
        &mut self,
        now: u64,
        h: &Hdr,
        frame: &[u8],
    ) -> Result<RxOutcome, ModelError> {
        let stale = Ok(RxOutcome::Dropped(DropReason::Stale));
        let Some((slot, inst, o)) = self.ini.response_op(h, self.cfg.nic_addr) else {
            return stale;
        };
        let chunk = u32::from(h.chunk_offset) / CHUNK;
        if o.op != onerma_layouts::OpType::Read
            || !matches!(o.phase, Phase::AwaitFirst | Phase::Reading)
            || o.req_counter != Some(h.prev_counter)
            || chunk >= o.n_chunks
            || now >= o.deadline
        {
            return stale;
        }
        if o.chunks[chunk as usize] != Chunk::Missing {
            return Ok(RxOutcome::Dropped(DropReason::Dup));
        }
        let (ok, data) = open_into(&o.kd, h, frame, self.sh.spare())?;
        if let Some(o) = self.ini.live_op_mut(slot, inst) {
            o.phase = Phase::Reading;
            o.chunks[chunk as usize] = Chunk::Pending;
        }
        self.sh.window.begin(Owner::Op(slot, inst));
        let tag = Event::RdRespTag {
            slot,
            inst,
            chunk,
            ok,
            data,
        };
        if self.cfg.rx_crypto_latency == 0 {
            // Due now: `Nic::receive` acts on it next (see `Nic::tag_now`).
            self.tag_now = Some(tag);
        } else {
            self.timers.push(now + self.cfg.rx_crypto_latency, tag);
        }
        Ok(RxOutcome::Accepted)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn on_rd_resp_tag(
        &mut self,
        t: u64,
        slot: u16,
        inst: u32,
        chunk: u32,
        ok: bool,
        data: &[u8],
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        let owner = Owner::Op(slot, inst);
        let r = self.rd_resp_tag(t, slot, inst, chunk, ok, data, out);
        self.sh.window.end(owner)?;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn rd_resp_tag(
        &mut self,
        t: u64,
        slot: u16,
        inst: u32,
        chunk: u32,
        ok: bool,
        data: &[u8],
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        let Some(o) = self.ini.live_op_mut(slot, inst) else {
            return Ok(());
        };
        if !ok {
            o.chunks[chunk as usize] = Chunk::Missing;
            self.sh.counters.drop_auth += 1;
            return Ok(());
        }
        let (region, generation, addr, rc) = (
            o.cmd.local_region,
            o.local_gen,
            o.local_addr.wrapping_add(u64::from(chunk * CHUNK)),
            o.req_counter.unwrap_or(0),
        );
        if self.sh.rrt.live(region, generation).is_none() {
            self.sh.counters.drop_region_changed += 1;
            return self.finish(t, slot, Status::LocalAccessError, out);
        }
        if let Some(o) = self.ini.live_op_mut(slot, inst) {
            o.chunks[chunk as usize] = Chunk::Writing;
            o.writes += 1;
        }
        self.sh.window.begin(Owner::Op(slot, inst));
        let (ok, done) = settled(self.sh.host.dma_write(
            t,
            region,
            addr,
            data,
            WritePurpose::ReadData {
                slot,
                req_counter: rc,
            },
        ));
        self.timers.push(
            done,
            Event::ReadLanded {
                slot,
                inst,
                chunk,
                ok,
            },
        );
        Ok(())
    }

    pub(crate) fn on_read_landed(
        &mut self,
        t: u64,
        slot: u16,
        inst: u32,
        chunk: u32,
        ok: bool,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        self.sh.window.end(Owner::Op(slot, inst))?;
        let Some(o) = self.ini.any_op_mut(slot, inst) else {
            return Err(ModelError::Internal(format!(
                "slot {slot}: a host write outlived its op's record"
            )));
        };
        o.writes -= 1;
        if !ok {
            self.sh.counters.err_host_write += 1;
        }
        let live = o.ending.is_none();
        if live && ok {
            o.chunks[chunk as usize] = Chunk::Done;
        }
        let all = o.chunks[..o.n_chunks as usize]
            .iter()
            .all(|c| *c == Chunk::Done);
        let writes = o.writes;
        if live && !ok {
            return self.finish(t, slot, Status::LocalAccessError, out);
        }
        if live && all {
            return self.finish(t, slot, Status::Ok, out);
        }
        if !live && writes == 0 {
            return self.emit_record(t, slot, out);
        }
        Ok(())
    }

    pub(crate) fn rx_wr_rdreq(
        &mut self,
        now: u64,
        h: &Hdr,
        frame: &[u8],
        out: &mut Outputs,
    ) -> Result<RxOutcome, ModelError> {
        let stale = Ok(RxOutcome::Dropped(DropReason::Stale));
        let Some((slot, inst, o)) = self.ini.response_op(h, self.cfg.nic_addr) else {
            return stale;
        };
        if o.phase != Phase::AwaitFirst
            || o.req_counter != Some(h.prev_counter)
            || now >= o.deadline
        {
            return stale;
        }
        if h.hold_ns > self.cfg.max_hold_ns {
            return Ok(RxOutcome::Dropped(DropReason::Hold));
        }
        if !open(&o.kd, h, frame)?.0 {
            return Ok(RxOutcome::Dropped(DropReason::Auth));
        }
        let deadline = now + rearm_cycles(h.hold_ns, self.cfg.clk_period_ps);
        let Some(o) = self.ini.live_op_mut(slot, inst) else {
            return stale;
        };
        o.phase = Phase::AwaitCmpl;
        o.rdreq_counter = h.counter;
        o.ctx = h.ctx;
        o.rearmed = Some((now, o.deadline));
        o.deadline = deadline;
        let (region, generation, base, len, n, rc) = (
            o.cmd.local_region,
            o.local_gen,
            o.local_addr,
            u32::from(o.cmd.length),
            o.n_chunks,
            o.req_counter.unwrap_or(0),
        );
        self.timers.push(
            deadline + self.cfg.deadline_lag,
            Event::OpDeadline {
                slot,
                inst,
                at: deadline,
            },
        );
        if self.sh.rrt.live(region, generation).is_none() {
            self.sh.counters.drop_region_changed += 1;
            self.finish(now, slot, Status::LocalAccessError, out)?;
            return Ok(RxOutcome::Accepted);
        }
        for k in 0..n {
            let mut f = self.sh.frame(chunk_len(len, k) as usize);
            let addr = base.wrapping_add(u64::from(k * CHUNK));
            let purpose = ReadPurpose::WriteSource {
                slot,
                req_counter: rc,
            };
            let (ok, done) =
                settled(
                    self.sh
                        .host
                        .dma_read(now, region, addr, payload_mut(&mut f), purpose),
                );
            self.sh.window.begin(Owner::Op(slot, inst));
            self.timers.push(
                done,
                Event::WrSource {
                    slot,
                    inst,
                    chunk: k,
                    frame: f,
                    ok,
                },
            );
        }
        Ok(RxOutcome::Accepted)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn on_wr_source(
        &mut self,
        t: u64,
        slot: u16,
        inst: u32,
        chunk: u32,
        frame: Vec<u8>,
        ok: bool,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        self.sh.window.end(Owner::Op(slot, inst))?;
        let Some(o) = self
            .ini
            .live_op(slot, inst)
            .filter(|o| o.phase == Phase::AwaitCmpl)
        else {
            self.sh.recycle(frame);
            return Ok(());
        };
        if !ok {
            self.sh.recycle(frame);
            self.sh.counters.err_host_read += 1;
            return self.finish(t, slot, Status::LocalAccessError, out);
        }
        let h = Hdr {
            msg_type: MsgType::WrData,
            prev_counter: o.rdreq_counter,
            ctx: o.ctx,
            chunk_offset: u16::try_from(chunk * CHUNK)
                .map_err(|_| ModelError::Internal("chunk offset".into()))?,
            ..self.op_hdr(slot, o)
        };
        let kd = o.kd.clone();
        self.sh.send(h, &kd, frame, &mut out.messages)?;
        Ok(())
    }

    /// WR_CMPL, NACK, ACCESS_ERR, AUTH_FAIL (§7.5, §8.5).
    pub(crate) fn rx_final(
        &mut self,
        now: u64,
        h: &Hdr,
        frame: &[u8],
        out: &mut Outputs,
    ) -> Result<RxOutcome, ModelError> {
        let stale = Ok(RxOutcome::Dropped(DropReason::Stale));
        let Some((slot, _, o)) = self.ini.response_op(h, self.cfg.nic_addr) else {
            return stale;
        };
        let first = o.phase == Phase::AwaitFirst && o.req_counter == Some(h.prev_counter);
        let reserved = self.reserved();
        let (matches, key, status) = match h.msg_type {
            MsgType::WrCmpl => (
                o.phase == Phase::AwaitCmpl && o.rdreq_counter == h.prev_counter && o.ctx == h.ctx,
                &o.kd,
                h.status,
            ),
            MsgType::AuthFail => (first, &reserved, Status::RemoteAuthenticationFailure),
            MsgType::Nack => (first, &o.kd, Status::Nack),
            _ => (first, &o.kd, Status::RemoteAccessError),
        };
        if !matches || now >= o.deadline {
            return stale;
        }
        if !open(key, h, frame)?.0 {
            return Ok(RxOutcome::Dropped(DropReason::Auth));
        }
        self.finish(now, slot, status, out)?;
        Ok(RxOutcome::Accepted)
    }
}

const fn wire_missing() -> Chunk {
    Chunk::Missing
}

/// Verifies and decrypts a frame under `key`: (tag ok, plaintext).
pub(crate) fn open(key: &CipherKey, h: &Hdr, frame: &[u8]) -> Result<(bool, Vec<u8>), ModelError> {
    open_into(key, h, frame, Vec::new())
}

/// [`open`] with the plaintext in `buf` (a spent frame from the pool: one allocation less per
/// payload chunk).
pub(crate) fn open_into(
    key: &CipherKey,
    h: &Hdr,
    frame: &[u8],
    mut buf: Vec<u8>,
) -> Result<(bool, Vec<u8>), ModelError> {
    let iv = crypto::iv(h.src_nic, h.counter)?;
    let ok = Crypto::open_frame_with(key, &iv, frame, &mut buf);
    Ok((ok, buf))
}
