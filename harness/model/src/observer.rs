//! The model as a checker of a device NIC (docs/model.md, "Observer").
//!
//! An [`Observer`] follows one device NIC `D` (the RTL, or a model NIC standing in for it). It
//! holds a *shadow* [`Nic`] in manual mode with the device's receive-crypto latency, an
//! instantaneous host port and frame-less deadlines that act as late as allowed: the most a
//! device may legally do, and as early as it may do it. The harness gives the
//! observer every input it gives `D` (command writes with `D`'s bus answer, frames with the cycle
//! of their last beat, software's writes to host memory) and every output `D` produced ([`Seen`]:
//! frames, DMA writes, DMA reads), each with its cycle, in nondecreasing cycle order.
//!
//! `D`'s choices are read off its outputs and forced on the shadow: a hop-1 request is the
//! dispatch of its slot with `D`'s counter; the first RD_RESP of a request is the service of the
//! READ queue head; a WR_RDREQ is the service of the WRITE queue head with `D`'s context and
//! counter. Everything else the shadow produces is an *expectation*: a frame (sealed with the
//! counter `D` shows, then compared byte for byte, tag included), a host write (compared byte for
//! byte, in any split), a completion record (fields compared; the delays against the cycles the
//! observer saw), a grant for host reads. Each expectation has the latest cycle it may appear
//! ([`ObserverConfig::reaction_max`] after the shadow made it); one that is missing then is a
//! [`Divergence`], unless the shadow made it within [`ObserverConfig::margin`] of its op's or
//! context's deadline (then `D` may legally have had it pending when the deadline acted, and it
//! is dropped). The first illegal output is a [`Divergence`] naming the cycle, the NIC, the field,
//! the expected and the observed value.
//!
//! The shadow's memory takes only the bytes `D` was seen writing, so later READ services compare
//! against `D`'s memory. Assumptions (docs/model.md): no op reads host bytes another op is
//! writing at the same time; within [`ObserverConfig::nack_skew`] of the NACK threshold both
//! choices are legal (0: the threshold is exact).

use std::sync::{Arc, Mutex, PoisonError};

use onerma_layouts::{Cpl, Hdr, MsgType, RrtEntry, Status};

use crate::config::NicConfig;
use crate::crypto::{self, CipherKey, Crypto, TAG_LEN};
use crate::error::{ModelError, SubmitError};
use crate::host::{DmaError, ErrorRange, HostConfig, HostMem, HostPort, ReadPurpose, WritePurpose};
use crate::nic::{DropReason, Nic, Outputs, RxOutcome};
use crate::responder::InQueue;
use crate::shared::ShadowTap;
use crate::wire::{self, COUNT_MAX, HDR_LEN};

/// Frames a device may send out of counter order and still be legal: protocol.md §3.2 asks
/// only that counters strictly increase in the order they are *assigned*; a sealer with several
/// engines may send frames in completion order (a short reply passes a 1 KB chunk), so the wire
/// order may differ (the RTL sealer sends in staging order, so in counter order: docs/nic.md).
/// The observer therefore checks that no counter is sent twice, over the last `COUNTER_WINDOW`
/// frames, and that no frame comes more than that many frames late (a counter at or below one
/// already forgotten is refused).
const COUNTER_WINDOW: usize = 4096;

#[derive(Default)]
struct CounterLedger {
    seen: std::collections::HashSet<u64>,
    order: std::collections::VecDeque<u64>,
    /// The largest counter evicted from the window.
    floor: Option<u64>,
}

impl CounterLedger {
    /// Err: what a legal counter would have been.
    fn check(&self, c: u64) -> Result<(), String> {
        if let Some(f) = self.floor
            && c <= f
        {
            return Err(format!(
                "above {f:#x} (each counter once; a frame at most {COUNTER_WINDOW} frames late)"
            ));
        }
        if self.seen.contains(&c) {
            return Err("a counter not sent before (each counter once)".to_string());
        }
        Ok(())
    }

    fn record(&mut self, c: u64) {
        self.seen.insert(c);
        self.order.push_back(c);
        if self.order.len() > COUNTER_WINDOW
            && let Some(old) = self.order.pop_front()
        {
            self.seen.remove(&old);
            self.floor = Some(self.floor.map_or(old, |f| f.max(old)));
        }
    }
}

/// The first output of a device that the protocol does not allow, or an output that never came.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cycle {cycle}, NIC {nic:#x}: {field}: expected {expected}, got {got}")]
pub struct Divergence {
    pub cycle: u64,
    pub nic: u32,
    pub field: String,
    pub expected: String,
    pub got: String,
}

/// Why an observer stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObserveError {
    #[error(transparent)]
    Diverged(Box<Divergence>),
    /// The shadow model failed (a model bug or misuse of the observer's API).
    #[error("shadow model: {0}")]
    Model(#[from] ModelError),
}

/// An output of the device, as the observer is shown it.
#[derive(Debug, Clone, Copy)]
pub enum Seen<'a> {
    /// A frame the device sent (the cycle is that of its last beat on the wire).
    Frame(&'a [u8]),
    /// A DMA write the device issued (the cycle is its issue).
    HostWrite { addr: u64, data: &'a [u8] },
    /// A DMA read the device issued.
    HostRead { addr: u64, len: u64 },
}

/// Tolerances of the observer: how far a device may lag the earliest legal behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObserverConfig {
    /// Latest cycle after the shadow produced an output that the device may show it.
    pub reaction_max: u64,
    /// An output the shadow produced at most this many cycles before its op's or context's
    /// deadline may be missing at the device (its input was still pending there).
    pub margin: u64,
    /// Most cycles from a dispatch to the device's hop-1 frame (transmit crypto and framing):
    /// a record's `issue_delay` may be this much below the frame's cycle.
    pub tx_lag: u64,
    /// Most cycles from the cycle a record's `total_delay` counts to, to the record's write on
    /// the bus: 16 cycles of formatting plus the host write channel's queue (`Drain`, §6.4).
    pub record_lag: u64,
    /// Most inbound requests the device may have taken out of its queues (services started)
    /// before the observer sees them (their first frame): near `nack_depth` the device's
    /// occupancy may be this much below the shadow's, so both NACK and enqueue are legal there
    /// (protocol §7.2 step 4). 0: the threshold is exact.
    pub nack_skew: usize,
    /// Most cycles the device's tag result of a received frame may come after the shadow's (the
    /// shadow must have a receive-crypto latency of 0; the RTL's varies with the engines' load).
    /// Two races follow, and in both the observer holds a frame back from the shadow until an
    /// output of the device shows that the device took it (docs/model.md, "Observer"):
    /// - within this many cycles of a frame that passed its header checks and failed its tag, a
    ///   second frame for the same chunk, reply or control state of the same op may have been
    ///   dropped at the device as a duplicate of the pending one (protocol §7.4, §7.5, §8.3,
    ///   §8.4), or accepted if the first one's result came earlier;
    /// - a reply (NACK, ACCESS_ERR, AUTH_FAIL) ends its op only if no RD_RESP or WR_RDREQ of the
    ///   op engaged it before the reply's tag result (§7.5), so a reply and the frames of its op
    ///   that follow it within this window are held until the device's record or its landing
    ///   shows which won.
    ///
    /// 0: the shadow's pending windows are the device's.
    pub tag_skew: u64,
}

impl ObserverConfig {
    /// Tolerances from the bounds of a NIC configuration (protocol.md §6): a device may lag by
    /// its receive crypto, its host reads and writes, its timer slack, a transmit crypto as long
    /// as the receive one, 16 cycles of record formatting, and the serialization of a 4 KB op at
    /// the host write rate.
    #[must_use]
    pub fn for_nic(cfg: &NicConfig) -> Self {
        let tx_lag = cfg.rx_crypto_max;
        // Record formatting, then the queue of the host write channel: a device counts
        // `total_delay` when the record enters that channel (protocol.md §11), and the channel
        // holds at most `Drain` cycles of writes ahead of it (§6.4).
        let record_lag = 16 + cfg.timing().drain();
        let serialize = u64::from(wire::MAX_OP).div_ceil(u64::from(cfg.host_write_bytes_per_cycle));
        Self {
            reaction_max: cfg.timer_slack
                + cfg.rx_crypto_max
                + cfg.host_read_max
                + cfg.host_write_max
                + tx_lag
                + record_lag
                + serialize,
            margin: cfg.rx_crypto_max + cfg.host_read_max + cfg.host_write_max,
            tx_lag,
            record_lag,
            nack_skew: 0,
            tag_skew: 0,
        }
    }
}

