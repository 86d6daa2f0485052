//! One onerma NIC as an explicit state machine (protocol.md §1-§8).
//!
//! Inputs: [`Nic::submit`] (the MMIO doorbell), [`Nic::receive`] (a frame from the fabric),
//! [`Nic::advance`] (time passes: timers and DMA completions), and in checker mode the
//! hardware's choices [`Nic::dispatch`] / [`Nic::serve_inbound`]. Outputs go to [`Outputs`]
//! (frames to send, completions) and to the NIC's [`HostMem`] (DMA writes, logged).
//! Every time is a cycle count of this NIC's clock.

use std::collections::VecDeque;

use onerma_layouts::{
    Cmd, Cpl, DISPATCH_QUANTUM_BYTES, FieldKind, Hdr, Layout, LayoutError, MAX_OP_BYTES, MsgType,
    OpType, REKEY_BYTES, RrtEntry, Status, bits,
};
use serde::{Deserialize, Serialize};

use crate::crypto::{self, CipherKey, Crypto, FastMap, RESERVED_KEY, TAG_LEN};
use crate::error::{ChoiceError, ModelError, SubmitError};
use crate::host::{HostConfig, HostMem, WritePurpose};
use crate::policy::{DefaultPolicy, Policy};

/// Free window bytes an op needs before it may enter service (§4.3 of the paper).
pub const QUANTUM: u32 = DISPATCH_QUANTUM_BYTES as u32;
/// Largest op.
pub const MAX_OP: u32 = MAX_OP_BYTES as u32;
const REKEY_LEN: u16 = REKEY_BYTES as u16;
const HDR_LEN: usize = Hdr::BYTES;
/// Shortest frame: header and tag, no payload.
pub const FRAME_MIN: usize = HDR_LEN + TAG_LEN;
/// Largest `count` part of the message counter (protocol.md §5).
pub const COUNT_MAX: u64 = (1 << 48) - 1;
/// Most classes the model supports (the RTL parameter is far smaller).
pub const MAX_CLASSES: usize = 16;

/// Configuration registers and synthesis parameters of one NIC (protocol.md §1). Times in cycles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NicConfig {
    pub nic_addr: u32,
    pub epoch: u16,
    pub num_slots: u16,
    pub num_regions: u16,
    pub num_classes: u8,
    pub window_bytes: u32,
    pub in_queue_depth: u16,
    pub num_write_ctx: u16,
    /// Data bytes per RD_RESP/WR_DATA, a power of two in 256..=4096.
    pub chunk_bytes: u16,
    pub dispatch_timeout: u64,
    pub op_timeout: u64,
    pub server_timeout: u64,
    pub write_guard: u64,
    pub nack_depth: u16,
    pub host: HostConfig,
    /// Log every (key, IV) used for encryption (tests; costs memory).
    pub record_key_iv: bool,
    /// Log every host DMA write (tests; costs memory).
    pub log_host_writes: bool,
}

impl Default for NicConfig {
    fn default() -> Self {
        // protocol.md §6 defaults at a 250 MHz NIC clock.
        Self {
            nic_addr: 1,
            epoch: 0,
            num_slots: 64,
            num_regions: 64,
            num_classes: 4,
            window_bytes: 64 * 1024,
            in_queue_depth: 32,
            num_write_ctx: 16,
            chunk_bytes: 1024,
            dispatch_timeout: 2_500,
            op_timeout: 5_000,
            server_timeout: 5_000,
            write_guard: 250,
            nack_depth: 16,
            host: HostConfig::default(),
            record_key_iv: false,
            log_host_writes: false,
        }
    }
}

impl NicConfig {
    /// Checks the parameter ranges the protocol requires.
    ///
    /// # Errors
    /// [`ModelError::Config`] naming the first bad parameter.
    pub fn validate(&self) -> Result<(), ModelError> {
        let bad = |m: &str| Err(ModelError::Config(m.to_string()));
        if self.num_slots == 0 {
            return bad("num_slots must be >= 1");
        }
        if self.num_classes == 0 || usize::from(self.num_classes) > MAX_CLASSES {
            return bad("num_classes must be in 1..=16");
        }
        if self.window_bytes < QUANTUM {
            return bad("window_bytes must be >= 4096 (DISPATCH_QUANTUM_BYTES)");
        }
        if !self.chunk_bytes.is_power_of_two() || !(256..=4096).contains(&self.chunk_bytes) {
            return bad("chunk_bytes must be a power of two in 256..=4096");
        }
        if self.nack_depth > self.in_queue_depth {
            return bad("nack_depth must be <= in_queue_depth");
        }
        if self.num_write_ctx == 0 {
            return bad("num_write_ctx must be >= 1");
        }
        Ok(())
    }

    /// protocol.md §6 bound on (completion cycle - submission cycle) of every accepted command,
    /// excluding the completion write itself (`C`).
    #[must_use]
    pub fn completion_bound(&self) -> u64 {
        self.dispatch_timeout
            + 1
            + u64::from(self.num_slots)
            + self.op_timeout
            + self.server_timeout
            + self.write_guard
    }
}

/// Diagnostic counters (protocol.md names where it has them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NicCounters {
    pub err_disabled_slot: u64,
    pub err_busy_slot: u64,
    pub err_bad_cq: u64,
    /// Sticky error bit set by a command with an unusable completion region.
    pub err_status: bool,
    pub err_counter_exhausted: bool,
    pub drop_malformed: u64,
    pub drop_misaddressed: u64,
    pub drop_stale: u64,
    pub drop_auth: u64,
    /// WR_DATA after the server context's deadline.
    pub drop_late: u64,
    pub msgs_sent: u64,
    pub msgs_received: u64,
    pub auth_fail_sent: u64,
    pub access_err_sent: u64,
    pub nack_sent: u64,
    pub ctx_timeouts: u64,
    /// The policy returned a choice that was not legal (a policy bug).
    pub policy_errors: u64,
    /// The window would have gone above capacity (must stay 0: a model bug otherwise).
    pub window_violations: u64,
    /// A layout refused to pack a value the model built (must stay 0).
    pub internal_errors: u64,
}

/// One completion the NIC wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The record as written to host memory.
    pub cpl: Cpl,
    pub slot: u16,
    /// The command as submitted (after clearing reserved bits).
    pub cmd: Cmd,
    pub t_sub: u64,
    pub t_disp: Option<u64>,
    /// Cycle the NIC completed the op (issued the completion write).
    pub t_cpl: u64,
    /// Cycle the completion record is visible in host memory.
    pub visible: u64,
    /// Counter of the op's hop-1 request, if it was sent.
    pub req_counter: Option<u64>,
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
    /// The op entered its class FIFO.
    Queued { seq: u16 },
    /// The op completed at once (BAD_COMMAND or LOCAL_ACCESS_ERROR).
    Completed { seq: u16, status: Status },
}

/// Why a received frame was dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    Malformed,
    Misaddressed,
    /// Matches no waiting slot or context (duplicate, late, replayed, wrong chunk).
    Stale,
    /// Tag did not verify.
    Auth,
    /// WR_DATA at or after the server context's deadline.
    Late,
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
    /// Response accepted by a slot or a server context.
    Accepted,
    Dropped(DropReason),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Queued,
    /// Request sent; no RD_RESP / WR_RDREQ accepted yet.
    AwaitFirst,
    /// READ: at least one RD_RESP accepted.
    Reading,
    /// WRITE/REKEY: WR_RDREQ accepted, data sent or being sent.
    AwaitCmpl,
}

