//! The responder half: request checks, the inbound queues with their age limit, serving READs,
//! write contexts, REKEY (protocol.md §7.2, §7.3, §8.2, §8.4, §8.6, §9).

use std::collections::VecDeque;

use onerma_layouts::{Hdr, MsgType, OpType, Status};
use serde::{Deserialize, Serialize};

use crate::config::NicConfig;
use crate::crypto::{self, CipherKey, FastMap};
use crate::error::{ChoiceError, ModelError};
use crate::host::{ReadPurpose, WritePurpose, settled};
use crate::initiator::{Chunk, open, open_into};
use crate::nic::{DropReason, Event, Nic, Outputs, RxOutcome};
use crate::shared::Owner;
use crate::wire::{
    self, CHUNK, MAX_CHUNKS, MAX_OP, QUANTUM_LINES, REKEY_LEN, chunk_len, echo_matches, in_bounds,
    lines_for, n_chunks, payload_mut,
};

/// A REKEY install at a server, for the key-provenance invariant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyInstall {
    pub t: u64,
    pub region: u16,
    pub key: u128,
    /// The REKEY op `(initiator, slot, request counter)` whose data it is.
    pub initiator: u32,
    pub slot: u16,
    pub req_counter: u64,
}

/// The two inbound queues (H8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum InQueue {
    Read,
    Write,
}

#[derive(Debug, Clone)]
struct InReq {
    id: u64,
    /// Enqueued with the occupancy within the NACK skew of `nack_depth` (observer, §7.2 step
    /// 4): the device may have NACKed it instead.
    either: bool,
    hdr: Hdr,
    kd: CipherKey,
    generation: u16,
    key_gen: u8,
    base: u64,
}

#[derive(Debug, Clone)]
struct Ctx {
    in_use: bool,
    inst: u32,
    req: Hdr,
    kd: CipherKey,
    generation: u16,
    key_gen: u8,
    base: u64,
    rdreq_counter: u64,
    deadline: u64,
    chunks: [Chunk; MAX_CHUNKS as usize],
    n_chunks: u32,
    done: u32,
    pending: u32,
    writes: u32,
    expired: bool,
    /// WR_CMPL status once decided (REKEY install result, or REMOTE_ACCESS_ERROR on a failed
    /// generation check or host write error).
    status: Option<Status>,
}

#[derive(Debug, Clone)]
struct ServedRead {
    req: Hdr,
    kd: CipherKey,
    left: u32,
    failed: bool,
}

/// Responder state: inbound queues, write contexts, READs being served.
#[derive(Debug, Clone)]
pub struct Responder {
    reads: VecDeque<InReq>,
    writes: VecDeque<InReq>,
    /// WRITE/REKEY requests discarded by age `(cycle, request)`, kept for an observer
    /// (`Nic::write_age_lag` cycles) in case the device served one before its limit.
    aged_writes: VecDeque<(u64, InReq)>,
    ctxs: Vec<Ctx>,
    ctx_free: Vec<u16>,
    serving: FastMap<u64, ServedRead>,
    next_id: u64,
}

impl Responder {
    /// Whether write context `ci` exists and is free (the observer's WRITE service).
    pub(crate) fn ctx_is_free(&self, ci: u16) -> bool {
        self.ctx_free.contains(&ci)
    }

    /// The deadline of the write context serving the WRITE request `(initiator, slot,
    /// counter)`, live or ended (its fields stay until the context is reused).
    pub(crate) fn ctx_deadline_of(&self, initiator: u32, slot: u16, counter: u64) -> Option<u64> {
        self.ctxs
            .iter()
            .find(|c| c.req.src_nic == initiator && c.req.slot == slot && c.req.counter == counter)
            .map(|c| c.deadline)
    }

    /// `[start, end)` of the host bytes live write context `ci` writes.
    pub(crate) fn ctx_range(&self, ci: u16) -> Option<(u64, u64)> {
        self.ctxs
            .get(usize::from(ci))
            .filter(|c| c.in_use)
            .map(|c| {
                let a = c.base.wrapping_add(c.req.offset);
                (a, a.wrapping_add(u64::from(c.req.length)))
            })
    }