/// Counts of what an observer checked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ObserverStats {
    pub frames: u64,
    pub host_writes: u64,
    pub host_write_bytes: u64,
    pub records: u64,
    pub host_reads: u64,
    /// Records whose status was TIMEOUT where the shadow had OK (legal: data still pending).
    pub late_timeouts: u64,
    /// Expectations dropped because the device may have had their input pending at a deadline.
    pub cancelled: u64,
    /// Frames held within `tag_skew` of a failed copy, and of them those the device's outputs
    /// showed it accepted (the others it dropped as duplicates of the pending copy).
    pub held: u64,
    pub held_accepted: u64,
}

/// The state a received frame claims at its receiver while its tag is checked (protocol §7.4,
/// §7.5, §8.3, §8.4): a second frame with the same key meanwhile is a duplicate. The op is
/// named by the slot (or server context) and the counter the frame answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PendKey {
    /// A RD_RESP chunk: slot, `prev_counter`, chunk offset.
    Chunk(u16, u64, u16),
    /// NACK, ACCESS_ERR, AUTH_FAIL: slot, `prev_counter`.
    Reply(u16, u64),
    /// WR_RDREQ and WR_CMPL (one pending state per slot): slot.
    Ctl(u16),
    /// A WR_DATA chunk at the server: context, `prev_counter`, chunk offset.
    Data(u16, u64, u16),
}

impl PendKey {
    fn of(h: &Hdr) -> Option<Self> {
        Some(match h.msg_type {
            MsgType::RdResp => Self::Chunk(h.slot, h.prev_counter, h.chunk_offset),
            MsgType::Nack | MsgType::AccessErr | MsgType::AuthFail => {
                Self::Reply(h.slot, h.prev_counter)
            }
            MsgType::WrRdreq | MsgType::WrCmpl => Self::Ctl(h.slot),
            MsgType::WrData => Self::Data(h.ctx, h.prev_counter, h.chunk_offset),
            _ => return None,
        })
    }

    /// The initiator slot whose state the key names.
    fn slot(self) -> Option<u16> {
        match self {
            Self::Chunk(s, ..) | Self::Reply(s, _) | Self::Ctl(s) => Some(s),
            Self::Data(..) => None,
        }
    }
}

/// A frame held within the tag skew (`ObserverConfig::tag_skew`).
#[derive(Debug)]
struct Held {
    key: PendKey,
    /// The status a reply ends its op with.
    reply: Option<Status>,
    /// Held only because a reply of its op is held (not for a failed copy).
    behind: bool,
    frame: Vec<u8>,
    /// Last cycle an output of the device may still show that it accepted the frame.
    until: u64,
}

#[derive(Debug, Default)]
struct Capture {
    /// Latest cycle a device transfer issued with the captured ones may complete.
    latest: u64,
    writes: Vec<CapWrite>,
    reads: Vec<(u64, u64, u64)>,
    /// Writes answered with an error `(region, cycle)`.
    errors: Vec<(u16, u64)>,
}

#[derive(Debug)]
struct CapWrite {
    addr: u64,
    data: Vec<u8>,
    purpose: WritePurpose,
    at: u64,
}

/// The shadow's host port: reads from a copy of the device's memory at once; writes are
/// captured as expectations and reach the copy only when the device is seen making them.
#[derive(Debug)]
struct ShadowHost {
    mem: HostMem,
    cap: Arc<Mutex<Capture>>,
    /// The device's host channels (bytes per cycle, 0 = unlimited) and how long a transfer
    /// may take after it starts (`host_read_max`, `host_write_max`): with them, the latest
    /// cycle each of the device's transfers may complete, queueing included.
    bpc: u32,
    read_max: u64,
    write_max: u64,
    rd_free: u64,
    wr_free: u64,
}

impl ShadowHost {
    fn latest(free: &mut u64, now: u64, len: usize, bpc: u32, max: u64) -> u64 {
        let start = now.max(*free);
        *free = start
            + if bpc == 0 {
                0
            } else {
                (len as u64).div_ceil(u64::from(bpc))
            };
        *free + max
    }
}

impl HostPort for ShadowHost {
    fn dma_read(
        &mut self,
        now: u64,
        region: u16,
        addr: u64,
        buf: &mut [u8],
        purpose: ReadPurpose,
    ) -> Result<u64, (DmaError, u64)> {
        let latest = Self::latest(&mut self.rd_free, now, buf.len(), self.bpc, self.read_max);
        let mut cap = self.cap.lock().unwrap_or_else(PoisonError::into_inner);
        cap.reads.push((addr, buf.len() as u64, now));
        cap.latest = cap.latest.max(latest);
        drop(cap);
        self.mem.read_dma(now, region, addr, buf, purpose)
    }

    fn dma_write(
        &mut self,
        now: u64,
        region: u16,
        addr: u64,
        data: &[u8],
        purpose: WritePurpose,
    ) -> Result<u64, (DmaError, u64)> {
        let latest = Self::latest(&mut self.wr_free, now, data.len(), self.bpc, self.write_max);
        let mut cap = self.cap.lock().unwrap_or_else(PoisonError::into_inner);
        cap.latest = cap.latest.max(latest);
        if let Some(e) = self.mem.error_at(addr, data.len(), false) {
            cap.errors.push((region, now));
            return Err((e, now));
        }
        cap.writes.push(CapWrite {
            addr,
            data: data.to_vec(),
            purpose,
            at: now,
        });
        Ok(now)
    }

    fn read_ready_at(&self) -> u64 {
        self.mem.read_channel_free_at()
    }

    fn mem(&self) -> Option<&HostMem> {
        Some(&self.mem)
    }

    fn mem_mut(&mut self) -> Option<&mut HostMem> {
        Some(&mut self.mem)
    }
}

/// Whose deadline may cancel an expectation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    /// The device's own op on a slot.
    Op(u16),
    /// A server context (a WRITE of another NIC).
    Ctx,
    None,
}

/// When an owed output is due, and whose deadline may cancel it.
#[derive(Debug, Clone, Copy)]
struct Due {
    /// Cycle the shadow made it.
    from: u64,
    /// Latest cycle the device's transfers this output follows may complete.
    latest: u64,
    /// Latest cycle the device may show it.
    by: u64,
    owner: Owner,
    /// Its latest cycle reaches its owner's deadline (within the margin).
    cancellable: bool,
}

#[derive(Debug)]
struct ExpFrame {
    hdr: Hdr,
    frame: Vec<u8>,
    key: CipherKey,
    due: Due,
}

#[derive(Debug)]
struct ExpWrite {
    addr: u64,
    data: Vec<u8>,
    covered: Vec<bool>,
    left: usize,
    due: Due,
}

/// Host bytes the shadow read for a service or a WRITE source: the device must read them too
/// (each byte once, in any split) within the reaction bound.
#[derive(Debug)]
struct Grant {
    addr: u64,
    covered: Vec<bool>,
    left: usize,
    until: u64,
}

#[derive(Debug)]
struct ExpRecord {
    addr: u64,
    cpl: Cpl,
    t_sub: u64,
    t_disp: Option<u64>,
    deadline: Option<u64>,
    from: u64,
    /// Latest cycle the device's transfers before this record may complete.
    latest: u64,
    by: u64,
}

/// The checker of one device NIC.
pub struct Observer {
    cfg: ObserverConfig,
    nic: NicConfig,
    shadow: Nic,
    cap: Arc<Mutex<Capture>>,
    out: Outputs,
    frames: Vec<ExpFrame>,
    writes: Vec<ExpWrite>,
    records: Vec<ExpRecord>,
    /// Host bytes the device may read, each once.
    grants: Vec<Grant>,
    /// Host ranges `(start, end, until)` of regions where a write just failed: the shadow stops
    /// an op's or context's writes at its first error, a device only once the error response
    /// came back, so the device's writes there until the failing write's own bound are legal.
    err_windows: Vec<(u64, u64, u64)>,
    /// Window reservations the shadow made `(cycle of the frame that showed it, lines)`: the
    /// device may have made a reservation shown later before one shown earlier (its sealer can
    /// hold a frame behind others), so an admission short of 64 free lines may count the lines
    /// of reservations shown within `tx_lag` before it as free.
    recent_rsv: Vec<(u64, u32)>,
    /// Device reads no grant covers yet `(addr, len, cycle)`: a READ service's reads come
    /// before the frame that shows the service.
    reads: Vec<(u64, u64, u64)>,
    counters: CounterLedger,
    /// The cycle the driver last stopped the device (`nic_enable = 0`): a request seen up to
    /// `tx_lag` later may come from a dispatch made before the stop.
    stopped_at: Option<u64>,
    /// Frames that passed their header checks and failed their tag `(key, cycle)`, kept
    /// `tag_skew` cycles.
    failed: Vec<(PendKey, u64)>,
    /// READs `(initiator, request counter)` being served when their region was committed: the
    /// device checks the entry before each host read (protocol §4.1), the shadow once at the
    /// service, so each of their RD_RESP chunks may be missing.
    recommitted: Vec<(u32, u64)>,
    /// Frames held within the tag skew, oldest first.
    held: Vec<Held>,
    now: u64,
    stats: ObserverStats,
}

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Observer")
            .field("nic", &self.nic.nic_addr)
            .field("now", &self.now)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