#[derive(Debug, Clone)]
struct Op {
    cmd: Cmd,
    op: OpType,
    /// K_d from the command, expanded once for every message of the op.
    kd: CipherKey,
    t_sub: u64,
    t_disp: Option<u64>,
    phase: Phase,
    req_counter: Option<u64>,
    rdreq_counter: u64,
    chunks_rx: u32,
    chunks_done: u32,
    n_chunks: u32,
    local_base: u64,
    cq_addr: u64,
    deadline: u64,
    debited: bool,
}

#[derive(Debug, Clone, Default)]
struct Slot {
    enabled: bool,
    pid: u32,
    busy: bool,
    /// The slot takes a new command only once its completion is written.
    free_at: u64,
    seq: u16,
    inst: u32,
    op: Option<Op>,
}

#[derive(Debug, Clone)]
struct InReq {
    hdr: Hdr,
    kd: CipherKey,
    base: u64,
}

#[derive(Debug, Clone)]
struct Ctx {
    in_use: bool,
    inst: u32,
    req: Hdr,
    kd: CipherKey,
    rdreq_counter: u64,
    base: u64,
    deadline: u64,
    chunks_rx: u32,
    chunks_done: u32,
    n_chunks: u32,
}

#[derive(Debug)]
enum Timer {
    DispatchExpire {
        slot: u16,
        inst: u32,
    },
    OpDeadline {
        slot: u16,
        inst: u32,
    },
    ReadLanded {
        slot: u16,
        inst: u32,
        chunk: u32,
    },
    WrDataReady {
        slot: u16,
        inst: u32,
        chunk: u32,
        /// The frame to send, payload already read in (see [`Nic::payload_frame`]).
        frame: Vec<u8>,
    },
    RdRespReady {
        req: Box<Hdr>,
        kd: CipherKey,
        chunk: u32,
        frame: Vec<u8>,
    },
    CtxDeadline {
        ctx: u16,
        inst: u32,
    },
    CtxWritten {
        ctx: u16,
        inst: u32,
        chunk: u32,
    },
    Wake,
}

#[derive(Debug)]
struct TimerEntry {
    time: u64,
    seq: u64,
    ev: Timer,
}

/// Timer kinds. Each is armed at `now + a constant` or at the completion time of a FIFO DMA
/// channel, so within a kind times never decrease: one FIFO per kind replaces a heap (O(1) per
/// timer, which matters at millions of ops).
const Q_DISPATCH: usize = 0;
const Q_OP: usize = 1;
const Q_REARM: usize = 2;
const Q_CTX: usize = 3;
const Q_RD: usize = 4;
const Q_WR: usize = 5;
const Q_WAKE: usize = 6;
const NQ: usize = 7;

#[derive(Debug, Default)]
struct Timers {
    q: [VecDeque<TimerEntry>; NQ],
    seq: u64,
    /// `first()` as last computed; `None` = must recompute (after a pop). Asked after every
    /// input, it was a measurable share of a run.
    head: std::cell::Cell<Option<Option<(usize, u64)>>>,
}

impl Timers {
    fn push(&mut self, k: usize, time: u64, ev: Timer) {
        self.seq += 1;
        // Clamp keeps the FIFO sorted even if a caller drove time inconsistently.
        let time = self.q[k].back().map_or(time, |b| time.max(b.time));
        // A push changes the earliest entry only if it lands at the front of its queue and is
        // strictly earlier than the current head (its seq is the largest, so ties keep the head).
        if self.q[k].is_empty()
            && let Some(head) = self.head.get()
            && head.is_none_or(|(_, t)| time < t)
        {
            self.head.set(Some(Some((k, time))));
        }
        self.q[k].push_back(TimerEntry {
            time,
            seq: self.seq,
            ev,
        });
    }

    fn pop_front(&mut self, k: usize) -> Option<TimerEntry> {
        self.head.set(None);
        self.q[k].pop_front()
    }

    /// Queue holding the earliest (time, seq), and that time.
    fn first(&self) -> Option<(usize, u64)> {
        if let Some(h) = self.head.get() {
            debug_assert_eq!(h, self.scan_first(), "stale timer head");
            return h;
        }
        let h = self.scan_first();
        self.head.set(Some(h));
        h
    }

    fn scan_first(&self) -> Option<(usize, u64)> {
        let mut best: Option<(usize, u64, u64)> = None;
        for (k, q) in self.q.iter().enumerate() {
            if let Some(e) = q.front()
                && best.is_none_or(|(_, t, sq)| (e.time, e.seq) < (t, sq))
            {
                best = Some((k, e.time, e.seq));
            }
        }
        best.map(|(k, t, _)| (k, t))
    }
}

/// Frames kept for reuse per NIC (see [`Nic::recycle`]).
const FRAME_POOL: usize = 64;

/// The payload part of a frame built by [`Nic::payload_frame`].
fn payload_of(frame: &mut [u8]) -> &mut [u8] {
    let n = frame.len();
    &mut frame[HDR_LEN..n - TAG_LEN]
}

fn in_bounds(off: u64, len: u64, size: u64) -> bool {
    off.checked_add(len).is_some_and(|end| end <= size)
}

fn chunk_count(len: u32, cb: u32) -> u32 {
    len.div_ceil(cb)
}

fn all_bits(n: u32) -> u32 {
    if n >= 32 { u32::MAX } else { (1u32 << n) - 1 }
}

fn sat32(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// Parses a command; reserved bits are reported (BAD_COMMAND) rather than refused, because the
/// completion-region check comes first (protocol.md §2 step 3 before step 4).
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

fn msg_for(op: OpType) -> MsgType {
    match op {
        OpType::Read => MsgType::RdReq,
        OpType::Write => MsgType::WrReq,
        OpType::Rekey => MsgType::RekeyReq,
    }
}

/// Structural rules of protocol.md §3 (malformed) plus the consistency rules the model added
/// (see protocol.md §3, "Decision (consistency)").
fn well_formed(h: &Hdr, chunk_bytes: u16) -> bool {
    use MsgType as M;
    let payload = matches!(h.msg_type, M::RdResp | M::WrData);
    if payload {
        if h.chunk_len == 0 || h.chunk_len > chunk_bytes {
            return false;
        }
    } else if h.chunk_len != 0 || h.chunk_offset != 0 {
        return false;
    }
    let op_ok = match h.msg_type {
        M::RdReq | M::RdResp => h.op_type == OpType::Read,
        M::WrReq => h.op_type == OpType::Write,
        M::RekeyReq => h.op_type == OpType::Rekey,
        M::WrRdreq | M::WrData | M::WrCmpl => matches!(h.op_type, OpType::Write | OpType::Rekey),
        M::Nack | M::AuthFail | M::AccessErr => true,
    };
    let status_ok = match h.msg_type {
        M::WrCmpl => true,
        M::Nack => h.status == Status::Nack,
        M::AuthFail => h.status == Status::RemoteAuthenticationFailure,
        M::AccessErr => h.status == Status::RemoteAccessError,
        _ => h.status == Status::Ok,
    };
    let prev_ok = !matches!(h.msg_type, M::RdReq | M::WrReq | M::RekeyReq) || h.prev_counter == 0;
    op_ok && status_ok && prev_ok
}

/// One onerma NIC.
pub struct Nic {
    cfg: NicConfig,
    slots: Vec<Slot>,
    rrt: Vec<RrtEntry>,
    fifos: Vec<VecDeque<(u16, u32)>>,
    window_free: u32,
    inq: VecDeque<InReq>,
    ctxs: Vec<Ctx>,
    ctx_free: Vec<u16>,
    ctx_by_counter: FastMap<u64, u16>,
    count: u64,
    timers: Timers,
    wake_at: Option<u64>,
    last_now: u64,
    manual: bool,
    policy: Box<dyn Policy>,
    scratch: Vec<usize>,
    /// The reserved key that signs AUTH_FAIL, expanded once.
    reserved: CipherKey,
    /// Reused buffer for decrypting received payloads.
    rx_buf: Vec<u8>,
    /// Spent frames to build new ones in (allocator churn was a tenth of a 40-NIC run).
    frame_pool: Vec<Vec<u8>>,
    /// Host memory behind this NIC.
    pub host: HostMem,
    /// Crypto engine (exposes the (key, IV) log).
    pub crypto: Crypto,
    /// Diagnostic counters.
    pub counters: NicCounters,
}

impl std::fmt::Debug for Nic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nic")
            .field("nic_addr", &self.cfg.nic_addr)
            .field("window_free", &self.window_free)
            .field("counters", &self.counters)
            .finish_non_exhaustive()
    }
}