    /// The key of live write context `ci`.
    pub(crate) fn ctx_key(&self, ci: u16) -> Option<&CipherKey> {
        self.ctxs
            .get(usize::from(ci))
            .filter(|c| c.in_use)
            .map(|c| &c.kd)
    }

    /// The deadline of write context `ci`.
    pub(crate) fn ctx_deadline(&self, ci: u16) -> Option<u64> {
        self.ctxs.get(usize::from(ci)).map(|c| c.deadline)
    }
    pub(crate) fn new(cfg: &NicConfig) -> Self {
        let reserved = CipherKey::new(&crypto::RESERVED_KEY);
        let ctx = Ctx {
            in_use: false,
            inst: 0,
            req: wire::empty_hdr(),
            kd: reserved,
            generation: 0,
            key_gen: 0,
            base: 0,
            rdreq_counter: 0,
            deadline: 0,
            chunks: [Chunk::Missing; MAX_CHUNKS as usize],
            n_chunks: 0,
            done: 0,
            pending: 0,
            writes: 0,
            expired: false,
            status: None,
        };
        Self {
            reads: VecDeque::new(),
            writes: VecDeque::new(),
            aged_writes: VecDeque::new(),
            ctxs: vec![ctx; usize::from(cfg.num_write_ctx)],
            ctx_free: (0..cfg.num_write_ctx).rev().collect(),
            serving: FastMap::default(),
            next_id: 0,
        }
    }

    pub(crate) fn occupancy(&self) -> usize {
        self.reads.len() + self.writes.len()
    }

    pub(crate) fn contexts_in_use(&self) -> usize {
        self.ctxs.len() - self.ctx_free.len()
    }

    pub(crate) fn has_reads(&self) -> bool {
        !self.reads.is_empty()
    }

    pub(crate) fn idle(&self) -> bool {
        self.reads.is_empty()
            && self.writes.is_empty()
            && self.ctx_free.len() == self.ctxs.len()
            && self.serving.is_empty()
    }

    /// Request `id` still waits in queue `q` (ids grow, each queue is FIFO).
    pub(crate) fn queued(&self, q: InQueue, id: u64) -> bool {
        let queue = match q {
            InQueue::Read => &self.reads,
            InQueue::Write => &self.writes,
        };
        queue.front().is_some_and(|f| f.id <= id)
    }

    /// A context deadline can still act: the context is live and undecided.
    pub(crate) fn deadline_live(&self, ci: u16, inst: u32) -> bool {
        self.ctxs
            .get(usize::from(ci))
            .is_some_and(|c| c.in_use && c.inst == inst && !c.expired && c.status.is_none())
    }

    /// The READs of `region` being served, as `(initiator, request counter)` (the observer's
    /// RRT commit: their unread chunks may fail the device's check of the new entry).
    pub(crate) fn serving_in(&self, region: u16) -> Vec<(u32, u64)> {
        self.serving
            .values()
            .filter(|s| s.req.region == region)
            .map(|s| (s.req.src_nic, s.req.counter))
            .collect()
    }

    /// The host range `(address, length)` the READ queue head would be served from, and whether
    /// its region is unchanged since its check (else its service discards it silently).
    pub(crate) fn read_head(&self, rrt: &crate::shared::Rrt) -> Option<(u64, u64, bool)> {
        self.reads.front().map(|r| {
            (
                r.base.wrapping_add(r.hdr.offset),
                u64::from(r.hdr.length),
                rrt.live(r.hdr.region, r.generation).is_some(),
            )
        })
    }

    /// Requests waiting in inbound queue `q`.
    pub(crate) fn queue_len(&self, q: InQueue) -> usize {
        match q {
            InQueue::Read => self.reads.len(),
            InQueue::Write => self.writes.len(),
        }
    }

    fn queue(&mut self, q: InQueue) -> &mut VecDeque<InReq> {
        match q {
            InQueue::Read => &mut self.reads,
            InQueue::Write => &mut self.writes,
        }
    }
}