/// One header as a line of text: type, the op's echo fields and the chunk (divergence reports,
/// frame traces).
#[must_use]
pub fn hdr_text(h: &Hdr) -> String {
    format!(
        "{:?} slot {} region {} ctx {} offset {} length {} chunk {}+{} prev_counter {:#x}",
        h.msg_type,
        h.slot,
        h.region,
        h.ctx,
        h.offset,
        h.length,
        h.chunk_offset,
        h.chunk_len,
        h.prev_counter
    )
}

/// The first header field in which `a` and `b` differ (counter excluded).
fn hdr_diff(a: &Hdr, b: &Hdr) -> Option<(&'static str, String, String)> {
    macro_rules! f {
        ($($n:ident),*) => {$(
            if a.$n != b.$n {
                return Some((stringify!($n), format!("{:?}", a.$n), format!("{:?}", b.$n)));
            }
        )*};
    }
    f!(
        msg_type,
        op_type,
        status,
        src_nic,
        dst_nic,
        prev_counter,
        pid,
        region,
        slot,
        offset,
        length,
        chunk_offset,
        chunk_len,
        ctx,
        hold_ns
    );
    None
}

impl Observer {
    /// An observer of a device configured with `nic`, in the state of `device` (a model NIC
    /// holding the driver's setup: slots, RRT, host memory and its error ranges, counter), or
    /// of a device just out of reset when `device` is `None`.
    ///
    /// # Errors
    /// A configuration the model refuses.
    pub fn new(
        nic: &NicConfig,
        cfg: ObserverConfig,
        device: Option<&Nic>,
    ) -> Result<Self, ModelError> {
        // The device's receive-crypto latency is kept: whether a second copy of a pending chunk
        // is a duplicate (S1) depends on it, so the shadow must see the same pending windows.
        // Frame-less deadlines act as late as allowed, so the shadow releases everything a
        // device may still release; a device record that comes earlier forces the shadow's
        // deadline (`early_timeout`).
        if cfg.tag_skew > 0 && nic.rx_crypto_latency != 0 {
            return Err(ModelError::Config(
                "an observer with a tag skew needs a receive-crypto latency of 0".into(),
            ));
        }
        let mut sc = nic.clone();
        sc.deadline_lag = sc.timer_slack;
        sc.dispatch_lag = cfg.tx_lag;
        sc.log_host_writes = false;
        sc.record_key_iv = false;
        let instant = HostConfig {
            read_latency: 0,
            write_latency: 0,
            bytes_per_cycle: 0,
        };
        let mem = match device.and_then(Nic::mem) {
            Some(m) => m.copy_with(instant),
            None => HostMem::new(instant, false),
        };
        let cap = Arc::new(Mutex::new(Capture::default()));
        let host = ShadowHost {
            mem,
            cap: Arc::clone(&cap),
            bpc: nic.host.bytes_per_cycle,
            read_max: nic.host_read_max,
            write_max: nic.host_write_max,
            rd_free: 0,
            wr_free: 0,
        };
        let mut shadow = Nic::with_host(sc, Box::new(host))?;
        shadow.set_manual(true);
        shadow.write_age_lag = cfg.tx_lag;
        shadow.nack_skew = cfg.nack_skew;
        if let Some(d) = device {
            for r in 0..nic.num_regions {
                if let Some(e) = d.rrt(r).filter(|e| e.valid != 0) {
                    shadow.write_rrt(r, e.clone())?;
                }
            }
            for s in 0..nic.num_slots {
                if let Some((true, pid)) = d.ini.slot_config(s) {
                    shadow.enable_slot(s, pid)?;
                }
            }
            shadow.set_count(d.sh.count());
            shadow.stopped = d.stopped;
        } else {
            // Out of reset `nic_enable` is 0: the driver's write starts the device.
            shadow.stopped = true;
        }
        shadow.sh.shadow = Some(ShadowTap::default());
        Ok(Self {
            cfg,
            nic: nic.clone(),
            shadow,
            cap,
            out: Outputs::default(),
            frames: Vec::new(),
            writes: Vec::new(),
            records: Vec::new(),
            grants: Vec::new(),
            err_windows: Vec::new(),
            recent_rsv: Vec::new(),
            reads: Vec::new(),
            counters: CounterLedger::default(),
            stopped_at: None,
            failed: Vec::new(),
            recommitted: Vec::new(),
            held: Vec::new(),
            now: 0,
            stats: ObserverStats::default(),
        })
    }

    #[must_use]
    pub fn stats(&self) -> ObserverStats {
        self.stats
    }

    /// The shadow NIC (read-only: its counters, its window, its memory).
    #[must_use]
    pub fn shadow(&self) -> &Nic {
        &self.shadow
    }

    /// Outputs the device still owes `(frames, host writes, records)`.
    #[must_use]
    pub fn owed(&self) -> (usize, usize, usize) {
        (self.frames.len(), self.writes.len(), self.records.len())
    }

    fn diverge<T>(
        &self,
        field: impl Into<String>,
        expected: impl Into<String>,
        got: impl Into<String>,
    ) -> Result<T, ObserveError> {
        Err(ObserveError::Diverged(Box::new(Divergence {
            cycle: self.now,
            nic: self.nic.nic_addr,
            field: field.into(),
            expected: expected.into(),
            got: got.into(),
        })))
    }

    // ---- inputs the device was given ----

    /// The driver enabled `slot` for `pid`.
    ///
    /// # Errors
    /// As [`Nic::enable_slot`].
    pub fn enable_slot(&mut self, slot: u16, pid: u32) -> Result<(), ObserveError> {
        Ok(self.shadow.enable_slot(slot, pid)?)
    }

    /// The driver disabled `slot`.
    ///
    /// # Errors
    /// As [`Nic::disable_slot`].
    pub fn disable_slot(&mut self, slot: u16) -> Result<(), ObserveError> {
        Ok(self.shadow.disable_slot(slot)?)
    }

    /// The driver wrote `nic_enable` at `now` (§1.1). The caller must not let a frame's last
    /// beat or a command write reach the device between the register write and `now`: the
    /// device judges those by the value in force at that cycle.
    ///
    /// # Errors
    /// Time went back, or the shadow failed.
    pub fn set_enabled(&mut self, now: u64, enabled: bool) -> Result<(), ObserveError> {
        self.sync(now)?;
        if !enabled && self.shadow.enabled() {
            self.stopped_at = Some(now);
        }
        let mut out = std::mem::take(&mut self.out);
        let r = self.shadow.set_enabled(now, enabled, &mut out);
        self.out = out;
        r?;
        self.collect(now)
    }

    /// The driver committed an RRT entry at `now`.
    ///
    /// # Errors
    /// Time went back, or as [`Nic::commit_rrt`].
    pub fn commit_rrt(&mut self, now: u64, region: u16, e: RrtEntry) -> Result<(), ObserveError> {
        self.sync(now)?;
        // READs in service on this region: their chunks still to come may fail the device's
        // check of the new entry. The ones already owed become cancellable; later ones are
        // made so as they come (`collect`).
        let frames = &self.frames;
        let serving = self.shadow.rsp.serving_in(region);
        self.recommitted.retain(|k| {
            serving.contains(k)
                || frames.iter().any(|f| {
                    f.hdr.msg_type == MsgType::RdResp && (f.hdr.dst_nic, f.hdr.prev_counter) == *k
                })
        });
        for f in &mut self.frames {
            if f.hdr.msg_type == MsgType::RdResp && f.hdr.region == region {
                f.due.cancellable = true;
                let k = (f.hdr.dst_nic, f.hdr.prev_counter);
                if !self.recommitted.contains(&k) {
                    self.recommitted.push(k);
                }
            }
        }
        for k in serving {
            if !self.recommitted.contains(&k) {
                self.recommitted.push(k);
            }
        }
        Ok(self.shadow.commit_rrt(now, region, e)?)
    }

    /// Software wrote host memory directly (not through the device).
    pub fn software_write(&mut self, addr: u64, data: &[u8]) {
        if let Some(m) = self.shadow.mem_mut() {
            m.write(addr, data);
        }
    }

