//! One onerma NIC (protocol.md v2): the initiator half ([`crate::initiator`]), the responder half
//! ([`crate::responder`]) and the state they share ([`crate::shared`]), driven by inputs with a
//! cycle and one timer queue.
//!
//! Inputs: [`Nic::submit`] / [`Nic::write_cmd_page`] (MMIO), [`Nic::receive`] (a frame whose
//! last beat arrived at `now`), [`Nic::advance`] (time passes: timers, crypto results, DMA
//! completions), and in manual mode the hardware's choices ([`Nic::dispatch`],
//! [`Nic::serve_inbound`]). Outputs go to [`Outputs`] (frames to send, completions) and to the
//! NIC's host port (DMA, logged by [`HostMem`]). Every time is a cycle count of this NIC's clock;
//! an input earlier than the previous one is an error, never clamped.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use onerma_layouts::{Cmd, Cpl, Hdr, MsgType, RrtEntry, Status};

use crate::config::NicConfig;
use crate::crypto::{CipherKey, Crypto};
use crate::error::{ChoiceError, ModelError, SubmitError};
use crate::host::{HostMem, HostPort};
use crate::initiator::Initiator;
use crate::policy::{DefaultPolicy, Policy};
use crate::responder::{InQueue, KeyInstall, Responder};
use crate::shared::{EMPTY_RRT, NicCounters, RrtRow, Shared};

/// One completion the NIC produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The record as written to host memory.
    pub cpl: Cpl,
    pub slot: u16,
    /// The command as submitted (after clearing reserved bits).
    pub cmd: Cmd,
    pub t_sub: u64,
    pub t_disp: Option<u64>,
    /// Cycle the NIC issued the completion record's write.
    pub t_cpl: u64,
    /// Cycle the record is complete in host memory (= `t_cpl` if it could not be written).
    pub visible: u64,
    /// Whether the record reached host memory (§11: a failed generation check or DMA error on
    /// the completion region itself leaves only `err_cq_write`).
    pub delivered: bool,
    /// Counter of the op's hop-1 request, if it was sent.
    pub req_counter: Option<u64>,
    /// The op's deadline when it ended (dispatch + `op_timeout`, or the WRITE re-arm), if it
    /// was dispatched.
    pub deadline: Option<u64>,
}

/// What the NIC produced while handling one input.
#[derive(Debug, Default)]
pub struct Outputs {
    /// Frames to put on the fabric, in send order.
    pub messages: Vec<Vec<u8>>,
    pub completions: Vec<Completion>,
}

impl Outputs {
    pub fn clear(&mut self) {
        self.messages.clear();
        self.completions.clear();
    }
}

/// Result of an accepted doorbell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubmitOutcome {
    /// The op entered its class queue.
    Queued { seq: u16 },
    /// The op completed at once (BAD_COMMAND or LOCAL_ACCESS_ERROR).
    Completed { seq: u16, status: Status },
}

/// Why a received frame was dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    Malformed,
    Misaddressed,
    /// Matches no live slot or context, or an echoed field differs.
    Stale,
    /// A copy of a chunk that is pending or done (§7.4).
    Dup,
    /// Tag did not verify (known at once for frames without payload; payload chunks report it
    /// when their tag result comes).
    Auth,
    /// WR_DATA at or after the server context's deadline.
    Late,
    /// WR_RDREQ with `hold_ns > max_hold_ns`.
    Hold,
    /// A reply was due but the message counter is exhausted.
    CounterExhausted,
}

/// What happened to one received frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RxOutcome {
    /// Hop-1 request authenticated, checked and queued.
    Enqueued,
    /// Hop-1 request answered at once with this message type (AUTH_FAIL, ACCESS_ERR, NACK).
    Replied(MsgType),
    /// Accepted by a slot or a server context (a payload chunk: pending until its tag result).
    Accepted,
    Dropped(DropReason),
}

/// What a timer does when it fires. Each names the op or context instance it belongs to; one
/// whose instance is no longer live does nothing (S3).
#[derive(Debug)]
pub(crate) enum Event {
    DispatchExpire {
        slot: u16,
        inst: u32,
    },
    OpDeadline {
        slot: u16,
        inst: u32,
        at: u64,
    },
    /// Tag result of a received RD_RESP chunk (decrypted data kept for the host write).
    RdRespTag {
        slot: u16,
        inst: u32,
        chunk: u32,
        ok: bool,
        data: Vec<u8>,
    },
    /// A READ chunk's host write finished.
    ReadLanded {
        slot: u16,
        inst: u32,
        chunk: u32,
        ok: bool,
    },
    /// WRITE source data of a chunk is in (frame payload filled) or the read failed.
    WrSource {
        slot: u16,
        inst: u32,
        chunk: u32,
        frame: Vec<u8>,
        ok: bool,
    },
    /// Server READ chunk data is in.
    RdServe {
        read: u64,
        chunk: u32,
        frame: Vec<u8>,
        ok: bool,
    },
    /// Tag result of a received WR_DATA chunk.
    WrDataTag {
        ctx: u16,
        inst: u32,
        chunk: u32,
        ok: bool,
        data: Vec<u8>,
    },
    /// A WRITE chunk's host write at the server finished.
    CtxWritten {
        ctx: u16,
        inst: u32,
        ok: bool,
    },
    CtxDeadline {
        ctx: u16,
        inst: u32,
    },
    AgeOut {
        queue: InQueue,
        id: u64,
    },
    /// The host read channel is free again (a READ may be servable).
    Wake,
}