impl Nic {
    /// Dispatches a received frame (§3.3 checks first).
    pub(crate) fn rx(
        &mut self,
        now: u64,
        frame: &[u8],
        out: &mut Outputs,
    ) -> Result<RxOutcome, ModelError> {
        let Some(h) = wire::parse(frame) else {
            return Ok(RxOutcome::Dropped(DropReason::Malformed));
        };
        // A stopped NIC answers to no address (§1.1).
        if self.stopped || h.dst_nic != self.cfg.nic_addr {
            return Ok(RxOutcome::Dropped(DropReason::Misaddressed));
        }
        match h.msg_type {
            MsgType::RdReq | MsgType::WrReq | MsgType::RekeyReq => {
                self.rx_request(now, &h, frame, out)
            }
            MsgType::RdResp => self.rx_rd_resp(now, &h, frame),
            MsgType::WrRdreq => self.rx_wr_rdreq(now, &h, frame, out),
            MsgType::WrData => self.rx_wr_data(now, &h, frame),
            MsgType::WrCmpl | MsgType::Nack | MsgType::AccessErr | MsgType::AuthFail => {
                self.rx_final(now, &h, frame, out)
            }
        }
    }

    /// Reply of the request checks (§7.2 steps 1-4): echoes the request.
    fn reply(
        &mut self,
        req: &Hdr,
        msg_type: MsgType,
        status: Status,
        key: &CipherKey,
        out: &mut Outputs,
    ) -> Result<RxOutcome, ModelError> {
        let h = Hdr {
            msg_type,
            status,
            dst_nic: req.src_nic,
            prev_counter: req.counter,
            ..req.clone()
        };
        Ok(match self.send_empty(h, key, out)? {
            Some(_) => RxOutcome::Replied(msg_type),
            None => RxOutcome::Dropped(DropReason::CounterExhausted),
        })
    }

    /// The request checks of §7.2, in order.
    fn rx_request(
        &mut self,
        now: u64,
        h: &Hdr,
        frame: &[u8],
        out: &mut Outputs,
    ) -> Result<RxOutcome, ModelError> {
        let Some(row) = self
            .sh
            .rrt
            .get(h.region)
            .filter(|r| r.e.valid == 1)
            .cloned()
        else {
            self.sh.counters.req_auth_fail += 1;
            let rk = self.reserved();
            return self.reply(
                h,
                MsgType::AuthFail,
                Status::RemoteAuthenticationFailure,
                &rk,
                out,
            );
        };
        let kr = crypto::key_from_u128(row.e.key);
        let kd = self.sh.crypto.kd_cipher(&kr, h.src_nic, h.pid, h.op_type)?;
        if !open(&kd, h, frame)?.0 {
            self.sh.counters.req_auth_fail += 1;
            let rk = self.reserved();
            return self.reply(
                h,
                MsgType::AuthFail,
                Status::RemoteAuthenticationFailure,
                &rk,
                out,
            );
        }
        let e = &row.e;
        let (perm, len_ok) = match h.op_type {
            OpType::Read => (
                e.perm_remote_read,
                (1..=MAX_OP).contains(&u32::from(h.length)),
            ),
            OpType::Write => (
                e.perm_remote_write,
                (1..=MAX_OP).contains(&u32::from(h.length)),
            ),
            OpType::Rekey => (e.perm_remote_rekey, h.length == REKEY_LEN && h.offset == 0),
        };
        if perm != 1 || !len_ok || !in_bounds(h.offset, u64::from(h.length), e.size) {
            self.sh.counters.req_access_err += 1;
            return self.reply(h, MsgType::AccessErr, Status::RemoteAccessError, &kd, out);
        }
        // §7.2 step 4. An observer's shadow sees the device's services late, so its occupancy
        // is at most `nack_skew` above the device's: within that skew of the threshold either
        // choice is legal, and the shadow enqueues until the device shows a NACK.
        let (occ, depth) = (self.rsp.occupancy(), usize::from(self.cfg.nack_depth));
        if occ >= depth.saturating_add(self.nack_skew) {
            self.sh.counters.req_nacked += 1;
            return self.reply(h, MsgType::Nack, Status::Nack, &kd, out);
        }
        let either = occ >= depth;
        let q = if h.op_type == OpType::Read {
            InQueue::Read
        } else {
            InQueue::Write
        };
        let id = self.rsp.next_id;
        self.rsp.next_id += 1;
        self.rsp.queue(q).push_back(InReq {
            id,
            either,
            hdr: h.clone(),
            kd,
            generation: row.generation,
            key_gen: row.key_gen,
            base: e.base_addr,
        });
        self.timers.push(
            now + self.cfg.inq_max_age + 1,
            Event::AgeOut { queue: q, id },
        );
        Ok(RxOutcome::Enqueued)
    }