    /// An address range of host memory that answers an error to the device.
    pub fn error_range(&mut self, r: ErrorRange) {
        if let Some(m) = self.shadow.mem_mut() {
            m.errors.push(r);
        }
    }

    /// A write of `bytes` at `offset` of `slot`'s command page at `now`, which the device's bus
    /// answered OKAY (`accepted`) or SLVERR.
    ///
    /// # Errors
    /// The device's answer differs from the model's, or the shadow failed.
    pub fn cmd_write(
        &mut self,
        now: u64,
        slot: u16,
        offset: usize,
        bytes: &[u8],
        accepted: bool,
    ) -> Result<(), ObserveError> {
        self.sync(now)?;
        let mut out = std::mem::take(&mut self.out);
        let r = self
            .shadow
            .write_cmd_page(now, slot, offset, bytes, &mut out);
        self.out = out;
        self.collect(now)?;
        match r {
            Err(SubmitError::Model(e)) => Err(e.into()),
            Ok(_) if !accepted => {
                self.diverge(format!("command write to slot {slot}"), "OKAY", "SLVERR")
            }
            Err(e) if accepted => self.diverge(
                format!("command write to slot {slot}"),
                format!("SLVERR ({e})"),
                "OKAY",
            ),
            _ => Ok(()),
        }
    }

    /// A frame whose last beat reached the device at `now`.
    ///
    /// # Errors
    /// Time went back, a missing output came due, or the shadow failed.
    pub fn receive(&mut self, now: u64, frame: &[u8]) -> Result<RxOutcome, ObserveError> {
        self.sync(now)?;
        let key = if self.cfg.tag_skew > 0 {
            wire::parse(frame)
                .filter(|h| h.dst_nic == self.nic.nic_addr)
                .and_then(|h| PendKey::of(&h))
        } else {
            None
        };
        if let Some(key) = key {
            let skew = self.cfg.tag_skew;
            self.failed.retain(|&(_, t)| t + skew >= now);
            let reply = match wire::parse(frame).map(|h| h.msg_type) {
                Some(MsgType::Nack) => Some(Status::Nack),
                Some(MsgType::AccessErr) => Some(Status::RemoteAccessError),
                Some(MsgType::AuthFail) => Some(Status::RemoteAuthenticationFailure),
                _ => None,
            };
            // A copy of this one may still be pending at the device (and if this one is forged,
            // it may be pending when the genuine one comes); a reply of the op may or may not
            // have ended it.
            let behind_reply = key.slot().is_some_and(|s| {
                self.held
                    .iter()
                    .any(|e| e.reply.is_some() && e.key.slot() == Some(s))
            });
            let after_failed = self.failed.iter().any(|&(k, _)| k == key);
            if reply.is_some() || behind_reply || after_failed {
                if reply.is_none() {
                    self.failed.push((key, now));
                }
                self.held.push(Held {
                    key,
                    reply,
                    behind: reply.is_none() && !after_failed,
                    frame: frame.to_vec(),
                    until: now + skew + self.cfg.reaction_max,
                });
                self.stats.held += 1;
                return Ok(RxOutcome::Dropped(DropReason::Dup));
            }
        }
        let (r, _) = self.shadow_receive(now, frame, key)?;
        self.collect(now)?;
        Ok(r)
    }

    /// The shadow receives `frame` at `now`; a failed tag is remembered under `key` (and
    /// returned true).
    fn shadow_receive(
        &mut self,
        now: u64,
        frame: &[u8],
        key: Option<PendKey>,
    ) -> Result<(RxOutcome, bool), ObserveError> {
        let auth = self.shadow.counters().drop_auth;
        let mut out = std::mem::take(&mut self.out);
        let r = self.shadow.receive(now, frame, &mut out);
        self.out = out;
        let r = r?;
        let failed = self.shadow.counters().drop_auth > auth;
        if let Some(key) = key
            && failed
        {
            self.failed.push((key, now));
        }
        Ok((r, failed))
    }

    /// The slot of a held frame whose op's completion record (`record`) or local bytes cover
    /// `addr`.
    fn held_slot_at(&self, addr: u64) -> Option<u16> {
        self.held
            .iter()
            .filter_map(|e| e.key.slot())
            .find(|&s| self.shadow.ini.live_cq(s).is_some_and(|(a, _)| a == addr))
    }

    /// The oldest held chunk that would make its op write `bytes` at host address `addr`: a
    /// RD_RESP's landing, a WR_DATA's at its context, whose plaintext has those bytes there
    /// (two WRITEs may land on the same bytes). (A held WR_RDREQ is shown by its WR_DATA, which
    /// names its counter; its source reads wait for it as a READ service's reads do.)
    fn held_covering(&self, addr: u64, bytes: &[u8]) -> Option<usize> {
        // `r` is the op's or context's host range; the chunk's first byte lands at `off` in it.
        let lands = |frame: &[u8], key: Option<&CipherKey>, r: Option<(u64, u64)>, off: u16| {
            let (Some(key), Some(h), Some((a, b))) = (key, wire::parse(frame), r) else {
                return false;
            };
            let lo = a.wrapping_add(u64::from(off));
            if addr < lo || addr >= b.min(lo.wrapping_add(u64::from(wire::CHUNK))) {
                return false;
            }
            let Ok((true, data)) = crate::initiator::open(key, &h, frame) else {
                return false;
            };
            let k = addr.wrapping_sub(lo) as usize;
            let n = bytes.len().min(data.len().saturating_sub(k));
            n > 0 && data[k..k + n] == bytes[..n]
        };
        self.held.iter().position(|e| match e.key {
            _ if e.reply.is_some() => false,
            PendKey::Chunk(s, _, off) => lands(
                &e.frame,
                self.shadow.ini.live_key(s),
                self.shadow.ini.live_local(s),
                off,
            ),
            PendKey::Data(c, _, off) => lands(
                &e.frame,
                self.shadow.rsp.ctx_key(c),
                self.shadow.rsp.ctx_range(c),
                off,
            ),
            PendKey::Ctl(_) | PendKey::Reply(..) => false,
        })
    }

    /// An output of the device the shadow does not owe: the oldest held frame (of `slot`'s
    /// op, if given) that is a reply with status `reply` (or, for `None`, not a reply) was
    /// accepted by the device after all, so the shadow takes it now. False if none is held.
    /// (With several such frames held at once the oldest is taken first; they are rare.)
    fn release_held(
        &mut self,
        slot: Option<u16>,
        reply: Option<Status>,
    ) -> Result<bool, ObserveError> {
        let Some(i) = self
            .held
            .iter()
            .position(|e| slot.is_none_or(|s| e.key.slot() == Some(s)) && e.reply == reply)
        else {
            return Ok(false);
        };
        self.release_at(i)?;
        Ok(true)
    }

    /// Held frame `i` was accepted by the device: the shadow takes it now.
    fn release_at(&mut self, i: usize) -> Result<(), ObserveError> {
        let e = self.held.remove(i);
        self.stats.held_accepted += 1;
        let now = self.now;
        let (r, failed) = self.shadow_receive(now, &e.frame, Some(e.key))?;
        self.collect(now)?;
        // If the shadow took it (not a forged or stale copy), the race of a reply is decided:
        // the frames held only behind it follow, in order of arrival (after a reply that ended
        // the op they are stale), and a reply that lost is dropped.
        if let Some(s) = e.key.slot().filter(|_| r == RxOutcome::Accepted && !failed) {
            let (rest, keep): (Vec<Held>, Vec<Held>) = std::mem::take(&mut self.held)
                .into_iter()
                .partition(|h| h.key.slot() == Some(s) && (h.behind || h.reply.is_some()));
            self.held = keep;
            for h in rest {
                if h.behind {
                    self.stats.held_accepted += 1;
                    self.shadow_receive(now, &h.frame, Some(h.key))?;
                    self.collect(now)?;
                }
            }
        }
        Ok(())
    }

    /// Time passed to `now`: the shadow's timers act, and every output owed before `now` must
    /// have been seen.
    ///
    /// # Errors
    /// A missing output, or the shadow failed.
    pub fn advance(&mut self, now: u64) -> Result<(), ObserveError> {
        self.sync(now)
    }

    /// End of the run at `now`: everything owed must have appeared unless it may be cancelled.
    ///
    /// # Errors
    /// The first output still owed.
    pub fn finish(&mut self, now: u64) -> Result<(), ObserveError> {
        self.sync(now)?;
        self.expire(u64::MAX)
    }

    // ---- outputs of the device ----