#[derive(Debug)]
struct TimerEntry {
    time: u64,
    seq: u64,
    ev: Event,
}

impl PartialEq for TimerEntry {
    fn eq(&self, o: &Self) -> bool {
        (self.time, self.seq) == (o.time, o.seq)
    }
}
impl Eq for TimerEntry {}
impl PartialOrd for TimerEntry {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for TimerEntry {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.time, self.seq).cmp(&(o.time, o.seq))
    }
}

/// FIFO queues for the events armed at `now + a constant` and for DMA completions (a FIFO
/// channel's completion times never decrease), a heap for the rest; an event lands in its FIFO
/// only if that keeps the FIFO sorted, so any host port stays correct.
const NFIFO: usize = 7;

fn fifo_of(ev: &Event) -> Option<usize> {
    match ev {
        Event::DispatchExpire { .. } => Some(0),
        Event::OpDeadline { .. } => Some(1),
        Event::RdRespTag { .. } | Event::WrDataTag { .. } => Some(2),
        Event::CtxDeadline { .. } => Some(3),
        Event::AgeOut { .. } => Some(4),
        Event::RdServe { .. } | Event::WrSource { .. } => Some(5),
        Event::ReadLanded { .. } | Event::CtxWritten { .. } => Some(6),
        _ => None,
    }
}

/// Where the earliest timer is: `fifo` `Some(k)` a FIFO, `None` the heap.
#[derive(Debug, Clone, Copy)]
struct Head {
    fifo: Option<usize>,
    time: u64,
    seq: u64,
}

/// Timers in (time, arming order): equal times fire in the order they were armed.
#[derive(Debug, Default)]
pub(crate) struct Timers {
    fifo: [VecDeque<TimerEntry>; NFIFO],
    heap: BinaryHeap<Reverse<TimerEntry>>,
    seq: u64,
    /// The earliest entry, kept up to date by every change: each input asks for it several
    /// times (due timers, the next wake-up), and scanning every queue each time showed in
    /// profiles.
    head: Option<Head>,
}

impl Timers {
    // Inlined: every arming site knows its event's kind, so the FIFO choice folds away and the
    // event is built where it is stored.
    #[inline(always)]
    pub(crate) fn push(&mut self, time: u64, ev: Event) {
        self.seq += 1;
        let seq = self.seq;
        let e = TimerEntry { time, seq, ev };
        let fifo = match fifo_of(&e.ev) {
            Some(k) if self.fifo[k].back().is_none_or(|b| b.time <= time) => {
                self.fifo[k].push_back(e);
                Some(k)
            }
            _ => {
                self.heap.push(Reverse(e));
                None
            }
        };
        // The newest entry has the largest seq, so it is the earliest only if strictly sooner.
        if self.head.is_none_or(|h| time < h.time) {
            self.head = Some(Head { fifo, time, seq });
        }
    }

    /// Scans every queue for the earliest entry. Inlined into its two callers (after each due
    /// timer, after a tidy that dropped the earliest): the call cost as much as the scan.
    #[inline(always)]
    fn scan(&self) -> Option<Head> {
        let mut best: Option<Head> = self.heap.peek().map(|e| Head {
            fifo: None,
            time: e.0.time,
            seq: e.0.seq,
        });
        for (k, q) in self.fifo.iter().enumerate() {
            if let Some(e) = q.front()
                && best.is_none_or(|b| (e.time, e.seq) < (b.time, b.seq))
            {
                best = Some(Head {
                    fifo: Some(k),
                    time: e.time,
                    seq: e.seq,
                });
            }
        }
        best
    }

    fn first(&self) -> Option<u64> {
        self.head.map(|h| h.time)
    }

    fn pop_due(&mut self, now: u64) -> Option<(u64, Event)> {
        let h = self.head?;
        if h.time > now {
            return None;
        }
        let e = match h.fifo {
            Some(k) => self.fifo[k].pop_front()?,
            None => self.heap.pop()?.0,
        };
        self.head = self.scan();
        Some((e.time, e.ev))
    }

    /// Drops entries at the fronts that can no longer do anything, so the NIC is not woken for
    /// them (each wake-up is a system event). `live` answers for any entry; `fifo_live` for the
    /// four FIFOs whose kinds can die (`fifo_of`: dispatch expiries, op deadlines, context
    /// deadlines, age-outs), each holding one kind, so that their tests compile to that kind's
    /// test alone; tag results and DMA completions always act.
    // Inlined into the NIC's one caller, where the liveness tests are known.
    #[inline(always)]
    fn tidy(&mut self, fifo_live: [&dyn Fn(&Event) -> bool; 4], live: impl Fn(&Event) -> bool) {
        // Dropping entries other than the earliest leaves the earliest where it is, so the queues
        // are scanned again only if the earliest went (most drops are of later entries: the
        // expiry of an op just dispatched, the age-out of a request just served).
        let head_seq = self.head.map_or(0, |h| h.seq);
        // Tidy runs after every input and most of these queues are empty then (an op's expiry
        // and a request's age-out die within an input or two): each is looked at in
        // straight-line code that tests its length first, not in a loop that loads every front.
        let [f0, f1, _, f3, f4, _, _] = &mut self.fifo;
        let [l0, l1, l3, l4] = fifo_live;
        let mut head_dropped = drop_dead(f0, l0, head_seq);
        head_dropped |= drop_dead(f1, l1, head_seq);
        head_dropped |= drop_dead(f3, l3, head_seq);
        head_dropped |= drop_dead(f4, l4, head_seq);
        while let Some(e) = self.heap.peek()
            && !live(&e.0.ev)
        {
            head_dropped |= e.0.seq == head_seq;
            self.heap.pop();
        }
        if head_dropped {
            self.head = self.scan();
        }
    }
}