    /// Observer: the device NACKed the queued request `(initiator, counter)` that the shadow
    /// enqueued within the NACK skew (§7.2 step 4): it leaves its queue and its NACK is owed.
    /// Returns whether there was such a request.
    ///
    /// # Errors
    /// An internal inconsistency of the model.
    pub(crate) fn nack_either(
        &mut self,
        initiator: u32,
        counter: u64,
        out: &mut Outputs,
    ) -> Result<bool, ModelError> {
        for q in [InQueue::Read, InQueue::Write] {
            let queue = self.rsp.queue(q);
            if let Some(p) = queue
                .iter()
                .position(|r| r.either && r.hdr.src_nic == initiator && r.hdr.counter == counter)
                && let Some(r) = queue.remove(p)
            {
                self.sh.counters.req_nacked += 1;
                self.reply(&r.hdr, MsgType::Nack, Status::Nack, &r.kd, out)?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Observer: the head of queue `q` as `(initiator, counter, either)`.
    pub(crate) fn inbound_head(&self, q: InQueue) -> Option<(u32, u64, bool)> {
        match q {
            InQueue::Read => self.rsp.reads.front(),
            InQueue::Write => self.rsp.writes.front(),
        }
        .map(|r| (r.hdr.src_nic, r.hdr.counter, r.either))
    }

    /// Observer: the device shows the service of the WRITE/REKEY request of `initiator` with
    /// counter `counter` (its WR_RDREQ leaves up to `write_age_lag` cycles after the decision).
    /// If the shadow discarded that request by age within that lag, the device served it before
    /// its limit: it goes back to the head of the queue (the heads the shadow discarded before it
    /// stay discarded: the device, serving in order, discarded them too). A request is named by
    /// both: counters are per sending NIC, so two initiators' requests can carry the same one.
    pub(crate) fn revive_aged_write(&mut self, now: u64, initiator: u32, counter: u64) {
        let lag = self.write_age_lag;
        self.rsp.aged_writes.retain(|(t, _)| t + lag >= now);
        let is = |r: &InReq| r.hdr.src_nic == initiator && r.hdr.counter == counter;
        if self.rsp.writes.front().is_some_and(is) {
            return;
        }
        if let Some(p) = self.rsp.aged_writes.iter().position(|(_, r)| is(r))
            && let Some((_, r)) = self.rsp.aged_writes.remove(p)
        {
            self.rsp.writes.push_front(r);
            self.sh.counters.drop_queue_age = self.sh.counters.drop_queue_age.saturating_sub(1);
        }
    }

    pub(crate) fn on_age_out(&mut self, now: u64, q: InQueue, id: u64) {
        let lag = self.write_age_lag;
        let keep = q == InQueue::Write && lag > 0;
        self.rsp.aged_writes.retain(|(t, _)| t + lag >= now);
        let queue = self.rsp.queue(q);
        if let Some(p) = queue.iter().position(|r| r.id == id) {
            if let Some(r) = queue.remove(p)
                && keep
            {
                self.rsp.aged_writes.push_back((now, r));
            }
            self.sh.counters.drop_queue_age += 1;
        }
    }

    pub(crate) fn servable(&self, now: u64, q: InQueue) -> Result<(), ChoiceError> {
        let head = match q {
            InQueue::Read => self.rsp.reads.front(),
            InQueue::Write => self.rsp.writes.front(),
        };
        if head.is_none() {
            return Err(ChoiceError::EmptyInbound(q));
        }
        if !self.sh.can_send() {
            return Err(ChoiceError::CounterExhausted);
        }
        match q {
            InQueue::Read => {
                if self.sh.host.read_ready_at() > now {
                    return Err(ChoiceError::NotServable(q, "host read channel busy"));
                }
            }
            InQueue::Write => {
                if self.sh.window.free() + self.admit_slack < QUANTUM_LINES {
                    return Err(ChoiceError::NotServable(q, "window short of 64 lines"));
                }
                if self.rsp.ctx_free.is_empty() {
                    return Err(ChoiceError::NotServable(q, "no free write context"));
                }
            }
        }
        Ok(())
    }

    pub(crate) fn do_serve(
        &mut self,
        now: u64,
        q: InQueue,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        let Some(r) = self.rsp.queue(q).pop_front() else {
            return Err(ModelError::Internal(format!("serve of empty queue {q:?}")));
        };
        let h = r.hdr;
        if self.sh.rrt.live(h.region, r.generation).is_none() {
            self.sh.counters.drop_region_changed += 1;
            return Ok(());
        }
        self.sh.counters.req_served += 1;
        let len = u32::from(h.length);
        match q {
            InQueue::Read => {
                let n = n_chunks(len);
                for k in 0..n {
                    let mut f = self.sh.frame(chunk_len(len, k) as usize);
                    let addr = r
                        .base
                        .wrapping_add(h.offset)
                        .wrapping_add(u64::from(k * CHUNK));
                    let purpose = ReadPurpose::Serve {
                        initiator: h.src_nic,
                        slot: h.slot,
                        req_counter: h.counter,
                    };
                    let (ok, done) = settled(self.sh.host.dma_read(
                        now,
                        h.region,
                        addr,
                        payload_mut(&mut f),
                        purpose,
                    ));
                    self.timers.push(
                        done,
                        Event::RdServe {
                            read: r.id,
                            chunk: k,
                            frame: f,
                            ok,
                        },
                    );
                }
                self.rsp.serving.insert(
                    r.id,
                    ServedRead {
                        req: h,
                        kd: r.kd,
                        left: n,
                        failed: false,
                    },
                );
            }
            InQueue::Write => {
                let forced = self.sh.shadow.as_mut().and_then(|t| t.ctx.take());
                let ci =
                    match forced {
                        Some(c) => {
                            let p = self.rsp.ctx_free.iter().position(|&f| f == c).ok_or_else(
                                || ModelError::Internal(format!("forced context {c} is not free")),
                            )?;
                            self.rsp.ctx_free.remove(p)
                        }
                        None => self
                            .rsp
                            .ctx_free
                            .pop()
                            .ok_or_else(|| ModelError::Internal("no free context".into()))?,
                    };
                let inst = self.rsp.ctxs[usize::from(ci)].inst.wrapping_add(1);
                self.sh.window.alloc(Owner::Ctx(ci, inst), lines_for(len))?;
                let rdreq = Hdr {
                    msg_type: MsgType::WrRdreq,
                    dst_nic: h.src_nic,
                    prev_counter: h.counter,
                    ctx: ci,
                    hold_ns: self.cfg.hold_ns(),
                    ..h.clone()
                };
                let Some(rc) = self.send_empty(rdreq, &r.kd, out)? else {
                    return Err(ModelError::Internal(
                        "served with the counter exhausted".into(),
                    ));
                };
                let deadline = now + self.cfg.server_timeout;
                let c = &mut self.rsp.ctxs[usize::from(ci)];
                *c = Ctx {
                    in_use: true,
                    inst,
                    n_chunks: n_chunks(len),
                    req: h,
                    kd: r.kd,
                    generation: r.generation,
                    key_gen: r.key_gen,
                    base: r.base,
                    rdreq_counter: rc,
                    deadline,
                    chunks: [Chunk::Missing; MAX_CHUNKS as usize],
                    done: 0,
                    pending: 0,
                    writes: 0,
                    expired: false,
                    status: None,
                };
                self.timers.push(
                    deadline + self.cfg.deadline_lag,
                    Event::CtxDeadline { ctx: ci, inst },
                );
            }
        }
        Ok(())
    }

    pub(crate) fn on_rd_serve(
        &mut self,
        read: u64,
        chunk: u32,
        frame: Vec<u8>,
        ok: bool,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        let Some(s) = self.rsp.serving.get_mut(&read) else {
            return Err(ModelError::Internal(format!("READ {read} served twice")));
        };
        s.left -= 1;
        if !ok && !s.failed {
            s.failed = true;
            self.sh.counters.err_host_read += 1;
        }
        let (failed, left) = (s.failed, s.left);
        let h = Hdr {
            msg_type: MsgType::RdResp,
            dst_nic: s.req.src_nic,
            prev_counter: s.req.counter,
            chunk_offset: u16::try_from(chunk * CHUNK)
                .map_err(|_| ModelError::Internal("chunk offset".into()))?,
            ..s.req.clone()
        };
        let kd = s.kd.clone();
        if left == 0 {
            self.rsp.serving.remove(&read);
        }
        if failed {
            self.sh.recycle(frame);
            return Ok(());
        }
        self.sh.send(h, &kd, frame, &mut out.messages)?;
        Ok(())
    }

    fn rx_wr_data(&mut self, now: u64, h: &Hdr, frame: &[u8]) -> Result<RxOutcome, ModelError> {
        let stale = Ok(RxOutcome::Dropped(DropReason::Stale));
        let Some(c) = self.rsp.ctxs.get(usize::from(h.ctx)) else {
            return stale;
        };
        let chunk = u32::from(h.chunk_offset) / CHUNK;
        if !c.in_use
            || c.expired
            || c.status.is_some()
            || c.rdreq_counter != h.prev_counter
            || c.req.src_nic != h.src_nic
            || !echo_matches(&c.req, h)
            || chunk >= c.n_chunks
        {
            return stale;
        }
        if now >= c.deadline {
            return Ok(RxOutcome::Dropped(DropReason::Late));
        }
        if c.chunks[chunk as usize] != Chunk::Missing {
            return Ok(RxOutcome::Dropped(DropReason::Dup));
        }
        let (ok, data) = open_into(&c.kd, h, frame, self.sh.spare())?;
        let (ci, inst) = (h.ctx, c.inst);
        let c = &mut self.rsp.ctxs[usize::from(ci)];
        c.chunks[chunk as usize] = Chunk::Pending;
        c.pending += 1;
        self.sh.window.begin(Owner::Ctx(ci, inst));
        self.timers.push(
            now + self.cfg.rx_crypto_latency,
            Event::WrDataTag {
                ctx: ci,
                inst,
                chunk,
                ok,
                data,
            },
        );
        Ok(RxOutcome::Accepted)
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn on_wr_data_tag(
        &mut self,
        t: u64,
        ci: u16,
        inst: u32,
        chunk: u32,
        ok: bool,
        data: &[u8],
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        self.sh.window.end(Owner::Ctx(ci, inst))?;
        let c = &mut self.rsp.ctxs[usize::from(ci)];
        if !c.in_use || c.inst != inst {
            return Err(ModelError::Internal(format!(
                "context {ci} ended with a chunk pending"
            )));
        }
        c.pending -= 1;
        if c.status.is_some() {
            return self.ctx_settle(t, ci, out);
        }
        if !ok {
            c.chunks[chunk as usize] = Chunk::Missing;
            self.sh.counters.drop_auth += 1;
            return self.ctx_settle(t, ci, out);
        }
        let (region, generation, key_gen) = (c.req.region, c.generation, c.key_gen);
        if c.req.op_type == OpType::Rekey {
            c.chunks[chunk as usize] = Chunk::Done;
            c.done += 1;
            let key = <[u8; 16]>::try_from(data)
                .map_err(|_| ModelError::Internal("REKEY data is not 16 bytes".into()))?;
            let installed =
                self.sh
                    .rrt
                    .install_key(region, generation, key_gen, crypto::key_to_u128(&key));
            if installed && let Some(log) = self.key_log.as_mut() {
                let r = &self.rsp.ctxs[usize::from(ci)].req;
                log.push(KeyInstall {
                    t,
                    region,
                    key: crypto::key_to_u128(&key),
                    initiator: r.src_nic,
                    slot: r.slot,
                    req_counter: r.counter,
                });
            }
            let c = &mut self.rsp.ctxs[usize::from(ci)];
            if installed {
                self.sh.counters.rekey_installed += 1;
                c.status = Some(Status::Ok);
            } else {
                self.sh.counters.rekey_refused += 1;
                c.status = Some(Status::RemoteAccessError);
            }
            return self.ctx_settle(t, ci, out);
        }
        if self.sh.rrt.live(region, generation).is_none() {
            self.sh.counters.drop_region_changed += 1;
            self.rsp.ctxs[usize::from(ci)].status = Some(Status::RemoteAccessError);
            return self.ctx_settle(t, ci, out);
        }
        let c = &mut self.rsp.ctxs[usize::from(ci)];
        c.chunks[chunk as usize] = Chunk::Writing;
        c.writes += 1;
        let addr = c
            .base
            .wrapping_add(c.req.offset)
            .wrapping_add(u64::from(chunk * CHUNK));
        let purpose = WritePurpose::RemoteWrite {
            initiator: c.req.src_nic,
            slot: c.req.slot,
            req_counter: c.req.counter,
        };
        self.sh.window.begin(Owner::Ctx(ci, inst));
        let (ok, done) = settled(self.sh.host.dma_write(t, region, addr, data, purpose));
        self.timers
            .push(done, Event::CtxWritten { ctx: ci, inst, ok });
        Ok(())
    }

    pub(crate) fn on_ctx_written(
        &mut self,
        t: u64,
        ci: u16,
        inst: u32,
        ok: bool,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        self.sh.window.end(Owner::Ctx(ci, inst))?;
        let c = &mut self.rsp.ctxs[usize::from(ci)];
        if !c.in_use || c.inst != inst {
            return Err(ModelError::Internal(format!(
                "context {ci} ended with a write in flight"
            )));
        }
        c.writes -= 1;
        if ok {
            c.done += 1;
        } else {
            self.sh.counters.err_host_write += 1;
            c.status.get_or_insert(Status::RemoteAccessError);
        }
        self.ctx_settle(t, ci, out)
    }

    /// Observer: every write context whose deadline has passed acts on it now (a device acts
    /// on it anywhere in `[deadline, deadline + timer_slack]`, without an output to show it).
    pub(crate) fn force_ctx_deadlines(
        &mut self,
        now: u64,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        let due: Vec<(u16, u32)> = self
            .rsp
            .ctxs
            .iter()
            .zip(0u16..)
            .filter(|(c, _)| c.in_use && c.status.is_none() && c.deadline <= now)
            .map(|(c, i)| (i, c.inst))
            .collect();
        for (ci, inst) in due {
            self.on_ctx_deadline(ci, inst, out)?;
        }
        Ok(())
    }

    pub(crate) fn on_ctx_deadline(
        &mut self,
        ci: u16,
        inst: u32,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        let c = &mut self.rsp.ctxs[usize::from(ci)];
        if !c.in_use || c.inst != inst || c.status.is_some() {
            return Ok(());
        }
        let deadline = c.deadline;
        self.ctx_settle(deadline, ci, out)
    }

    /// Ends a context once nothing of it is in flight: WR_CMPL with its status (or OK when every
    /// chunk is written), nothing if it expired (§8.4). A chunk whose tag failed after the
    /// deadline can no longer arrive, so the context expires then.
    fn ctx_settle(&mut self, now: u64, ci: u16, out: &mut Outputs) -> Result<(), ModelError> {
        let c = &mut self.rsp.ctxs[usize::from(ci)];
        if c.in_use
            && !c.expired
            && c.status.is_none()
            && now >= c.deadline
            && c.chunks[..c.n_chunks as usize].contains(&Chunk::Missing)
        {
            c.expired = true;
            self.sh.counters.ctx_timeouts += 1;
        }
        let c = &self.rsp.ctxs[usize::from(ci)];
        if !c.in_use || c.pending > 0 || c.writes > 0 {
            return Ok(());
        }
        let status = if c.expired {
            None
        } else if let Some(s) = c.status {
            Some(s)
        } else if c.done == c.n_chunks {
            Some(Status::Ok)
        } else {
            return Ok(());
        };
        if let Some(status) = status {
            let h = Hdr {
                msg_type: MsgType::WrCmpl,
                status,
                dst_nic: c.req.src_nic,
                prev_counter: c.rdreq_counter,
                ctx: ci,
                chunk_offset: 0,
                chunk_len: 0,
                hold_ns: 0,
                ..c.req.clone()
            };
            let kd = c.kd.clone();
            self.send_empty(h, &kd, out)?;
        }
        let c = &mut self.rsp.ctxs[usize::from(ci)];
        c.in_use = false;
        let inst = c.inst;
        self.rsp.ctx_free.push(ci);
        self.sh.window.release(Owner::Ctx(ci, inst))
    }
}