    /// An output of the device at `now`.
    ///
    /// # Errors
    /// The output is not legal now (a [`Divergence`]), an earlier output is missing, or the
    /// shadow failed.
    pub fn seen(&mut self, now: u64, s: Seen<'_>) -> Result<(), ObserveError> {
        self.sync(now)?;
        match s {
            Seen::Frame(f) => self.seen_frame(now, f),
            Seen::HostWrite { addr, data } => self.seen_write(addr, data),
            Seen::HostRead { addr, len } => self.seen_read(addr, len),
        }
    }

    fn seen_frame(&mut self, now: u64, f: &[u8]) -> Result<(), ObserveError> {
        let Some(h) = wire::parse(f) else {
            return self.diverge("frame", "a well-formed frame", format!("{} bytes", f.len()));
        };
        if h.src_nic != self.nic.nic_addr {
            return self.diverge(
                "frame src_nic",
                format!("{:#x}", self.nic.nic_addr),
                format!("{:#x}", h.src_nic),
            );
        }
        if h.counter >> 48 != u64::from(self.nic.epoch) {
            return self.diverge(
                "frame counter epoch",
                self.nic.epoch.to_string(),
                (h.counter >> 48).to_string(),
            );
        }
        if let Err(want) = self.counters.check(h.counter) {
            return self.diverge("frame counter", want, format!("{:#x}", h.counter));
        }
        match h.msg_type {
            MsgType::RdReq | MsgType::WrReq | MsgType::RekeyReq => self.dispatch(now, &h)?,
            MsgType::RdResp if self.match_frame(&h).is_none() => {
                self.serve(now, InQueue::Read, &h)?
            }
            MsgType::WrRdreq => self.serve(now, InQueue::Write, &h)?,
            MsgType::Nack if self.match_frame(&h).is_none() => {
                // A request the shadow enqueued within the NACK skew.
                let mut out = std::mem::take(&mut self.out);
                let r = self.shadow.nack_either(h.dst_nic, h.prev_counter, &mut out);
                self.out = out;
                r?;
                self.collect(now)?;
            }
            _ => {}
        }
        if self.match_frame(&h).is_none() && matches!(h.msg_type, MsgType::WrData | MsgType::WrCmpl)
        {
            // A WR_DATA shows which held WR_RDREQ of its slot was taken (its counter and
            // context: a request served twice gets two); a WR_CMPL its context's WR_DATA.
            let i = self.held.iter().position(|e| match e.key {
                PendKey::Ctl(s) => {
                    h.msg_type == MsgType::WrData
                        && s == h.slot
                        && wire::parse(&e.frame).is_some_and(|r| {
                            r.msg_type == MsgType::WrRdreq
                                && r.counter == h.prev_counter
                                && r.ctx == h.ctx
                        })
                }
                PendKey::Data(c, ..) => h.msg_type == MsgType::WrCmpl && c == h.ctx,
                _ => false,
            });
            if let Some(i) = i {
                self.release_at(i)?;
                return self.seen_frame(now, f);
            }
        }
        let Some(i) = self.match_frame(&h) else {
            let near = self
                .frames
                .iter()
                .filter(|e| e.hdr.msg_type == h.msg_type)
                .find_map(|e| hdr_diff(&e.hdr, &h));
            return match near {
                Some((field, exp, got)) => {
                    self.diverge(format!("{:?} frame field {field}", h.msg_type), exp, got)
                }
                None => self.diverge("frame", "no frame owed of this kind", hdr_text(&h)),
            };
        };
        let iv = crypto::iv(h.src_nic, h.counter).map_err(ModelError::from)?;
        // Copies of one request served twice owe frames with equal headers: take the one whose
        // bytes the device sent, else report against the oldest.
        let mut i = i;
        let mut exp = Vec::new();
        let candidates: Vec<usize> = (0..self.frames.len())
            .filter(|&j| {
                let mut a = self.frames[j].hdr.clone();
                a.counter = h.counter;
                a == h
            })
            .collect();
        for &j in &candidates {
            let sealed = self.seal(j, &h, &iv)?;
            if sealed == f {
                (i, exp) = (j, sealed);
                break;
            }
        }
        if exp.is_empty() {
            i = candidates
                .iter()
                .copied()
                .min_by_key(|&j| self.frames[j].due.from)
                .unwrap_or(i);
            exp = self.seal(i, &h, &iv)?;
        }
        let e = self.frames.swap_remove(i);
        if exp != f {
            // Which part: the tag under the expected key, else the first payload byte.
            let mut body = f[HDR_LEN..f.len() - TAG_LEN].to_vec();
            let ok = Crypto::open_with(
                &e.key,
                &iv,
                &f[..HDR_LEN],
                &mut body,
                &f[f.len() - TAG_LEN..],
            );
            if !ok {
                return self.diverge(
                    format!("{:?} frame tag", h.msg_type),
                    "a tag valid under the op's key",
                    "a tag that does not verify",
                );
            }
            let mut want = exp[HDR_LEN..exp.len() - TAG_LEN].to_vec();
            if !Crypto::open_with(
                &e.key,
                &iv,
                &exp[..HDR_LEN],
                &mut want,
                &exp[exp.len() - TAG_LEN..],
            ) {
                return Err(
                    ModelError::Internal("the shadow's own frame does not verify".into()).into(),
                );
            }
            let k = want
                .iter()
                .zip(&body)
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            return self.diverge(
                format!("{:?} frame payload byte {k}", h.msg_type),
                format!("{:#04x}", want.get(k).copied().unwrap_or(0)),
                format!("{:#04x}", body.get(k).copied().unwrap_or(0)),
            );
        }
        self.counters.record(h.counter);
        let next = (h.counter & COUNT_MAX) + 1;
        if self.shadow.sh.count() < next {
            self.shadow.set_count(next);
        }
        self.stats.frames += 1;
        Ok(())
    }

    /// Owed frame `j` sealed with the counter of the device's frame `h`.
    fn seal(&self, j: usize, h: &Hdr, iv: &[u8; 12]) -> Result<Vec<u8>, ObserveError> {
        let e = &self.frames[j];
        let mut exp = e.frame.clone();
        let mut eh = e.hdr.clone();
        eh.counter = h.counter;
        exp[..HDR_LEN].copy_from_slice(&eh.to_bytes().map_err(ModelError::from)?);
        Crypto::new(false).seal_with(&e.key, iv, &mut exp);
        Ok(exp)
    }

    fn match_frame(&self, h: &Hdr) -> Option<usize> {
        self.frames.iter().position(|e| {
            let mut a = e.hdr.clone();
            a.counter = h.counter;
            a == *h
        })
    }

    /// The device's hop-1 request reveals a dispatch of its slot with its counter.
    fn dispatch(&mut self, now: u64, h: &Hdr) -> Result<(), ObserveError> {
        if self.shadow.ini.head_class(h.slot).is_none() {
            // Queued ops the device expired on time may still sit in the shadow (held for
            // `tx_lag`): one of them may be ahead of the dispatched slot.
            self.expire_due(now)?;
        }
        let Some(class) = self.shadow.ini.head_class(h.slot) else {
            return self.diverge(
                format!("{:?} dispatch", h.msg_type),
                "a slot at the head of a class queue",
                format!("slot {}", h.slot),
            );
        };
        if let Some(t) = self.shadow.sh.shadow.as_mut() {
            t.counter = Some(h.counter);
        }
        // A dispatch the device made before a stop shows up to `tx_lag` after it.
        let restop = self.shadow.stopped
            && self
                .stopped_at
                .is_some_and(|t| now <= t.saturating_add(self.cfg.tx_lag));
        if restop {
            self.shadow.stopped = false;
        }
        let mut out = std::mem::take(&mut self.out);
        let mut before = self.shadow.window_free();
        let mut r = self.shadow.dispatch(now, class, &mut out);
        if matches!(r, Err(crate::error::ChoiceError::WindowShort { .. })) {
            // The device may have ended expired contexts earlier than the shadow, freeing their
            // lines without an output.
            self.shadow.force_ctx_deadlines(now, &mut out)?;
            if let Some(t) = self.shadow.sh.shadow.as_mut() {
                t.counter = Some(h.counter);
            }
            before = self.shadow.window_free();
            r = self.shadow.dispatch(now, class, &mut out);
        }
        if matches!(r, Err(crate::error::ChoiceError::WindowShort { .. })) {
            // The device may have admitted this op before a reservation it showed earlier.
            self.shadow.admit_slack = self.recent_slack(now);
            if let Some(t) = self.shadow.sh.shadow.as_mut() {
                t.counter = Some(h.counter);
            }
            r = self.shadow.dispatch(now, class, &mut out);
            self.shadow.admit_slack = 0;
        }
        if r.is_ok() {
            let lines = before.saturating_sub(self.shadow.window_free());
            self.recent_rsv.push((now, lines));
        }
        self.out = out;
        if restop {
            self.shadow.stopped = true;
        }
        if let Some(t) = self.shadow.sh.shadow.as_mut() {
            t.counter = None;
        }
        if let Err(e) = r {
            return self.diverge(
                format!("dispatch of slot {}", h.slot),
                "a legal dispatch",
                e.to_string(),
            );
        }
        self.collect(now)
    }