/// Pops the dead entries at the front of `q`; whether the entry numbered `head_seq` was one.
/// (Sequence numbers start at 1, so 0 matches no entry when there is no earliest.)
#[inline(always)]
fn drop_dead(q: &mut VecDeque<TimerEntry>, live: &dyn Fn(&Event) -> bool, head_seq: u64) -> bool {
    let mut dropped = false;
    while let Some(e) = q.front()
        && !live(&e.ev)
    {
        dropped |= e.seq == head_seq;
        q.pop_front();
    }
    dropped
}

/// One onerma NIC.
pub struct Nic {
    pub(crate) cfg: NicConfig,
    pub(crate) sh: Shared,
    pub(crate) ini: Initiator,
    pub(crate) rsp: Responder,
    pub(crate) timers: Timers,
    pub(crate) policy: Box<dyn Policy>,
    pub(crate) manual: bool,
    /// Manual mode: lines the 64-line admission rule may count as free beyond the window's (an
    /// observer's allowance for reservations it applied in another order than the device).
    pub(crate) admit_slack: u32,
    /// Manual mode: cycles a WRITE/REKEY request discarded by age is kept, so that an observer
    /// can revive it (the device's service shows only when its WR_RDREQ leaves, up to `tx_lag`
    /// after the decision).
    pub(crate) write_age_lag: u64,
    /// Manual mode: the NACK skew (§7.2 step 4): with the occupancy in `[nack_depth,
    /// nack_depth + nack_skew)` a request is enqueued but may turn out NACKed by the device.
    pub(crate) nack_skew: usize,
    /// `nic_enable = 0` (§1.1): frames are dropped as misaddressed, command writes refused as to
    /// disabled slots, nothing is dispatched. A NIC is built enabled (the driver's bring-up done).
    pub(crate) stopped: bool,
    last_now: u64,
    wake_at: Option<u64>,
    /// The tag result of an RD_RESP chunk received in this input with a zero receive-crypto
    /// latency: due at once, it is acted on by [`Nic::receive`] right after the frame instead of
    /// going through the timer queue (where it would be the one entry due: the input fired every
    /// earlier timer before the frame). Always an [`Event::RdRespTag`].
    pub(crate) tag_now: Option<Event>,
    /// Every driver commit of the RRT `(cycle, region, entry, generation)`, when logging host writes
    /// (the invariants need the region table at the time of each access).
    pub rrt_log: Option<Vec<(u64, u16, RrtEntry, u16)>>,
    /// Every REKEY install, when logging host writes.
    pub key_log: Option<Vec<KeyInstall>>,
}

impl std::fmt::Debug for Nic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nic")
            .field("nic_addr", &self.cfg.nic_addr)
            .field("window_free", &self.sh.window.free())
            .field("counters", &self.sh.counters)
            .finish_non_exhaustive()
    }
}

impl Nic {
    /// A NIC after reset with the default host model ([`HostMem`]).
    ///
    /// # Errors
    /// [`ModelError::Config`] if the configuration is out of range.
    pub fn new(cfg: NicConfig) -> Result<Self, ModelError> {
        let host = Box::new(HostMem::new(cfg.host, cfg.log_host_writes));
        Self::with_host(cfg, host)
    }

    /// A NIC after reset behind a custom host port: every slot disabled, every RRT entry
    /// invalid, window full.
    ///
    /// # Errors
    /// [`ModelError::Config`] if the configuration is out of range.
    pub fn with_host(cfg: NicConfig, host: Box<dyn HostPort>) -> Result<Self, ModelError> {
        cfg.validate()?;
        let sh = Shared::new(
            cfg.nic_addr,
            cfg.epoch,
            cfg.num_regions,
            cfg.window_lines,
            Crypto::new(cfg.record_key_iv),
            host,
        );
        Ok(Self {
            ini: Initiator::new(&cfg),
            rsp: Responder::new(&cfg),
            sh,
            timers: Timers::default(),
            policy: Box::new(DefaultPolicy),
            manual: false,
            admit_slack: 0,
            write_age_lag: 0,
            nack_skew: 0,
            stopped: false,
            last_now: 0,
            wake_at: None,
            tag_now: None,
            rrt_log: cfg.log_host_writes.then(Vec::new),
            key_log: cfg.log_host_writes.then(Vec::new),
            cfg,
        })
    }

    #[must_use]
    pub fn config(&self) -> &NicConfig {
        &self.cfg
    }

    #[must_use]
    pub fn addr(&self) -> u32 {
        self.cfg.nic_addr
    }

    /// Replaces the arbitration policy used in automatic mode.
    pub fn set_policy(&mut self, p: Box<dyn Policy>) {
        self.policy = p;
    }