const EMPTY_RRT: RrtEntry = RrtEntry {
    valid: 0,
    perm_remote_read: 0,
    perm_remote_write: 0,
    perm_remote_rekey: 0,
    perm_local: 0,
    owner_pid: 0,
    base_addr: 0,
    size: 0,
    key: 0,
};

impl Nic {
    /// A NIC after reset: every slot disabled, every RRT entry invalid, window full.
    ///
    /// # Errors
    /// [`ModelError::Config`] if the configuration is out of range.
    pub fn new(cfg: NicConfig) -> Result<Self, ModelError> {
        cfg.validate()?;
        let reserved = CipherKey::new(&RESERVED_KEY);
        let ctxs = (0..cfg.num_write_ctx)
            .map(|_| Ctx {
                in_use: false,
                inst: 0,
                req: empty_hdr(),
                kd: reserved.clone(),
                rdreq_counter: 0,
                base: 0,
                deadline: 0,
                chunks_rx: 0,
                chunks_done: 0,
                n_chunks: 0,
            })
            .collect();
        Ok(Self {
            slots: vec![Slot::default(); usize::from(cfg.num_slots)],
            rrt: vec![EMPTY_RRT; usize::from(cfg.num_regions)],
            fifos: vec![VecDeque::new(); usize::from(cfg.num_classes)],
            window_free: cfg.window_bytes,
            inq: VecDeque::new(),
            ctxs,
            ctx_free: (0..cfg.num_write_ctx).rev().collect(),
            ctx_by_counter: FastMap::default(),
            count: 1,
            timers: Timers::default(),
            wake_at: None,
            last_now: 0,
            manual: false,
            policy: Box::new(DefaultPolicy),
            scratch: Vec::new(),
            reserved,
            rx_buf: Vec::new(),
            frame_pool: Vec::new(),
            host: HostMem::new(cfg.host, cfg.log_host_writes),
            crypto: Crypto::new(cfg.record_key_iv),
            counters: NicCounters::default(),
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

    /// Checker mode: choices come only from [`Nic::dispatch`] and [`Nic::serve_inbound`].
    pub fn set_manual(&mut self, manual: bool) {
        self.manual = manual;
    }

    /// Sets the `count` part of the message counter (tests of exhaustion; a reset sets 1).
    pub fn set_count(&mut self, count: u64) {
        self.count = count;
    }

    // ---- driver (configuration interface) ----

    /// Allocates a slot to a process: the PID is fixed until the slot is disabled.
    ///
    /// # Errors
    /// Unknown slot, or the slot has an op in flight.
    pub fn enable_slot(&mut self, slot: u16, pid: u32) -> Result<(), ModelError> {
        let s = self
            .slots
            .get_mut(usize::from(slot))
            .ok_or(ModelError::NoSuchSlot(slot))?;
        if s.busy {
            return Err(ModelError::SlotBusy(slot));
        }
        s.enabled = true;
        s.pid = pid;
        Ok(())
    }

    /// Frees a slot.
    ///
    /// # Errors
    /// Unknown slot, or the slot has an op in flight.
    pub fn disable_slot(&mut self, slot: u16) -> Result<(), ModelError> {
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

    /// Writes an RRT entry (register, re-key by the driver, or deregister with `valid = 0`).
    ///
    /// # Errors
    /// Unknown region, or a 1-bit field holding more than one bit.
    pub fn write_rrt(&mut self, region: u16, e: RrtEntry) -> Result<(), ModelError> {
        e.to_bytes()?;
        *self
            .rrt
            .get_mut(usize::from(region))
            .ok_or(ModelError::NoSuchRegion(region))? = e;
        Ok(())
    }

    /// Writes an RRT entry from its 40-byte layout.
    ///
    /// # Errors
    /// As [`Nic::write_rrt`], or bytes that are not an `rrt_entry`.
    pub fn write_rrt_bytes(&mut self, region: u16, bytes: &[u8]) -> Result<(), ModelError> {
        let e = RrtEntry::from_bytes(bytes)?;
        self.write_rrt(region, e)
    }

    /// Invalidates an RRT entry.
    ///
    /// # Errors
    /// Unknown region.
    pub fn deregister(&mut self, region: u16) -> Result<(), ModelError> {
        self.write_rrt(region, EMPTY_RRT)
    }

    #[must_use]
    pub fn rrt(&self, region: u16) -> Option<&RrtEntry> {
        self.rrt.get(usize::from(region))
    }

    // ---- observation ----

    #[must_use]
    pub fn window_free(&self) -> u32 {
        self.window_free
    }

    #[must_use]
    pub fn inbound_len(&self) -> usize {
        self.inq.len()
    }

    #[must_use]
    pub fn class_len(&self, class: u8) -> usize {
        self.fifos.get(usize::from(class)).map_or(0, VecDeque::len)
    }

    #[must_use]
    pub fn contexts_in_use(&self) -> usize {
        self.ctxs.len() - self.ctx_free.len()
    }

    /// Whether the slot holds an op (queued or in service).
    #[must_use]
    pub fn slot_busy(&self, slot: u16) -> bool {
        self.slots.get(usize::from(slot)).is_some_and(|s| s.busy)
    }

    /// Earliest cycle a new command may be written to the slot.
    #[must_use]
    pub fn slot_free_at(&self, slot: u16) -> u64 {
        self.slots.get(usize::from(slot)).map_or(0, |s| s.free_at)
    }

    /// No op queued or in flight, no inbound work, no server context.
    #[must_use]
    pub fn is_idle(&self) -> bool {
        self.slots.iter().all(|s| !s.busy)
            && self.inq.is_empty()
            && self.ctx_free.len() == self.ctxs.len()
    }

    /// Next cycle at which [`Nic::advance`] has work (a timer or a DMA completion).
    #[must_use]
    pub fn next_wakeup(&self) -> Option<u64> {
        self.timers.first().map(|(_, t)| t)
    }

    /// Legal class choices now (checker mode): non-empty classes, if the window allows a dispatch.
    #[must_use]
    pub fn ready_classes(&self) -> Vec<u8> {
        if self.window_free < QUANTUM {
            return Vec::new();
        }
        (0..self.cfg.num_classes)
            .filter(|&c| !self.fifos[usize::from(c)].is_empty())
            .collect()
    }

    /// Legal inbound choices now (checker mode): queue indices that can be served.
    #[must_use]
    pub fn servable_inbound(&self, now: u64) -> Vec<usize> {
        (0..self.inq.len())
            .filter(|&i| self.servable(now, i).is_ok())
            .collect()
    }

    // ---- inputs ----

    fn clock(&mut self, now: u64) -> u64 {
        // Time never runs backwards inside the NIC; a caller that goes back is clamped.
        self.last_now = self.last_now.max(now);
        self.last_now
    }

    /// Lets time pass to `now`: fires every timer and DMA completion due, then (automatic mode)
    /// lets the policy dispatch and serve.
    pub fn advance(&mut self, now: u64, out: &mut Outputs) {
        let now = self.clock(now);
        self.fire_timers(now, out);
        self.pump(now, out);
    }

    /// The doorbell: `cmd` is the 64-byte command written to `slot`'s command page.
    ///
    /// # Errors
    /// The SLVERR cases of protocol.md §2 steps 1-3: the command gets no completion.
    pub fn submit(
        &mut self,
        now: u64,
        slot: u16,
        cmd: &[u8],
        out: &mut Outputs,
    ) -> Result<SubmitOutcome, SubmitError> {
        let now = self.clock(now);
        self.fire_timers(now, out);
        let r = self.submit_inner(now, slot, cmd, out);
        self.pump(now, out);
        r
    }

    /// A frame arrives from the fabric.
    pub fn receive(&mut self, now: u64, frame: &[u8], out: &mut Outputs) -> RxOutcome {
        let now = self.clock(now);
        self.fire_timers(now, out);
        self.counters.msgs_received += 1;
        let r = self.receive_inner(now, frame, out);
        if let RxOutcome::Dropped(d) = r {
            let c = &mut self.counters;
            match d {
                DropReason::Malformed => c.drop_malformed += 1,
                DropReason::Misaddressed => c.drop_misaddressed += 1,
                DropReason::Stale => c.drop_stale += 1,
                DropReason::Auth => c.drop_auth += 1,
                DropReason::Late => c.drop_late += 1,
                DropReason::CounterExhausted => c.err_counter_exhausted = true,
            }
        }
        self.pump(now, out);
        r
    }

    /// Checker mode: the hardware dispatched the head of `class` at `now`. Returns its slot.
    ///
    /// # Errors
    /// The choice was illegal (empty class, window short, counter exhausted) or the NIC is in
    /// automatic mode.
    pub fn dispatch(&mut self, now: u64, class: u8, out: &mut Outputs) -> Result<u16, ChoiceError> {
        if !self.manual {
            return Err(ChoiceError::AutoMode);
        }
        let now = self.clock(now);
        self.fire_timers(now, out);
        if self
            .fifos
            .get(usize::from(class))
            .is_none_or(VecDeque::is_empty)
        {
            return Err(ChoiceError::EmptyClass(class));
        }
        if self.window_free < QUANTUM {
            return Err(ChoiceError::WindowShort {
                class,
                free: self.window_free,
            });
        }
        if self.count > COUNT_MAX {
            return Err(ChoiceError::CounterExhausted);
        }
        let slot = self.do_dispatch(now, class, out);
        self.tidy();
        Ok(slot)
    }

    /// Checker mode: the hardware served inbound queue entry `index` (0 = oldest) at `now`.
    ///
    /// # Errors
    /// No such entry, or it could not be served now, or the NIC is in automatic mode.
    pub fn serve_inbound(
        &mut self,
        now: u64,
        index: usize,
        out: &mut Outputs,
    ) -> Result<(), ChoiceError> {
        if !self.manual {
            return Err(ChoiceError::AutoMode);
        }
        let now = self.clock(now);
        self.fire_timers(now, out);
        self.servable(now, index)?;
        self.do_serve(now, index, out);
        self.tidy();
        Ok(())
    }

    // ---- internals: timers ----

    fn push_timer(&mut self, k: usize, time: u64, ev: Timer) {
        self.timers.push(k, time, ev);
    }

    /// Drops timers at the queue fronts that can no longer fire (their op completed or was
    /// dispatched, their context finished), so the NIC does not ask to be woken for nothing.
    fn tidy(&mut self) {
        for k in [Q_DISPATCH, Q_OP, Q_REARM, Q_CTX] {
            while let Some(e) = self.timers.q[k].front() {
                let live = match e.ev {
                    Timer::DispatchExpire { slot, inst } => self
                        .op_of(slot, inst)
                        .is_some_and(|o| o.phase == Phase::Queued),
                    Timer::OpDeadline { slot, inst } => self
                        .op_of(slot, inst)
                        .is_some_and(|o| o.phase != Phase::Queued && o.deadline == e.time),
                    Timer::CtxDeadline { ctx, inst } => {
                        let c = &self.ctxs[usize::from(ctx)];
                        c.in_use && c.inst == inst && c.chunks_rx != all_bits(c.n_chunks)
                    }
                    _ => true,
                };
                if live {
                    break;
                }
                self.timers.pop_front(k);
            }
        }
    }

    fn fire_timers(&mut self, now: u64, out: &mut Outputs) {
        while let Some((k, t)) = self.timers.first().filter(|&(_, t)| t <= now) {
            let Some(TimerEntry { ev, .. }) = self.timers.pop_front(k) else {
                break;
            };
            match ev {
                Timer::DispatchExpire { slot, inst } => {
                    if self
                        .op_of(slot, inst)
                        .is_some_and(|o| o.phase == Phase::Queued)
                    {
                        for f in &mut self.fifos {
                            if let Some(p) = f.iter().position(|&e| e == (slot, inst)) {
                                f.remove(p);
                            }
                        }
                        self.complete(t, slot, Status::DispatchTimeout, out);
                    }
                }
                Timer::OpDeadline { slot, inst } => {
                    if self
                        .op_of(slot, inst)
                        .is_some_and(|o| o.phase != Phase::Queued && t >= o.deadline)
                    {
                        self.complete(t, slot, Status::Timeout, out);
                    }
                }
                Timer::ReadLanded { slot, inst, chunk } => {
                    let done = match self.op_of_mut(slot, inst) {
                        Some(o) if o.phase == Phase::Reading => {
                            o.chunks_done |= 1 << chunk;
                            o.chunks_done == all_bits(o.n_chunks)
                        }
                        _ => false,
                    };
                    if done {
                        self.complete(t, slot, Status::Ok, out);
                    }
                }
                Timer::WrDataReady {
                    slot,
                    inst,
                    chunk,
                    frame,
                } => {
                    let Some(o) = self
                        .op_of(slot, inst)
                        .filter(|o| o.phase == Phase::AwaitCmpl)
                    else {
                        continue;
                    };
                    let h = Hdr {
                        msg_type: MsgType::WrData,
                        prev_counter: o.rdreq_counter,
                        chunk_offset: (chunk * u32::from(self.cfg.chunk_bytes)) as u16,
                        ..self.op_hdr(slot, o)
                    };
                    let kd = o.kd.clone();
                    self.send_frame(h, &kd, frame, out);
                }
                Timer::RdRespReady {
                    req,
                    kd,
                    chunk,
                    frame,
                } => {
                    let h = Hdr {
                        msg_type: MsgType::RdResp,
                        dst_nic: req.src_nic,
                        prev_counter: req.counter,
                        chunk_offset: (chunk * u32::from(self.cfg.chunk_bytes)) as u16,
                        ..*req
                    };
                    self.send_frame(h, &kd, frame, out);
                }
                Timer::CtxDeadline { ctx, inst } => {
                    let c = &self.ctxs[usize::from(ctx)];
                    if c.in_use && c.inst == inst && c.chunks_rx != all_bits(c.n_chunks) {
                        self.counters.ctx_timeouts += 1;
                        self.free_ctx(ctx);
                    }
                }
                Timer::CtxWritten { ctx, inst, chunk } => {
                    let c = &mut self.ctxs[usize::from(ctx)];
                    if c.in_use && c.inst == inst {
                        c.chunks_done |= 1 << chunk;
                        if c.chunks_done == all_bits(c.n_chunks) {
                            self.finish_ctx(ctx, out);
                        }
                    }
                }
                Timer::Wake => {
                    if self.wake_at == Some(t) {
                        self.wake_at = None;
                    }
                }
            }
        }
    }

    fn op_of(&self, slot: u16, inst: u32) -> Option<&Op> {
        let s = self.slots.get(usize::from(slot))?;
        if s.inst == inst { s.op.as_ref() } else { None }
    }

    fn op_of_mut(&mut self, slot: u16, inst: u32) -> Option<&mut Op> {
        let s = self.slots.get_mut(usize::from(slot))?;
        if s.inst == inst { s.op.as_mut() } else { None }
    }

    /// Header fields every message of an initiator's op echoes.
    fn op_hdr(&self, slot: u16, o: &Op) -> Hdr {
        Hdr {
            msg_type: msg_for(o.op),
            op_type: o.op,
            status: Status::Ok,
            src_nic: self.cfg.nic_addr,
            dst_nic: o.cmd.remote_nic,
            counter: 0,
            prev_counter: 0,
            pid: self.slots[usize::from(slot)].pid,
            region: o.cmd.remote_region,
            slot,
            offset: o.cmd.remote_offset,
            length: o.cmd.length,
            chunk_offset: 0,
            chunk_len: 0,
        }
    }

    // ---- internals: sending ----

    /// Gives the NIC a frame nobody needs any more, to build a later frame in. Only the
    /// allocation is reused: [`Nic::payload_frame`] zeroes it.
    pub fn recycle(&mut self, frame: Vec<u8>) {
        if self.frame_pool.len() < FRAME_POOL {
            self.frame_pool.push(frame);
        }
    }

    /// A zeroed frame for a message with `n` payload bytes: header, payload, tag. DMA reads land
    /// in its payload part ([`payload_of`]), so the data is copied once.
    fn payload_frame(&mut self, n: usize) -> Vec<u8> {
        let mut f = self.frame_pool.pop().unwrap_or_default();
        f.clear();
        f.resize(FRAME_MIN + n, 0);
        f
    }

    fn next_counter(&mut self) -> Option<u64> {
        if self.count > COUNT_MAX {
            self.counters.err_counter_exhausted = true;
            return None;
        }
        let c = (u64::from(self.cfg.epoch) << 48) | self.count;
        self.count += 1;
        Some(c)
    }

    /// Seals and emits one message without payload; fills `src_nic`, `counter`, `chunk_len`.
    /// Returns the counter.
    fn send(&mut self, h: Hdr, key: &CipherKey, out: &mut Outputs) -> Option<u64> {
        let frame = self.payload_frame(0);
        self.send_frame(h, key, frame, out)
    }

    /// Seals and emits one message whose payload is already in place in `frame` (built by
    /// [`Nic::payload_frame`]); fills `src_nic`, `counter`, `chunk_len`. Returns the counter.
    fn send_frame(
        &mut self,
        mut h: Hdr,
        key: &CipherKey,
        mut frame: Vec<u8>,
        out: &mut Outputs,
    ) -> Option<u64> {
        let counter = self.next_counter()?;
        h.src_nic = self.cfg.nic_addr;
        h.counter = counter;
        h.chunk_len = (frame.len() - FRAME_MIN) as u16;
        let (Ok(hb), Ok(iv)) = (h.to_bytes(), crypto::iv(h.src_nic, counter)) else {
            self.counters.internal_errors += 1;
            return None;
        };
        frame[..HDR_LEN].copy_from_slice(&hb);
        self.crypto.seal_with(key, &iv, &mut frame);
        self.counters.msgs_sent += 1;
        out.messages.push(frame);
        Some(counter)
    }

    /// Reply of the request checks (steps 1-4 of protocol.md §4.1): echoes the request.
    fn reply(
        &mut self,
        req: &Hdr,
        msg_type: MsgType,
        status: Status,
        key: &CipherKey,
        out: &mut Outputs,
    ) -> RxOutcome {
        let h = Hdr {
            msg_type,
            status,
            dst_nic: req.src_nic,
            prev_counter: req.counter,
            ..*req
        };
        match self.send(h, key, out) {
            Some(_) => RxOutcome::Replied(msg_type),
            None => RxOutcome::Dropped(DropReason::CounterExhausted),
        }
    }

    // ---- internals: submission, dispatch, completion ----

    fn submit_inner(
        &mut self,
        now: u64,
        slot: u16,
        cmd: &[u8],
        out: &mut Outputs,
    ) -> Result<SubmitOutcome, SubmitError> {
        let si = usize::from(slot);
        let Some(s) = self.slots.get(si) else {
            return Err(SubmitError::NoSuchSlot(slot));
        };
        if cmd.len() != Cmd::BYTES {
            return Err(SubmitError::BadLength(cmd.len()));
        }
        if !s.enabled {
            self.counters.err_disabled_slot += 1;
            return Err(SubmitError::DisabledSlot(slot));
        }
        if s.busy || now < s.free_at {
            self.counters.err_busy_slot += 1;
            return Err(SubmitError::BusySlot(slot));
        }
        let pid = s.pid;
        let (c, rsvd) = parse_cmd(cmd).map_err(|_| SubmitError::BadLength(cmd.len()))?;
        let cq_ok = self.rrt.get(usize::from(c.cq_region)).filter(|e| {
            e.valid == 1
                && e.perm_local == 1
                && e.owner_pid == pid
                && c.cq_offset % 16 == 0
                && in_bounds(c.cq_offset, 16, e.size)
        });
        let Some(cq) = cq_ok else {
            self.counters.err_bad_cq += 1;
            self.counters.err_status = true;
            return Err(SubmitError::BadCompletionRegion(slot));
        };
        let cq_addr = cq.base_addr.wrapping_add(c.cq_offset);
        let op_type = OpType::try_from(c.op_type).ok();
        let bad = match op_type {
            None => true,
            Some(t) => {
                c.length == 0
                    || u32::from(c.length) > MAX_OP
                    || (t == OpType::Rekey && c.length != REKEY_LEN)
                    || c.cos >= self.cfg.num_classes
                    || rsvd
            }
        };
        let local = self.rrt.get(usize::from(c.local_region)).filter(|e| {
            e.valid == 1
                && e.perm_local == 1
                && e.owner_pid == pid
                && in_bounds(c.local_offset, u64::from(c.length), e.size)
        });
        let local_base = local.map(|e| e.base_addr);
        let s = &mut self.slots[si];
        s.busy = true;
        s.seq = s.seq.wrapping_add(1);
        s.inst = s.inst.wrapping_add(1);
        let (seq, inst) = (s.seq, s.inst);
        let cb = u32::from(self.cfg.chunk_bytes);
        let (cos, length) = (c.cos, c.length);
        let kd = self.crypto.cipher(&crypto::key_from_u128(c.kd));
        let s = &mut self.slots[si];
        s.op = Some(Op {
            cmd: c,
            op: op_type.unwrap_or(OpType::Read),
            kd,
            t_sub: now,
            t_disp: None,
            phase: Phase::Queued,
            req_counter: None,
            rdreq_counter: 0,
            chunks_rx: 0,
            chunks_done: 0,
            n_chunks: chunk_count(u32::from(length), cb),
            local_base: local_base.unwrap_or(0),
            cq_addr,
            deadline: 0,
            debited: false,
        });
        let status = if bad {
            Some(Status::BadCommand)
        } else if local_base.is_none() {
            Some(Status::LocalAccessError)
        } else {
            None
        };
        if let Some(status) = status {
            self.complete(now, slot, status, out);
            return Ok(SubmitOutcome::Completed { seq, status });
        }
        self.fifos[usize::from(cos)].push_back((slot, inst));
        // "Age exceeds dispatch_timeout": the first cycle with now - t_sub > dispatch_timeout.
        self.push_timer(
            Q_DISPATCH,
            now + self.cfg.dispatch_timeout + 1,
            Timer::DispatchExpire { slot, inst },
        );
        Ok(SubmitOutcome::Queued { seq })
    }

    fn do_dispatch(&mut self, now: u64, class: u8, out: &mut Outputs) -> u16 {
        let Some((slot, inst)) = self.fifos[usize::from(class)].pop_front() else {
            return u16::MAX;
        };
        let (h, kd, len) = {
            let Some(o) = self.op_of(slot, inst) else {
                return slot;
            };
            (self.op_hdr(slot, o), o.kd.clone(), u32::from(o.cmd.length))
        };
        self.window_free -= len;
        let counter = self.send(h, &kd, out);
        let deadline = now + self.cfg.op_timeout;
        if let Some(o) = self.op_of_mut(slot, inst) {
            o.debited = true;
            o.t_disp = Some(now);
            o.phase = Phase::AwaitFirst;
            o.req_counter = counter;
            o.deadline = deadline;
        }
        self.push_timer(Q_OP, deadline, Timer::OpDeadline { slot, inst });
        slot
    }

    fn credit(&mut self, len: u32) {
        let f = self.window_free + len;
        if f > self.cfg.window_bytes {
            self.counters.window_violations += 1;
            self.window_free = self.cfg.window_bytes;
        } else {
            self.window_free = f;
        }
    }

    fn complete(&mut self, now: u64, slot: u16, status: Status, out: &mut Outputs) {
        let si = usize::from(slot);
        let Some(o) = self.slots[si].op.take() else {
            return;
        };
        if o.debited {
            self.credit(u32::from(o.cmd.length));
        }
        let s = &self.slots[si];
        let t_disp = o.t_disp.unwrap_or(now);
        let cpl = Cpl {
            valid: 1,
            status,
            op_type: o.cmd.op_type,
            slot,
            seq: s.seq,
            issue_delay: sat32(t_disp - o.t_sub),
            total_delay: sat32(now - o.t_sub),
        };
        let visible = match cpl.to_bytes() {
            Ok(b) => self.host.dma_write(
                now,
                o.cmd.cq_region,
                o.cq_addr,
                &b,
                WritePurpose::Completion { slot },
            ),
            Err(_) => {
                self.counters.internal_errors += 1;
                now
            }
        };
        let s = &mut self.slots[si];
        s.busy = false;
        s.free_at = visible;
        s.inst = s.inst.wrapping_add(1);
        out.completions.push(Completion {
            cpl,
            slot,
            cmd: o.cmd,
            t_sub: o.t_sub,
            t_disp: o.t_disp,
            t_cpl: now,
            visible,
            req_counter: o.req_counter,
        });
    }

    // ---- internals: inbound service ----

    fn servable(&self, now: u64, i: usize) -> Result<(), ChoiceError> {
        let r = self.inq.get(i).ok_or(ChoiceError::NoSuchInbound(i))?;
        if self.count > COUNT_MAX {
            return Err(ChoiceError::CounterExhausted);
        }
        match r.hdr.op_type {
            OpType::Read => {
                if self.host.read_channel_free_at() > now {
                    return Err(ChoiceError::NotServable(i, "host read channel busy"));
                }
            }
            OpType::Write | OpType::Rekey => {
                if self.window_free < QUANTUM {
                    return Err(ChoiceError::NotServable(i, "window short of 4096 bytes"));
                }
                if self.ctx_free.is_empty() {
                    return Err(ChoiceError::NotServable(i, "no free inbound-write context"));
                }
            }
        }
        Ok(())
    }

    fn pump(&mut self, now: u64, out: &mut Outputs) {
        if !self.manual {
            self.pump_auto(now, out);
        }
        self.tidy();
    }

    fn pump_auto(&mut self, now: u64, out: &mut Outputs) {
        loop {
            let mut progressed = false;
            if self.window_free >= QUANTUM && self.count <= COUNT_MAX {
                let mut ready = [0u8; MAX_CLASSES];
                let mut n = 0;
                for (c, f) in self.fifos.iter().enumerate() {
                    if !f.is_empty() {
                        ready[n] = c as u8;
                        n += 1;
                    }
                }
                if n > 0 {
                    match self.policy.pick_class(now, &ready[..n]) {
                        Some(c) if ready[..n].contains(&c) => {
                            self.do_dispatch(now, c, out);
                            progressed = true;
                        }
                        Some(_) => self.counters.policy_errors += 1,
                        None => {}
                    }
                }
            }
            if !self.inq.is_empty() {
                let mut sv = std::mem::take(&mut self.scratch);
                sv.clear();
                sv.extend((0..self.inq.len()).filter(|&i| self.servable(now, i).is_ok()));
                if !sv.is_empty() {
                    match self.policy.pick_inbound(now, &sv) {
                        Some(i) if sv.contains(&i) => {
                            self.do_serve(now, i, out);
                            progressed = true;
                        }
                        Some(_) => self.counters.policy_errors += 1,
                        None => {}
                    }
                }
                self.scratch = sv;
            }
            if !progressed {
                break;
            }
        }
        // A READ waiting only for the host read channel needs a wake-up when it frees.
        let rd_free = self.host.read_channel_free_at();
        if rd_free > now
            && self.inq.iter().any(|r| r.hdr.op_type == OpType::Read)
            && self.wake_at != Some(rd_free)
        {
            self.wake_at = Some(rd_free);
            self.push_timer(Q_WAKE, rd_free, Timer::Wake);
        }
    }

    fn do_serve(&mut self, now: u64, i: usize, out: &mut Outputs) {
        let Some(r) = self.inq.remove(i) else { return };
        let h = r.hdr;
        let cb = u32::from(self.cfg.chunk_bytes);
        let len = u32::from(h.length);
        match h.op_type {
            OpType::Read => {
                let req = Box::new(h.clone());
                for k in 0..chunk_count(len, cb) {
                    let off = k * cb;
                    let n = (len - off).min(cb) as usize;
                    let addr = r.base.wrapping_add(h.offset).wrapping_add(u64::from(off));
                    let mut frame = self.payload_frame(n);
                    let t = self.host.dma_read_into(now, addr, payload_of(&mut frame));
                    self.push_timer(
                        Q_RD,
                        t,
                        Timer::RdRespReady {
                            req: req.clone(),
                            kd: r.kd.clone(),
                            chunk: k,
                            frame,
                        },
                    );
                }
            }
            OpType::Write | OpType::Rekey => {
                let Some(ci) = self.ctx_free.pop() else {
                    return;
                };
                self.window_free -= len;
                let reply = Hdr {
                    msg_type: MsgType::WrRdreq,
                    dst_nic: h.src_nic,
                    prev_counter: h.counter,
                    ..h
                };
                let Some(rc) = self.send(reply, &r.kd, out) else {
                    self.credit(len);
                    self.ctx_free.push(ci);
                    return;
                };
                let deadline = now + self.cfg.server_timeout;
                let c = &mut self.ctxs[usize::from(ci)];
                c.in_use = true;
                c.inst = c.inst.wrapping_add(1);
                c.req = h;
                c.kd = r.kd.clone();
                c.rdreq_counter = rc;
                c.base = r.base;
                c.deadline = deadline;
                c.chunks_rx = 0;
                c.chunks_done = 0;
                c.n_chunks = chunk_count(len, cb);
                let inst = c.inst;
                self.ctx_by_counter.insert(rc, ci);
                self.push_timer(Q_CTX, deadline, Timer::CtxDeadline { ctx: ci, inst });
            }
        }
    }

    fn free_ctx(&mut self, ci: u16) {
        let c = &mut self.ctxs[usize::from(ci)];
        c.in_use = false;
        c.inst = c.inst.wrapping_add(1);
        let (rc, len) = (c.rdreq_counter, u32::from(c.req.length));
        self.ctx_by_counter.remove(&rc);
        self.ctx_free.push(ci);
        self.credit(len);
    }

    fn finish_ctx(&mut self, ci: u16, out: &mut Outputs) {
        let c = &self.ctxs[usize::from(ci)];
        let h = Hdr {
            msg_type: MsgType::WrCmpl,
            status: Status::Ok,
            dst_nic: c.req.src_nic,
            prev_counter: c.rdreq_counter,
            chunk_offset: 0,
            chunk_len: 0,
            ..c.req
        };
        let kd = c.kd.clone();
        self.free_ctx(ci);
        self.send(h, &kd, out);
    }

    // ---- internals: receive ----

    fn receive_inner(&mut self, now: u64, frame: &[u8], out: &mut Outputs) -> RxOutcome {
        use DropReason as D;
        if frame.len() < FRAME_MIN {
            return RxOutcome::Dropped(D::Malformed);
        }
        let Ok(h) = Hdr::from_bytes(&frame[..HDR_LEN]) else {
            return RxOutcome::Dropped(D::Malformed);
        };
        if frame.len() != FRAME_MIN + usize::from(h.chunk_len)
            || !well_formed(&h, self.cfg.chunk_bytes)
        {
            return RxOutcome::Dropped(D::Malformed);
        }
        if h.dst_nic != self.cfg.nic_addr {
            return RxOutcome::Dropped(D::Misaddressed);
        }
        let aad = &frame[..HDR_LEN];
        let tag = &frame[frame.len() - TAG_LEN..];
        let payload = &frame[HDR_LEN..frame.len() - TAG_LEN];
        let Ok(iv) = crypto::iv(h.src_nic, h.counter) else {
            return RxOutcome::Dropped(D::Malformed);
        };
        match h.msg_type {
            MsgType::RdReq | MsgType::WrReq | MsgType::RekeyReq => {
                self.rx_request(&h, &iv, aad, tag, out)
            }
            MsgType::RdResp => self.rx_rd_resp(now, &h, &iv, aad, payload, tag),
            MsgType::WrRdreq => self.rx_wr_rdreq(now, &h, &iv, aad, tag),
            MsgType::WrData => self.rx_wr_data(now, &h, &iv, aad, payload, tag, out),
            MsgType::WrCmpl | MsgType::Nack | MsgType::AccessErr | MsgType::AuthFail => {
                self.rx_final(now, &h, &iv, aad, tag, out)
            }
        }
    }

    /// The request checks of protocol.md §4.1 step 2, in order.
    fn rx_request(
        &mut self,
        h: &Hdr,
        iv: &[u8; 12],
        aad: &[u8],
        tag: &[u8],
        out: &mut Outputs,
    ) -> RxOutcome {
        let Some(e) = self
            .rrt
            .get(usize::from(h.region))
            .filter(|e| e.valid == 1)
            .cloned()
        else {
            self.counters.auth_fail_sent += 1;
            let rk = self.reserved.clone();
            return self.reply(
                h,
                MsgType::AuthFail,
                Status::RemoteAuthenticationFailure,
                &rk,
                out,
            );
        };
        let kr = crypto::key_from_u128(e.key);
        let Ok(kd) = self.crypto.kd_cipher(&kr, h.src_nic, h.pid, h.op_type) else {
            self.counters.internal_errors += 1;
            return RxOutcome::Dropped(DropReason::Malformed);
        };
        if !Crypto::open_with(&kd, iv, aad, &mut [], tag) {
            self.counters.auth_fail_sent += 1;
            let rk = self.reserved.clone();
            return self.reply(
                h,
                MsgType::AuthFail,
                Status::RemoteAuthenticationFailure,
                &rk,
                out,
            );
        }
        let (perm, len_ok) = match h.op_type {
            OpType::Read => (
                e.perm_remote_read,
                (1..=MAX_OP).contains(&u32::from(h.length)),
            ),
            OpType::Write => (
                e.perm_remote_write,
                (1..=MAX_OP).contains(&u32::from(h.length)),
            ),
            OpType::Rekey => (e.perm_remote_rekey, h.length == REKEY_LEN),
        };
        if perm != 1 || !len_ok || !in_bounds(h.offset, u64::from(h.length), e.size) {
            self.counters.access_err_sent += 1;
            return self.reply(h, MsgType::AccessErr, Status::RemoteAccessError, &kd, out);
        }
        if self.inq.len() >= usize::from(self.cfg.nack_depth) {
            self.counters.nack_sent += 1;
            return self.reply(h, MsgType::Nack, Status::Nack, &kd, out);
        }
        self.inq.push_back(InReq {
            hdr: h.clone(),
            kd,
            base: e.base_addr,
        });
        RxOutcome::Enqueued
    }

    /// The slot a response names, if it is busy with a dispatched op of the message's type to the
    /// message's sender.
    fn reply_slot(&self, h: &Hdr) -> Option<(u16, u32)> {
        let s = self.slots.get(usize::from(h.slot))?;
        let o = s.op.as_ref()?;
        (s.busy && o.phase != Phase::Queued && o.op == h.op_type && o.cmd.remote_nic == h.src_nic)
            .then_some((h.slot, s.inst))
    }

    fn rx_rd_resp(
        &mut self,
        now: u64,
        h: &Hdr,
        iv: &[u8; 12],
        aad: &[u8],
        payload: &[u8],
        tag: &[u8],
    ) -> RxOutcome {
        let stale = RxOutcome::Dropped(DropReason::Stale);
        let cb = u32::from(self.cfg.chunk_bytes);
        let Some((slot, inst)) = self.reply_slot(h) else {
            return stale;
        };
        let Some(o) = self.op_of(slot, inst) else {
            return stale;
        };
        let len = u32::from(o.cmd.length);
        let off = u32::from(h.chunk_offset);
        let chunk = off / cb;
        if !matches!(o.phase, Phase::AwaitFirst | Phase::Reading)
            || o.req_counter != Some(h.prev_counter)
            || off % cb != 0
            || off >= len
            || o.chunks_rx & (1 << chunk) != 0
            || u32::from(h.chunk_len) != (len - off).min(cb)
        {
            return stale;
        }
        let kd = o.kd.clone();
        let mut data = std::mem::take(&mut self.rx_buf);
        data.clear();
        data.extend_from_slice(payload);
        if !Crypto::open_with(&kd, iv, aad, &mut data, tag) {
            self.rx_buf = data;
            return RxOutcome::Dropped(DropReason::Auth);
        }
        let Some(o) = self.op_of_mut(slot, inst) else {
            return stale;
        };
        o.phase = Phase::Reading;
        o.chunks_rx |= 1 << chunk;
        let addr = o
            .local_base
            .wrapping_add(o.cmd.local_offset)
            .wrapping_add(u64::from(off));
        let region = o.cmd.local_region;
        let t = self
            .host
            .dma_write(now, region, addr, &data, WritePurpose::ReadData { slot });
        self.rx_buf = data;
        self.push_timer(Q_WR, t, Timer::ReadLanded { slot, inst, chunk });
        RxOutcome::Accepted
    }

    fn rx_wr_rdreq(
        &mut self,
        now: u64,
        h: &Hdr,
        iv: &[u8; 12],
        aad: &[u8],
        tag: &[u8],
    ) -> RxOutcome {
        let stale = RxOutcome::Dropped(DropReason::Stale);
        let Some((slot, inst)) = self.reply_slot(h) else {
            return stale;
        };
        let Some(o) = self.op_of(slot, inst) else {
            return stale;
        };
        if o.phase != Phase::AwaitFirst || o.req_counter != Some(h.prev_counter) {
            return stale;
        }
        if !Crypto::open_with(&o.kd, iv, aad, &mut [], tag) {
            return RxOutcome::Dropped(DropReason::Auth);
        }
        let deadline = now + self.cfg.server_timeout + self.cfg.write_guard;
        let cb = u32::from(self.cfg.chunk_bytes);
        let Some(o) = self.op_of_mut(slot, inst) else {
            return stale;
        };
        o.phase = Phase::AwaitCmpl;
        o.rdreq_counter = h.counter;
        o.deadline = deadline;
        let (base, len, n) = (
            o.local_base.wrapping_add(o.cmd.local_offset),
            u32::from(o.cmd.length),
            o.n_chunks,
        );
        self.push_timer(Q_REARM, deadline, Timer::OpDeadline { slot, inst });
        for k in 0..n {
            let off = k * cb;
            let mut frame = self.payload_frame((len - off).min(cb) as usize);
            let t = self.host.dma_read_into(
                now,
                base.wrapping_add(u64::from(off)),
                payload_of(&mut frame),
            );
            self.push_timer(
                Q_RD,
                t,
                Timer::WrDataReady {
                    slot,
                    inst,
                    chunk: k,
                    frame,
                },
            );
        }
        RxOutcome::Accepted
    }

    #[allow(clippy::too_many_arguments)]
    fn rx_wr_data(
        &mut self,
        now: u64,
        h: &Hdr,
        iv: &[u8; 12],
        aad: &[u8],
        payload: &[u8],
        tag: &[u8],
        out: &mut Outputs,
    ) -> RxOutcome {
        let stale = RxOutcome::Dropped(DropReason::Stale);
        let cb = u32::from(self.cfg.chunk_bytes);
        let Some(&ci) = self.ctx_by_counter.get(&h.prev_counter) else {
            return stale;
        };
        let c = &self.ctxs[usize::from(ci)];
        let len = u32::from(c.req.length);
        let off = u32::from(h.chunk_offset);
        let chunk = off / cb;
        if !c.in_use
            || c.req.src_nic != h.src_nic
            || c.req.slot != h.slot
            || c.req.op_type != h.op_type
            || off % cb != 0
            || off >= len
            || c.chunks_rx & (1 << chunk) != 0
            || u32::from(h.chunk_len) != (len - off).min(cb)
        {
            return stale;
        }
        if now >= c.deadline {
            return RxOutcome::Dropped(DropReason::Late);
        }
        let mut data = std::mem::take(&mut self.rx_buf);
        data.clear();
        data.extend_from_slice(payload);
        if !Crypto::open_with(&c.kd, iv, aad, &mut data, tag) {
            self.rx_buf = data;
            return RxOutcome::Dropped(DropReason::Auth);
        }
        let c = &mut self.ctxs[usize::from(ci)];
        c.chunks_rx |= 1 << chunk;
        let req = c.req.clone();
        let inst = c.inst;
        match req.op_type {
            OpType::Rekey => {
                // The new K_r is installed atomically on the authenticated data (protocol.md §4.3).
                if let (Some(e), Ok(k)) = (
                    self.rrt.get_mut(usize::from(req.region)),
                    <[u8; 16]>::try_from(&data[..]),
                ) && e.valid == 1
                {
                    e.key = crypto::key_to_u128(&k);
                }
                self.finish_ctx(ci, out);
            }
            OpType::Read | OpType::Write => {
                let addr = c.base.wrapping_add(req.offset).wrapping_add(u64::from(off));
                let purpose = WritePurpose::RemoteWrite {
                    initiator: req.src_nic,
                    slot: req.slot,
                    req_counter: req.counter,
                };
                let t = self.host.dma_write(now, req.region, addr, &data, purpose);
                self.push_timer(
                    Q_WR,
                    t,
                    Timer::CtxWritten {
                        ctx: ci,
                        inst,
                        chunk,
                    },
                );
            }
        }
        self.rx_buf = data;
        RxOutcome::Accepted
    }

    /// WR_CMPL, NACK, ACCESS_ERR, AUTH_FAIL at the initiator (protocol.md §4.2 step 5, §4.4).
    fn rx_final(
        &mut self,
        now: u64,
        h: &Hdr,
        iv: &[u8; 12],
        aad: &[u8],
        tag: &[u8],
        out: &mut Outputs,
    ) -> RxOutcome {
        let stale = RxOutcome::Dropped(DropReason::Stale);
        let Some((slot, inst)) = self.reply_slot(h) else {
            return stale;
        };
        let Some(o) = self.op_of(slot, inst) else {
            return stale;
        };
        let (matches, key, status) = match h.msg_type {
            MsgType::WrCmpl => (
                o.phase == Phase::AwaitCmpl && o.rdreq_counter == h.prev_counter,
                &o.kd,
                h.status,
            ),
            MsgType::AuthFail => (
                o.phase == Phase::AwaitFirst && o.req_counter == Some(h.prev_counter),
                &self.reserved,
                Status::RemoteAuthenticationFailure,
            ),
            MsgType::Nack => (
                o.phase == Phase::AwaitFirst && o.req_counter == Some(h.prev_counter),
                &o.kd,
                Status::Nack,
            ),
            _ => (
                o.phase == Phase::AwaitFirst && o.req_counter == Some(h.prev_counter),
                &o.kd,
                Status::RemoteAccessError,
            ),
        };
        if !matches {
            return stale;
        }
        if !Crypto::open_with(key, iv, aad, &mut [], tag) {
            return RxOutcome::Dropped(DropReason::Auth);
        }
        self.complete(now, slot, status, out);
        RxOutcome::Accepted
    }
}

fn empty_hdr() -> Hdr {
    Hdr {
        msg_type: MsgType::RdReq,
        op_type: OpType::Read,
        status: Status::Ok,
        src_nic: 0,
        dst_nic: 0,
        counter: 0,
        prev_counter: 0,
        pid: 0,
        region: 0,
        slot: 0,
        offset: 0,
        length: 0,
        chunk_offset: 0,
        chunk_len: 0,
    }
}