    /// The device's first frame of a service reveals the service of a queue head. A head whose
    /// region changed since its check is discarded silently, so serve until frames come.
    fn serve(&mut self, now: u64, q: InQueue, h: &Hdr) -> Result<(), ObserveError> {
        // Heads the shadow enqueued within the NACK skew ahead of the one served: the device
        // NACKed them (their NACKs are owed now).
        while let Some((src, counter, true)) = self.shadow.inbound_head(q) {
            if (src, counter) == (h.dst_nic, h.prev_counter) {
                break;
            }
            let mut out = std::mem::take(&mut self.out);
            let r = self.shadow.nack_either(src, counter, &mut out);
            self.out = out;
            r?;
            self.collect(now)?;
        }
        if q == InQueue::Write {
            let full = self.shadow.window_free() < wire::QUANTUM_LINES;
            if full || !self.shadow.rsp.ctx_is_free(h.ctx) {
                // As in `dispatch`: the device may have ended expired contexts already.
                let mut out = std::mem::take(&mut self.out);
                let r = self.shadow.force_ctx_deadlines(now, &mut out);
                self.out = out;
                r?;
                self.collect(now)?;
            }
            if !self.shadow.rsp.ctx_is_free(h.ctx) {
                return self.diverge("WR_RDREQ ctx", "a free write context", h.ctx.to_string());
            }
            // The device decided the service before its WR_RDREQ left (up to `tx_lag`): the
            // shadow may have discarded the request by age meanwhile.
            self.shadow
                .revive_aged_write(now, h.dst_nic, h.prev_counter);
            if self.shadow.window_free() < wire::QUANTUM_LINES {
                // As in `dispatch`: admitted before a reservation the device showed earlier.
                self.shadow.admit_slack = self.recent_slack(now);
            }
            if let Some(t) = self.shadow.sh.shadow.as_mut() {
                t.counter = Some(h.counter);
                t.ctx = Some(h.ctx);
            }
        }
        let before = self.frames.len();
        let free_before = self.shadow.window_free();
        let mut r = Ok(());
        while self.frames.len() == before && self.shadow.rsp.queue_len(q) > 0 {
            r = self.serve_once(now, q);
            if r.is_err() {
                break;
            }
        }
        self.shadow.admit_slack = 0;
        if r.is_ok() && q == InQueue::Write {
            let lines = free_before.saturating_sub(self.shadow.window_free());
            self.recent_rsv.push((now, lines));
        }
        if let Some(t) = self.shadow.sh.shadow.as_mut() {
            t.counter = None;
            t.ctx = None;
        }
        r
    }

    /// Lines of the reservations shown within `tx_lag` before `now`.
    fn recent_slack(&mut self, now: u64) -> u32 {
        let lag = self.cfg.tx_lag;
        self.recent_rsv.retain(|&(t, _)| t + lag >= now);
        self.recent_rsv.iter().map(|&(_, l)| l).sum()
    }

    fn serve_once(&mut self, now: u64, q: InQueue) -> Result<(), ObserveError> {
        let mut out = std::mem::take(&mut self.out);
        let s = self.shadow.serve_inbound(now, q, &mut out).and_then(|()| {
            self.shadow
                .advance(now, &mut out)
                .map_err(crate::error::ChoiceError::Model)
        });
        self.out = out;
        if let Err(e) = s {
            return self.diverge(
                format!("{q:?} service"),
                "a legal service of the queue head",
                e.to_string(),
            );
        }
        self.collect(now)
    }

    fn seen_write(&mut self, addr: u64, data: &[u8]) -> Result<(), ObserveError> {
        // A record with a reply's status: the held reply ended the op.
        if let Some(slot) = self.held_slot_at(addr)
            && let Ok(c) = Cpl::from_bytes(data)
        {
            while !self.records.iter().any(|r| r.addr == addr)
                && self.release_held(Some(slot), Some(c.status))?
            {}
        }
        if !self.records.iter().any(|r| r.addr == addr) {
            let timeout = Cpl::from_bytes(data).is_ok_and(|c| c.status == Status::Timeout);
            self.early_timeout(addr, timeout)?;
        }
        if !self.records.iter().any(|r| r.addr == addr) {
            self.early_expiry(addr)?;
        }
        // A record no deadline explains: the op took a held frame (a TIMEOUT near the deadline
        // is explained without it: the device dropped the frame).
        while !self.records.iter().any(|r| r.addr == addr)
            && let Some(slot) = self.held_slot_at(addr)
            && self.release_held(Some(slot), None)?
        {}
        if let Some(i) = self.records.iter().position(|r| r.addr == addr) {
            let r = self.records.swap_remove(i);
            return self.check_record(r, addr, data);
        }
        let mut pos = 0usize;
        while pos < data.len() {
            let a = addr.wrapping_add(pos as u64);
            // Owed writes may overlap (two ops landing at the same bytes, one of them perhaps
            // cancelled by its deadline): of those whose bytes this piece equals, take one that
            // cannot be cancelled, then the newest; else report against the first that covers
            // the address.
            let mut first = None;
            let mut hit: Option<(usize, usize, usize)> = None;
            for (i, e) in self.writes.iter().enumerate() {
                let k = a.wrapping_sub(e.addr);
                if k >= e.data.len() as u64 || e.covered[k as usize] {
                    continue;
                }
                let k = k as usize;
                let mut n = 0;
                while pos + n < data.len() && k + n < e.data.len() && !e.covered[k + n] {
                    n += 1;
                }
                first.get_or_insert((i, k, n));
                if e.data[k..k + n] == data[pos..pos + n]
                    && hit.is_none_or(|(j, _, _)| {
                        let b = &self.writes[j];
                        (!e.due.cancellable, e.due.from) > (!b.due.cancellable, b.due.from)
                    })
                {
                    hit = Some((i, k, n));
                }
            }
            let Some((i, k, n)) = hit else {
                let end = addr.saturating_add(data.len() as u64);
                if self
                    .err_windows
                    .iter()
                    .any(|w| w.0 <= a && end <= w.1 && self.now <= w.2)
                {
                    // Writes of an op or context whose earlier write failed, made before the
                    // device knew: legal, with bytes the protocol leaves unspecified there.
                    if let Some(m) = self.shadow.mem_mut() {
                        m.write(a, &data[pos..]);
                    }
                    break;
                }
                if let Some(i) = self.held_covering(a, &data[pos..]) {
                    self.release_at(i)?;
                    if pos == 0 {
                        return self.seen_write(addr, data);
                    }
                    continue;
                }
                return match first {
                    Some((i, k, n)) => {
                        let e = &self.writes[i];
                        let j = (0..n)
                            .find(|&j| e.data[k + j] != data[pos + j])
                            .unwrap_or(0);
                        let (want, got) = (e.data[k + j], data[pos + j]);
                        self.diverge(
                            format!("host write byte at {:#x}", a.wrapping_add(j as u64)),
                            format!("{want:#04x}"),
                            format!("{got:#04x}"),
                        )
                    }
                    None => self.diverge(
                        "host write",
                        "no write owed at this address",
                        format!("{} bytes at {a:#x}", data.len() - pos),
                    ),
                };
            };
            let e = &mut self.writes[i];
            e.covered[k..k + n].fill(true);
            e.left -= n;
            if e.left == 0 {
                self.writes.swap_remove(i);
            }
            if let Some(m) = self.shadow.mem_mut() {
                m.write(a, &data[pos..pos + n]);
            }
            pos += n;
        }
        self.stats.host_writes += 1;
        self.stats.host_write_bytes += data.len() as u64;
        Ok(())
    }

    /// A record at the completion address of a live op whose deadline is at most `tx_lag`
    /// away, or a TIMEOUT record (`timeout`) of an op whose re-arming WR_RDREQ came at most
    /// `tx_lag` before its deadline then: the device dispatched before its request was seen,
    /// so its deadline came first.
    fn early_timeout(&mut self, addr: u64, timeout: bool) -> Result<(), ObserveError> {
        let now = self.now;
        let lag = self.cfg.tx_lag;
        // The device's deadline may be up to `tx_lag` before the shadow's; a WR_RDREQ that
        // re-armed the shadow's op may have come after the device's deadline, where the
        // device found it late and timed out.
        let slot = (0..self.nic.num_slots).find(|&s| {
            self.shadow
                .ini
                .live_cq(s)
                .is_some_and(|(a, d)| a == addr && now + lag >= d)
                || (timeout
                    && self
                        .shadow
                        .ini
                        .rearmed_cq(s)
                        .is_some_and(|(a, t, d)| a == addr && t + lag >= d))
        });
        if let Some(slot) = slot {
            let mut out = std::mem::take(&mut self.out);
            let r = self.shadow.force_timeout(now, slot, &mut out);
            self.out = out;
            r?;
            self.collect(now)?;
        }
        Ok(())
    }