    /// Manual mode: dispatch and inbound service happen only through [`Nic::dispatch`] and
    /// [`Nic::serve_inbound`], the hardware's choices, each checked for legality.
    pub fn set_manual(&mut self, manual: bool) {
        self.manual = manual;
    }

    /// The driver wrote `nic_enable` at `now` (§1.1): `false` stops the NIC, `true` starts it
    /// again. Timers due by `now` fire first; a started NIC dispatches at once (automatic mode).
    ///
    /// # Errors
    /// Time went back, or an internal inconsistency of the model.
    pub fn set_enabled(
        &mut self,
        now: u64,
        enabled: bool,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        let now = self.clock(now)?;
        self.fire_timers(now, out)?;
        self.stopped = !enabled;
        self.pump(now, out)
    }

    /// Whether `nic_enable` is 1.
    #[must_use]
    pub fn enabled(&self) -> bool {
        !self.stopped
    }

    /// Sets the `count` part of the message counter (tests of exhaustion; a reset sets 1).
    pub fn set_count(&mut self, count: u64) {
        self.sh.set_count(count);
    }

    // ---- driver (configuration interface) ----

    /// Allocates a slot to a process: the PID is fixed until the slot is disabled. Enabling
    /// clears the slot's staging buffer and written-byte mask (§2.1).
    ///
    /// # Errors
    /// Unknown slot, or the slot has an op in flight (the register write is refused).
    pub fn enable_slot(&mut self, slot: u16, pid: u32) -> Result<(), ModelError> {
        self.ini.enable(slot, pid)
    }

    /// Takes a slot away from its process.
    ///
    /// # Errors
    /// Unknown slot, or the slot has an op in flight.
    pub fn disable_slot(&mut self, slot: u16) -> Result<(), ModelError> {
        self.ini.disable(slot)
    }

    /// Commits an RRT entry at `now` (register, change, or deregister with `valid = 0`); both
    /// generations of the row advance (§4.1).
    ///
    /// # Errors
    /// Unknown region, or a 1-bit field holding more than one bit.
    pub fn commit_rrt(&mut self, now: u64, region: u16, e: RrtEntry) -> Result<(), ModelError> {
        self.sh.rrt.commit(region, e.clone())?;
        if let (Some(log), Some(r)) = (self.rrt_log.as_mut(), self.sh.rrt.get(region)) {
            log.push((now, region, e, r.generation));
        }
        Ok(())
    }

    /// [`Nic::commit_rrt`] at the NIC's current time.
    ///
    /// # Errors
    /// As [`Nic::commit_rrt`].
    pub fn write_rrt(&mut self, region: u16, e: RrtEntry) -> Result<(), ModelError> {
        self.commit_rrt(self.last_now, region, e)
    }

    /// Invalidates an RRT entry.
    ///
    /// # Errors
    /// Unknown region.
    pub fn deregister(&mut self, region: u16) -> Result<(), ModelError> {
        self.write_rrt(region, EMPTY_RRT)
    }

    /// The driver-written entry of a region.
    #[must_use]
    pub fn rrt(&self, region: u16) -> Option<&RrtEntry> {
        self.sh.rrt.get(region).map(|r| &r.e)
    }

    /// The row with its generations.
    #[must_use]
    pub fn rrt_row(&self, region: u16) -> Option<&RrtRow> {
        self.sh.rrt.get(region)
    }

    // ---- observation ----

    /// Host memory behind the NIC, if the port is a [`HostMem`].
    #[must_use]
    pub fn mem(&self) -> Option<&HostMem> {
        self.sh.host.mem()
    }

    /// Mutable host memory (software's writes), if the port is a [`HostMem`].
    pub fn mem_mut(&mut self) -> Option<&mut HostMem> {
        self.sh.host.mem_mut()
    }

    #[must_use]
    pub fn counters(&self) -> &NicCounters {
        &self.sh.counters
    }

    /// Crypto engine (exposes the (key, IV) log).
    #[must_use]
    pub fn crypto(&self) -> &Crypto {
        &self.sh.crypto
    }

    /// Free window lines.
    #[must_use]
    pub fn window_free(&self) -> u32 {
        self.sh.window.free()
    }

    #[must_use]
    pub fn inbound_len(&self) -> usize {
        self.rsp.occupancy()
    }

    #[must_use]
    pub fn class_len(&self, class: u8) -> usize {
        self.ini.class_len(class)
    }

    #[must_use]
    pub fn contexts_in_use(&self) -> usize {
        self.rsp.contexts_in_use()
    }

    /// Whether the slot holds an op (queued, in service or completing).
    #[must_use]
    pub fn slot_busy(&self, slot: u16) -> bool {
        self.ini.busy(slot)
    }

    /// Earliest cycle a new command may be written to the slot.
    #[must_use]
    pub fn slot_free_at(&self, slot: u16) -> u64 {
        self.ini.free_at(slot)
    }

    /// No op queued or in flight, no inbound work, no server context, window full.
    #[must_use]
    pub fn is_idle(&self) -> bool {
        self.ini.idle()
            && self.rsp.idle()
            && self.sh.window.free() == self.sh.window.total()
            && self.sh.window.holders() == 0
    }

    /// What keeps the NIC from being idle (diagnostics), `None` when idle.
    #[must_use]
    pub fn busy_detail(&self) -> Option<String> {
        if self.is_idle() {
            return None;
        }
        Some(format!(
            "initiator idle {}, responder idle {} (queued {}, contexts {}), window {} of {} free, {} holders",
            self.ini.idle(),
            self.rsp.idle(),
            self.rsp.occupancy(),
            self.rsp.contexts_in_use(),
            self.sh.window.free(),
            self.sh.window.total(),
            self.sh.window.holders()
        ))
    }

    /// Next cycle at which [`Nic::advance`] has work.
    #[must_use]
    pub fn next_wakeup(&self) -> Option<u64> {
        self.timers.first()
    }

    /// Legal class choices now (manual mode): ready classes if the window and counter allow a
    /// dispatch, restricted by the anti-starvation bound.
    #[must_use]
    pub fn ready_classes(&self) -> Vec<u8> {
        if self.stopped || self.sh.window.free() < crate::wire::QUANTUM_LINES || !self.sh.can_send()
        {
            return Vec::new();
        }
        self.ini.ready_classes()
    }

    /// Legal inbound choices now (manual mode): the queues whose head can be served.
    #[must_use]
    pub fn servable_inbound(&self, now: u64) -> Vec<InQueue> {
        [InQueue::Read, InQueue::Write]
            .into_iter()
            .filter(|&q| self.servable(now, q).is_ok())
            .collect()
    }

    // ---- inputs ----

    fn clock(&mut self, now: u64) -> Result<u64, ModelError> {
        if now < self.last_now {
            return Err(ModelError::TimeWentBack {
                now,
                last: self.last_now,
            });
        }
        self.last_now = now;
        Ok(now)
    }

    /// Lets time pass to `now`: fires every timer due, then (automatic mode) lets the policy
    /// dispatch and serve.
    ///
    /// # Errors
    /// Time went back, or an internal inconsistency of the model.
    pub fn advance(&mut self, now: u64, out: &mut Outputs) -> Result<(), ModelError> {
        let now = self.clock(now)?;
        self.fire_timers(now, out)?;
        self.pump(now, out)
    }

    /// The doorbell of a whole command: one 64-byte write to `slot`'s command page.
    ///
    /// # Errors
    /// The SLVERR cases (§2.1, §2.2 step 1): the command gets no completion; or
    /// [`SubmitError::Model`].
    pub fn submit(
        &mut self,
        now: u64,
        slot: u16,
        cmd: &[u8],
        out: &mut Outputs,
    ) -> Result<SubmitOutcome, SubmitError> {
        if cmd.len() != Cmd::BYTES {
            return Err(SubmitError::BadLength(cmd.len()));
        }
        match self.write_cmd_page(now, slot, 0, cmd, out)? {
            Some(o) => Ok(o),
            None => Err(SubmitError::Model(ModelError::Internal(
                "a whole-command write did not complete the mask".into(),
            ))),
        }
    }

    /// A write of `bytes` at `offset` of `slot`'s command page (§2.1): stored with its mask
    /// bits; the write that completes the mask submits the command. `Ok(None)`: stored, no
    /// submission yet.
    ///
    /// # Errors
    /// As [`Nic::submit`]; a write past byte 63 is [`SubmitError::BadLength`].
    pub fn write_cmd_page(
        &mut self,
        now: u64,
        slot: u16,
        offset: usize,
        bytes: &[u8],
        out: &mut Outputs,
    ) -> Result<Option<SubmitOutcome>, SubmitError> {
        let now = self.clock(now).map_err(SubmitError::Model)?;
        self.fire_timers(now, out).map_err(SubmitError::Model)?;
        let r = self.page_write(now, slot, offset, bytes, out);
        self.pump(now, out).map_err(SubmitError::Model)?;
        r
    }

    /// A frame arrives from the fabric; `now` is the cycle of its last beat.
    ///
    /// # Errors
    /// Time went back, or an internal inconsistency of the model. Bad frames are never errors:
    /// they are drops.
    pub fn receive(
        &mut self,
        now: u64,
        frame: &[u8],
        out: &mut Outputs,
    ) -> Result<RxOutcome, ModelError> {
        let now = self.clock(now)?;
        self.fire_timers(now, out)?;
        self.sh.counters.msgs_received += 1;
        let r = self.rx(now, frame, out)?;
        // A zero-latency tag result is due now: act on it in this input, not a wake-up later,
        // in the order the timer queue would have (first, then whatever it arms for now).
        if let Some(ev) = self.tag_now.take() {
            self.fire_event(now, ev, out)?;
        }
        self.fire_timers(now, out)?;
        if let RxOutcome::Dropped(d) = r {
            let c = &mut self.sh.counters;
            match d {
                DropReason::Malformed => c.drop_malformed += 1,
                DropReason::Misaddressed => c.drop_misaddressed += 1,
                DropReason::Stale => c.drop_stale += 1,
                DropReason::Dup => c.drop_dup += 1,
                DropReason::Auth => c.drop_auth += 1,
                DropReason::Late => c.drop_late += 1,
                DropReason::Hold => c.drop_hold += 1,
                DropReason::CounterExhausted => c.status_counter_exhausted = true,
            }
        }
        self.pump(now, out)?;
        Ok(r)
    }

    /// Gives the NIC a frame nobody needs any more, to build a later frame in.
    pub fn recycle(&mut self, frame: Vec<u8>) {
        self.sh.recycle(frame);
    }