    /// Every queued op whose DISPATCH_TIMEOUT is due by `now` expires now.
    fn expire_due(&mut self, now: u64) -> Result<(), ObserveError> {
        let dt = self.nic.dispatch_timeout;
        for slot in 0..self.nic.num_slots {
            if self
                .shadow
                .ini
                .queued_cq(slot, dt)
                .is_some_and(|(_, due)| due <= now)
            {
                let mut out = std::mem::take(&mut self.out);
                let r = self.shadow.force_dispatch_expire(now, slot, &mut out);
                self.out = out;
                r?;
            }
        }
        self.collect(now)
    }

    /// A record at the completion address of a queued op whose DISPATCH_TIMEOUT is due (the
    /// shadow holds queued ops `tx_lag` longer, since a device dispatch shows only when its
    /// request leaves): the expiry acts now.
    fn early_expiry(&mut self, addr: u64) -> Result<(), ObserveError> {
        let now = self.now;
        let dt = self.nic.dispatch_timeout;
        let slot = (0..self.nic.num_slots).find(|&s| {
            self.shadow
                .ini
                .queued_cq(s, dt)
                .is_some_and(|(a, due)| a == addr && due <= now)
        });
        if let Some(slot) = slot {
            let mut out = std::mem::take(&mut self.out);
            let r = self.shadow.force_dispatch_expire(now, slot, &mut out);
            self.out = out;
            r?;
            self.collect(now)?;
        }
        Ok(())
    }

    fn check_record(&mut self, r: ExpRecord, addr: u64, data: &[u8]) -> Result<(), ObserveError> {
        let now = self.now;
        let Ok(got) = Cpl::from_bytes(data) else {
            return self.diverge(
                "completion record",
                format!("{} bytes", Cpl::BYTES),
                format!("{} bytes", data.len()),
            );
        };
        let want = &r.cpl;
        let slot = want.slot;
        for (field, a, b) in [
            ("valid", u64::from(want.valid), u64::from(got.valid)),
            ("op_type", u64::from(want.op_type), u64::from(got.op_type)),
            ("slot", u64::from(want.slot), u64::from(got.slot)),
            ("seq", u64::from(want.seq), u64::from(got.seq)),
        ] {
            if a != b {
                return self.diverge(
                    format!("record of slot {slot}: {field}"),
                    a.to_string(),
                    b.to_string(),
                );
            }
        }
        if got.status != want.status {
            // The shadow's data is never later than the device's: OK there may be TIMEOUT here
            // if the op's last input came within the margin of its deadline.
            let late_ok = want.status == Status::Ok
                && got.status == Status::Timeout
                && r.deadline
                    .is_some_and(|d| now + self.cfg.tx_lag >= d && r.latest + self.cfg.margin >= d);
            if !late_ok {
                return self.diverge(
                    format!("record of slot {slot}: status"),
                    format!("{:?}", want.status),
                    format!("{:?}", got.status),
                );
            }
            self.stats.late_timeouts += 1;
        }
        // What the op still owed: nothing may be left after OK; after another status, only
        // outputs the device may still have been preparing when the op ended (at its deadline,
        // or at the reply that ended it), which may no longer come.
        let end = r.from;
        let m = self.cfg.margin;
        let left = |c: bool| {
            self.writes.iter().any(|e| {
                e.due.owner == Owner::Op(slot)
                    && (!c || !(e.due.cancellable || e.due.latest + m >= end))
            }) || self.frames.iter().any(|e| {
                e.due.owner == Owner::Op(slot)
                    && (!c || !(e.due.cancellable || e.due.latest + m >= end))
            })
        };
        if left(got.status != Status::Ok) {
            return self.diverge(
                format!("record of slot {slot}: status"),
                format!(
                    "{:?} only after every output the op owed (one was not pending at its deadline)",
                    got.status
                ),
                format!("{:?} with an output missing", got.status),
            );
        }
        let before = self.writes.len() + self.frames.len();
        self.writes.retain(|e| e.due.owner != Owner::Op(slot));
        self.frames.retain(|e| e.due.owner != Owner::Op(slot));
        self.stats.cancelled += (before - self.writes.len() - self.frames.len()) as u64;
        let total_max = now.saturating_sub(r.t_sub);
        let total_min = total_max.saturating_sub(self.cfg.record_lag);
        let total = u64::from(got.total_delay);
        if total < total_min || total > total_max {
            return self.diverge(
                format!("record of slot {slot}: total_delay"),
                format!("{total_min}..={total_max}"),
                total.to_string(),
            );
        }
        let issue = u64::from(got.issue_delay);
        let (lo, hi) = match r.t_disp {
            Some(td) => {
                let hi = td.saturating_sub(r.t_sub);
                (hi.saturating_sub(self.cfg.tx_lag), hi)
            }
            None => (total, total),
        };
        if issue < lo || issue > hi {
            return self.diverge(
                format!("record of slot {slot}: issue_delay"),
                format!("{lo}..={hi}"),
                issue.to_string(),
            );
        }
        if let Some(m) = self.shadow.mem_mut() {
            m.write(addr, data);
        }
        self.stats.records += 1;
        Ok(())
    }

    fn seen_read(&mut self, addr: u64, len: u64) -> Result<(), ObserveError> {
        // A READ service shows first as its host reads: serve the head they belong to (heads
        // whose region changed are discarded by their service, silently).
        while !self.granted(addr, len) {
            match self.shadow.rsp.read_head(&self.shadow.sh.rrt) {
                Some((a, n, live))
                    if !live || (a <= addr && addr.saturating_add(len) <= a.saturating_add(n)) =>
                {
                    self.serve_once(self.now, InQueue::Read)?;
                }
                _ => break,
            }
        }
        if !self.consume(addr, len) {
            self.reads.push((addr, len, self.now));
        }
        self.stats.host_reads += 1;
        Ok(())
    }

    /// Whether unread granted bytes cover `[addr, addr + len)`.
    fn granted(&self, addr: u64, len: u64) -> bool {
        self.cover(addr, len, |_, _, _| ())
    }

    /// Walks `[addr, addr + len)` through the grants' unread bytes, calling `f(grant, first
    /// byte, count)` on each piece; false if a byte is not covered.
    fn cover(&self, addr: u64, len: u64, mut f: impl FnMut(usize, usize, usize)) -> bool {
        let mut pos = 0u64;
        while pos < len {
            let a = addr.wrapping_add(pos);
            let hit = self.grants.iter().position(|g| {
                a.wrapping_sub(g.addr) < g.covered.len() as u64
                    && !g.covered[a.wrapping_sub(g.addr) as usize]
            });
            let Some(i) = hit else { return false };
            let g = &self.grants[i];
            let k = a.wrapping_sub(g.addr) as usize;
            let mut n = 0usize;
            while pos + (n as u64) < len && k + n < g.covered.len() && !g.covered[k + n] {
                n += 1;
            }
            f(i, k, n);
            pos += n as u64;
        }
        true
    }

    /// Marks `[addr, addr + len)` read if the grants cover it.
    fn consume(&mut self, addr: u64, len: u64) -> bool {
        let mut pieces = Vec::new();
        if !self.cover(addr, len, |i, k, n| pieces.push((i, k, n))) {
            return false;
        }
        for (i, k, n) in pieces {
            let g = &mut self.grants[i];
            g.covered[k..k + n].fill(true);
            g.left -= n;
        }
        self.grants.retain(|g| g.left > 0);
        true
    }

    fn settle_reads(&mut self) {
        let mut reads = std::mem::take(&mut self.reads);
        reads.retain(|&(a, n, _)| !self.consume(a, n));
        self.reads = reads;
    }

    // ---- the shadow's side ----

    /// Brings the shadow to `now`, each timer at its own cycle, and checks what came due.
    fn sync(&mut self, now: u64) -> Result<(), ObserveError> {
        if now < self.now {
            return Err(ModelError::TimeWentBack {
                now,
                last: self.now,
            }
            .into());
        }
        while let Some(t) = self.shadow.next_wakeup().filter(|&t| t <= now) {
            let t = t.max(self.now);
            self.now = t;
            let mut out = std::mem::take(&mut self.out);
            let r = self.shadow.advance(t, &mut out);
            self.out = out;
            r?;
            self.collect(t)?;
            self.expire(t)?;
            if self.shadow.next_wakeup().is_some_and(|w| w <= t) {
                break;
            }
        }
        self.now = now;
        let mut out = std::mem::take(&mut self.out);
        let r = self.shadow.advance(now, &mut out);
        self.out = out;
        r?;
        self.collect(now)?;
        self.expire(now)
    }