    /// Manual mode: the hardware dispatched the head of `class` at `now`. Returns its slot.
    ///
    /// # Errors
    /// The choice was illegal, or the NIC is in automatic mode.
    pub fn dispatch(&mut self, now: u64, class: u8, out: &mut Outputs) -> Result<u16, ChoiceError> {
        if !self.manual {
            return Err(ChoiceError::AutoMode);
        }
        let now = self.clock(now).map_err(ChoiceError::Model)?;
        self.fire_timers(now, out).map_err(ChoiceError::Model)?;
        if self.ini.class_len(class) == 0 {
            return Err(ChoiceError::EmptyClass(class));
        }
        let free = self.sh.window.free();
        if free + self.admit_slack < crate::wire::QUANTUM_LINES {
            return Err(ChoiceError::WindowShort { class, free });
        }
        if !self.sh.can_send() {
            return Err(ChoiceError::CounterExhausted);
        }
        if self.stopped {
            return Err(ChoiceError::Stopped);
        }
        if !self.ini.may_dispatch(class) {
            return Err(ChoiceError::Starvation(class));
        }
        self.do_dispatch(now, class, out)
            .map_err(ChoiceError::Model)
    }

    /// Manual mode: the hardware served the head of inbound queue `q` at `now`.
    ///
    /// # Errors
    /// The queue is empty or its head could not be served now, or the NIC is in automatic mode.
    pub fn serve_inbound(
        &mut self,
        now: u64,
        q: InQueue,
        out: &mut Outputs,
    ) -> Result<(), ChoiceError> {
        if !self.manual {
            return Err(ChoiceError::AutoMode);
        }
        let now = self.clock(now).map_err(ChoiceError::Model)?;
        self.fire_timers(now, out).map_err(ChoiceError::Model)?;
        self.servable(now, q)?;
        let r = self.do_serve(now, q, out).map_err(ChoiceError::Model);
        self.tidy();
        r
    }

    /// Observer: the device's op deadline on `slot` acted at `now`, before this model's (the
    /// device dispatched up to its transmit latency before its request was seen).
    pub(crate) fn force_timeout(
        &mut self,
        now: u64,
        slot: u16,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        let now = self.clock(now)?;
        self.fire_timers(now, out)?;
        self.finish(now, slot, Status::Timeout, out)
    }

    /// Observer: the device reported `slot`'s queued op as expired (its record) while the
    /// shadow still holds it for `dispatch_lag`: the expiry acts now.
    pub(crate) fn force_dispatch_expire(
        &mut self,
        now: u64,
        slot: u16,
        out: &mut Outputs,
    ) -> Result<(), ModelError> {
        let now = self.clock(now)?;
        self.fire_timers(now, out)?;
        let inst = self.ini.slot_inst(slot);
        self.on_dispatch_expire(now, slot, inst, out)
    }

    // ---- internals ----

    /// Every input starts here and most find nothing due: that test is inlined into the caller,
    /// the large body is called only when a timer is due.
    #[inline]
    fn fire_timers(&mut self, now: u64, out: &mut Outputs) -> Result<(), ModelError> {
        if self.timers.first().is_some_and(|t| t <= now) {
            self.fire_due(now, out)
        } else {
            Ok(())
        }
    }

    #[inline(never)]
    fn fire_due(&mut self, now: u64, out: &mut Outputs) -> Result<(), ModelError> {
        while let Some((t, ev)) = self.timers.pop_due(now) {
            self.fire_event(t, ev, out)?;
        }
        Ok(())
    }

    /// Acts on one timer event due at `t`: popped by [`Nic::fire_due`], or a zero-latency tag
    /// result taken from [`Nic::tag_now`].
    #[inline]
    fn fire_event(&mut self, t: u64, ev: Event, out: &mut Outputs) -> Result<(), ModelError> {
        match ev {
            Event::DispatchExpire { slot, inst } => self.on_dispatch_expire(t, slot, inst, out)?,
            Event::OpDeadline { slot, inst, at } => self.on_op_deadline(t, slot, inst, at, out)?,
            Event::RdRespTag {
                slot,
                inst,
                chunk,
                ok,
                data,
            } => {
                let r = self.on_rd_resp_tag(t, slot, inst, chunk, ok, &data, out);
                self.sh.recycle(data);
                r?
            }
            Event::ReadLanded {
                slot,
                inst,
                chunk,
                ok,
            } => self.on_read_landed(t, slot, inst, chunk, ok, out)?,
            Event::WrSource {
                slot,
                inst,
                chunk,
                frame,
                ok,
            } => self.on_wr_source(t, slot, inst, chunk, frame, ok, out)?,
            Event::RdServe {
                read,
                chunk,
                frame,
                ok,
            } => self.on_rd_serve(read, chunk, frame, ok, out)?,
            Event::WrDataTag {
                ctx,
                inst,
                chunk,
                ok,
                data,
            } => {
                let r = self.on_wr_data_tag(t, ctx, inst, chunk, ok, &data, out);
                self.sh.recycle(data);
                r?
            }
            Event::CtxWritten { ctx, inst, ok } => self.on_ctx_written(t, ctx, inst, ok, out)?,
            Event::CtxDeadline { ctx, inst } => self.on_ctx_deadline(ctx, inst, out)?,
            Event::AgeOut { queue, id } => self.on_age_out(t, queue, id),
            Event::Wake => {
                if self.wake_at == Some(t) {
                    self.wake_at = None;
                }
            }
        }
        Ok(())
    }

    // Inlined into `pump` (and `serve_inbound`): it runs after every input, and most of it is
    // a few length tests now, which the call's register saves and restores outweighed.
    #[inline(always)]
    fn tidy(&mut self) {
        let (ini, rsp) = (&self.ini, &self.rsp);
        let live = |ev: &Event| match *ev {
            Event::DispatchExpire { slot, inst } => ini.queued(slot, inst),
            Event::OpDeadline { slot, inst, at } => ini.deadline_live(slot, inst, at),
            Event::CtxDeadline { ctx, inst } => rsp.deadline_live(ctx, inst),
            Event::AgeOut { queue, id } => rsp.queued(queue, id),
            _ => true,
        };
        // Each FIFO's test names its one kind (anything else there is never dead).
        let expire = |ev: &Event| match *ev {
            Event::DispatchExpire { slot, inst } => ini.queued(slot, inst),
            _ => true,
        };
        let deadline = |ev: &Event| match *ev {
            Event::OpDeadline { slot, inst, at } => ini.deadline_live(slot, inst, at),
            _ => true,
        };
        let ctx = |ev: &Event| match *ev {
            Event::CtxDeadline { ctx, inst } => rsp.deadline_live(ctx, inst),
            _ => true,
        };
        let age = |ev: &Event| match *ev {
            Event::AgeOut { queue, id } => rsp.queued(queue, id),
            _ => true,
        };
        self.timers.tidy([&expire, &deadline, &ctx, &age], live);
    }

    fn pump(&mut self, now: u64, out: &mut Outputs) -> Result<(), ModelError> {
        let r = self.pump_inner(now, out);
        self.tidy();
        r
    }

    fn pump_inner(&mut self, now: u64, out: &mut Outputs) -> Result<(), ModelError> {
        // Nothing to dispatch or serve (after most inputs): the loop would find that out the
        // long way, and with no READ queued no wake-up is due either.
        if self.manual || (self.ini.waiting() == 0 && self.rsp.occupancy() == 0) {
            return Ok(());
        }
        loop {
            let mut progressed = false;
            if !self.stopped
                && self.sh.window.free() >= crate::wire::QUANTUM_LINES
                && self.sh.can_send()
            {
                let mut buf = [0u8; crate::config::MAX_CLASSES];
                let n = self.ini.ready_into(&mut buf);
                let ready = &buf[..n];
                if !ready.is_empty()
                    && let Some(c) = self.policy.pick_class(now, ready)
                {
                    if !ready.contains(&c) {
                        return Err(ModelError::Internal(format!(
                            "policy picked class {c}, not one of {ready:?}"
                        )));
                    }
                    self.do_dispatch(now, c, out)?;
                    progressed = true;
                }
            }
            let mut buf = [InQueue::Read; 2];
            let mut n = 0;
            for q in [InQueue::Read, InQueue::Write] {
                if self.servable(now, q).is_ok() {
                    buf[n] = q;
                    n += 1;
                }
            }
            let sv = &buf[..n];
            if !sv.is_empty()
                && let Some(q) = self.policy.pick_inbound(now, sv)
            {
                if !sv.contains(&q) {
                    return Err(ModelError::Internal(format!(
                        "policy picked queue {q:?}, not one of {sv:?}"
                    )));
                }
                self.do_serve(now, q, out)?;
                progressed = true;
            }
            if !progressed {
                break;
            }
        }
        // A READ waiting only for the host read channel needs a wake-up when it frees.
        let rd = self.sh.host.read_ready_at();
        if rd > now && self.rsp.has_reads() && self.wake_at != Some(rd) {
            self.wake_at = Some(rd);
            self.timers.push(rd, Event::Wake);
        }
        Ok(())
    }

    /// The reserved key (AUTH_FAIL).
    pub(crate) fn reserved(&self) -> CipherKey {
        self.sh.reserved.clone()
    }

    /// Sends a header-only message; `Ok(None)` if the counter is exhausted.
    pub(crate) fn send_empty(
        &mut self,
        h: Hdr,
        key: &CipherKey,
        out: &mut Outputs,
    ) -> Result<Option<u64>, ModelError> {
        self.sh.send_empty(h, key, &mut out.messages)
    }
}

#[cfg(test)]
mod timer_tests {
    use super::{Event, Timers};

    fn expire(slot: u16) -> Event {
        Event::DispatchExpire { slot, inst: 0 }
    }

    fn deadline(slot: u16) -> Event {
        Event::OpDeadline {
            slot,
            inst: 0,
            at: 0,
        }
    }

    fn slot_of(e: &Event) -> Option<u16> {
        match e {
            Event::DispatchExpire { slot, .. } | Event::OpDeadline { slot, .. } => Some(*slot),
            _ => None,
        }
    }