    /// Everything owed with `by < now` is missing: dropped if cancellable, else a divergence.
    fn expire(&mut self, now: u64) -> Result<(), ObserveError> {
        if let Some(e) = self.records.iter().find(|r| r.by < now) {
            let (slot, st, by) = (e.cpl.slot, e.cpl.status, e.by);
            return self.diverge(
                format!("completion record of slot {slot}"),
                format!("{st:?} by cycle {by}"),
                "nothing",
            );
        }
        if let Some(e) = self
            .writes
            .iter()
            .find(|e| e.due.by < now && !e.due.cancellable)
        {
            let (a, n, from, by) = (e.addr, e.data.len(), e.due.from, e.due.by);
            return self.diverge(
                format!("host write at {a:#x}"),
                format!("{n} bytes (owed since cycle {from}) by cycle {by}"),
                format!("{} bytes", n - e.left),
            );
        }
        if let Some(e) = self
            .frames
            .iter()
            .find(|e| e.due.by < now && !e.due.cancellable)
        {
            let (t, from, by) = (hdr_text(&e.hdr), e.due.from, e.due.by);
            return self.diverge(
                "frame",
                format!("{t} (owed since cycle {from}) by cycle {by}"),
                "nothing",
            );
        }
        if let Some(&(a, n, at)) = self
            .reads
            .iter()
            .find(|r| r.2 + self.cfg.reaction_max < now)
        {
            return self.diverge(
                format!("host read at cycle {at}"),
                "a read of a served or source range",
                format!("{n} bytes at {a:#x}"),
            );
        }
        // An op's cancellable outputs wait for its record (an OK record needs them all); a
        // context's end shows only as missing outputs.
        let before = self.writes.len() + self.frames.len();
        self.writes
            .retain(|e| e.due.by >= now || matches!(e.due.owner, Owner::Op(_)));
        self.frames
            .retain(|e| e.due.by >= now || matches!(e.due.owner, Owner::Op(_)));
        self.stats.cancelled += (before - self.writes.len() - self.frames.len()) as u64;
        self.grants.retain(|g| g.until >= now);
        // No output showed a held frame accepted: the device dropped it as a duplicate.
        self.held.retain(|e| e.until >= now);
        self.err_windows.retain(|w| w.2 >= now);
        let lag = self.cfg.tx_lag;
        self.recent_rsv.retain(|&(t, _)| t + lag >= now);
        Ok(())
    }

    fn owner_deadline(&self, owner: Owner, h: Option<&Hdr>) -> Option<u64> {
        match owner {
            Owner::Op(slot) => self.shadow.ini.op_deadline(slot).or_else(|| {
                self.out
                    .completions
                    .iter()
                    .find(|c| c.slot == slot)
                    .and_then(|c| c.deadline)
            }),
            Owner::Ctx => h.and_then(|h| self.shadow.rsp.ctx_deadline(h.ctx)),
            Owner::None => None,
        }
    }

    /// Turns what the shadow produced at `t` into expectations.
    fn collect(&mut self, t: u64) -> Result<(), ObserveError> {
        let cap = std::mem::take(&mut *self.cap.lock().unwrap_or_else(PoisonError::into_inner));
        // The device may finish these outputs only after its transfers, queueing included.
        let base = t.max(cap.latest);
        let by = base + self.cfg.reaction_max;
        let margin = self.cfg.margin;
        let keys = self
            .shadow
            .sh
            .shadow
            .as_mut()
            .map(|s| std::mem::take(&mut s.keys))
            .unwrap_or_default();
        if keys.len() != self.out.messages.len() {
            return Err(ModelError::Internal("shadow frames without keys".into()).into());
        }
        let msgs = std::mem::take(&mut self.out.messages);
        for (frame, key) in msgs.into_iter().zip(keys) {
            let hdr = Hdr::from_bytes(&frame[..HDR_LEN]).map_err(ModelError::from)?;
            let owner = match hdr.msg_type {
                MsgType::WrData => Owner::Op(hdr.slot),
                MsgType::WrCmpl => Owner::Ctx,
                _ => Owner::None,
            };
            let cancellable = self
                .owner_deadline(owner, Some(&hdr))
                .is_some_and(|d| base + margin >= d)
                || (hdr.msg_type == MsgType::RdResp
                    && self.recommitted.contains(&(hdr.dst_nic, hdr.prev_counter)));
            self.frames.push(ExpFrame {
                hdr,
                frame,
                key,
                due: Due {
                    from: t,
                    latest: base,
                    by,
                    owner,
                    cancellable,
                },
            });
        }
        // The device makes the failing write itself, and the writes it issued before the error
        // came back, as late as it would have made that write (its own crypto and host write
        // queue), not only `host_write_max` after the shadow's.
        for (region, at) in cap.errors {
            if let Some(r) = self.shadow.sh.rrt.get(region) {
                let start = r.e.base_addr;
                self.err_windows.push((
                    start,
                    start.saturating_add(r.e.size),
                    at.max(base) + self.cfg.reaction_max,
                ));
            }
        }
        for (addr, len, at) in cap.reads {
            let n = usize::try_from(len).map_err(|_| ModelError::Internal("read length".into()))?;
            self.grants.push(Grant {
                addr,
                covered: vec![false; n],
                left: n,
                until: at + self.cfg.reaction_max,
            });
        }
        self.grants.retain(|g| g.left > 0);
        for w in cap.writes {
            let at = w.at;
            match w.purpose {
                WritePurpose::Completion { slot } => {
                    let Some(c) = self.out.completions.iter().find(|c| c.slot == slot) else {
                        return Err(ModelError::Internal(format!(
                            "record of slot {slot} without its completion"
                        ))
                        .into());
                    };
                    self.records.push(ExpRecord {
                        addr: w.addr,
                        cpl: c.cpl.clone(),
                        t_sub: c.t_sub,
                        t_disp: c.t_disp,
                        deadline: c.deadline,
                        from: at,
                        latest: at.max(base),
                        by: at.max(base) + self.cfg.reaction_max,
                    });
                }
                p => {
                    let (owner, deadline) = match p {
                        WritePurpose::ReadData { slot, .. } => {
                            (Owner::Op(slot), self.owner_deadline(Owner::Op(slot), None))
                        }
                        WritePurpose::RemoteWrite {
                            initiator,
                            slot,
                            req_counter,
                        } => (
                            Owner::Ctx,
                            self.shadow
                                .rsp
                                .ctx_deadline_of(initiator, slot, req_counter),
                        ),
                        WritePurpose::Completion { .. } => (Owner::None, None),
                    };
                    let n = w.data.len();
                    self.writes.push(ExpWrite {
                        addr: w.addr,
                        covered: vec![false; n],
                        left: n,
                        data: w.data,
                        due: Due {
                            from: at,
                            latest: at.max(base),
                            by: at.max(base) + self.cfg.reaction_max,
                            owner,
                            cancellable: deadline.is_some_and(|d| at.max(base) + margin >= d),
                        },
                    });
                }
            }
        }
        self.out.completions.clear();
        self.settle_reads();
        Ok(())
    }
}

#[cfg(test)]
mod counter_tests {
    use super::{COUNTER_WINDOW, CounterLedger};

    #[test]
    fn counters_may_leave_out_of_order_but_only_once() {
        let mut l = CounterLedger::default();
        for c in [5u64, 4, 7, 6] {
            assert!(l.check(c).is_ok(), "counter {c} refused");
            l.record(c);
        }
        assert!(l.check(4).is_err(), "a repeated counter accepted");
        assert!(l.check(8).is_ok());
    }

    #[test]
    fn a_frame_later_than_the_window_is_refused() {
        let mut l = CounterLedger::default();
        // Counters 10, 11, ... : after COUNTER_WINDOW + 1 frames, 10 is forgotten.
        for c in 10..(10 + COUNTER_WINDOW as u64 + 1) {
            l.record(c);
        }
        assert!(l.check(10).is_err(), "a forgotten counter accepted");
        assert!(
            l.check(9).is_err(),
            "a counter below the forgotten one accepted"
        );
        assert!(
            l.check(11).is_err(),
            "a counter still in the window accepted twice"
        );
        assert!(l.check(10 + COUNTER_WINDOW as u64 + 1).is_ok());
    }
}