    /// Each event armed at `now + a constant` (or a DMA completion) lands in its own FIFO while
    /// that keeps the FIFO sorted, and in the heap when it would not: the FIFOs are the point of
    /// the structure (profiles), the heap the fallback.
    #[test]
    fn events_land_in_their_fifo_unless_out_of_order() {
        use crate::responder::InQueue;
        let kinds = [
            Event::DispatchExpire { slot: 0, inst: 0 },
            Event::OpDeadline {
                slot: 0,
                inst: 0,
                at: 0,
            },
            Event::RdRespTag {
                slot: 0,
                inst: 0,
                chunk: 0,
                ok: true,
                data: Vec::new(),
            },
            Event::WrDataTag {
                ctx: 0,
                inst: 0,
                chunk: 0,
                ok: true,
                data: Vec::new(),
            },
            Event::CtxDeadline { ctx: 0, inst: 0 },
            Event::AgeOut {
                queue: InQueue::Read,
                id: 0,
            },
            Event::RdServe {
                read: 0,
                chunk: 0,
                frame: Vec::new(),
                ok: true,
            },
            Event::WrSource {
                slot: 0,
                inst: 0,
                chunk: 0,
                frame: Vec::new(),
                ok: true,
            },
            Event::ReadLanded {
                slot: 0,
                inst: 0,
                chunk: 0,
                ok: true,
            },
            Event::CtxWritten {
                ctx: 0,
                inst: 0,
                ok: true,
            },
        ];
        // Two kinds share a FIFO where the same pipeline completes both.
        let fifo = [0, 1, 2, 2, 3, 4, 5, 5, 6, 6];
        let mut t = Timers::default();
        for (ev, k) in kinds.into_iter().zip(fifo) {
            let before = t.fifo[k].len();
            t.push(100, ev);
            assert_eq!(t.fifo[k].len(), before + 1, "FIFO {k}");
        }
        assert!(t.heap.is_empty());
        // Earlier than its FIFO's back: the heap.
        t.push(50, Event::DispatchExpire { slot: 1, inst: 0 });
        assert_eq!((t.fifo[0].len(), t.heap.len()), (1, 1));
        // Not a FIFO kind: the heap.
        t.push(200, Event::Wake);
        assert_eq!(t.heap.len(), 2);
    }

    /// Timers due at the same cycle fire in the order they were armed, whichever queue holds
    /// them: slot 2's expiry goes to the heap (its FIFO already holds a later time), slot 3's
    /// deadline to its FIFO, and both are due at 10 after slot 1's.
    #[test]
    fn equal_times_fire_in_arming_order() {
        let mut t = Timers::default();
        t.push(20, expire(1));
        t.push(10, expire(2));
        t.push(10, deadline(3));
        t.push(10, expire(4));
        let mut order = Vec::new();
        while let Some((time, ev)) = t.pop_due(30) {
            order.push((time, slot_of(&ev)));
        }
        assert_eq!(
            order,
            vec![(10, Some(2)), (10, Some(3)), (10, Some(4)), (20, Some(1))]
        );
    }
}

#[cfg(test)]
mod admit_tests {
    use super::{Nic, Outputs};
    use crate::config::NicConfig;
    use crate::error::ChoiceError;
    use onerma_layouts::{Cmd, OpType, RrtEntry};

    const PID: u32 = 7;

    fn local(base: u64, size: u64) -> RrtEntry {
        crate::shared::local_entry(PID, base, size)
    }

    /// A 64-byte READ from slot `slot` into region 4, its record in region 5.
    fn read(slot: u16) -> [u8; 64] {
        Cmd {
            op_type: OpType::Read.as_raw(),
            cos: 0,
            length: 64,
            remote_nic: 0x101,
            remote_region: 0,
            local_region: 4,
            cq_region: 5,
            remote_offset: 0,
            local_offset: u64::from(slot) * 64,
            cq_offset: u64::from(slot) * 64,
            kd: 0,
        }
        .to_bytes()
        .expect("cmd")
    }

    /// A manual-mode NIC with a 64-line window (one quantum, §5) and two READs queued in
    /// class 0, the first dispatched: 63 lines free.
    fn one_line_short() -> (Nic, Outputs) {
        let mut n = Nic::new(NicConfig {
            nic_addr: 0x100,
            window_lines: 64,
            ..NicConfig::default()
        })
        .expect("nic");
        n.write_rrt(4, local(0x80_0000, 0x1_0000)).expect("rrt");
        n.write_rrt(5, local(0x90_0000, 0x1000)).expect("rrt");
        for slot in 0..2 {
            n.enable_slot(slot, PID).expect("slot");
        }
        n.set_manual(true);
        let mut out = Outputs::default();
        for slot in 0..2 {
            n.submit(10, slot, &read(slot), &mut out).expect("submit");
        }
        assert_eq!(n.dispatch(11, 0, &mut out), Ok(0));
        assert_eq!(n.window_free(), 63);
        (n, out)
    }

    /// The observer's allowance counts as free lines in the 64-line rule of a manual dispatch:
    /// 63 free lines and no allowance are short of a quantum; with one line of allowance,
    /// 63 + 1 = 64 lines are enough.
    #[test]
    fn admit_slack_adds_to_the_free_lines() {
        let (mut n, mut out) = one_line_short();
        assert_eq!(
            n.dispatch(12, 0, &mut out),
            Err(ChoiceError::WindowShort { class: 0, free: 63 })
        );
        let (mut n, mut out) = one_line_short();
        n.admit_slack = 1;
        assert_eq!(n.dispatch(12, 0, &mut out), Ok(1));
        assert_eq!(n.window_free(), 62);
    }
}
