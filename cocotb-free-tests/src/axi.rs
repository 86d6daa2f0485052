//! An AXI4 memory (slave) model at the channel level, cycle by cycle.
//!
//! Each cycle: [`AxiMem::outputs`] gives what the slave drives (readies and the R/B beats on the
//! bus; decided once per cycle), the test bench drives the master side, then [`AxiMem::tick`]
//! performs the handshakes of that clock edge. Supported: INCR bursts of up to 256 beats, narrow
//! transfers (`size` below the bus width), an unaligned first beat, byte strobes, W beats
//! before their AW. Configurable: read latency (AR handshake to the first R beat offered),
//! write latency (last W beat to B), random back-pressure on AR/AW/W, random pauses before
//! R/B beats, and SLVERR/DECERR by address range (addresses past the memory are DECERR).
//! R beats come in AR order and B responses in AW order, whatever the IDs (a legal subset of
//! AXI ordering). A read sees the memory as it is when its beat is offered. The master's
//! AR/AW/W streams are checked against the stream rule; breaking it, a burst crossing 4 KB,
//! a `size` wider than the bus, a non-INCR burst or a misplaced WLAST is an [`AxiError`].

use std::collections::VecDeque;
use std::ops::Range;

use crate::stream::{RuleMonitor, StreamError, Throttle};

/// `xRESP` of AXI4 (EXOKAY is never produced: no exclusive access).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Resp {
    Okay,
    SlvErr,
    DecErr,
}

impl Resp {
    /// The 2-bit encoding on the bus.
    pub fn bits(self) -> u8 {
        match self {
            Resp::Okay => 0,
            Resp::SlvErr => 2,
            Resp::DecErr => 3,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Burst {
    Fixed,
    Incr,
    Wrap,
}

/// An AR or AW beat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addr {
    pub id: u32,
    pub addr: u64,
    /// Beats - 1 (`AxLEN`).
    pub len: u8,
    /// log2 of the bytes per beat (`AxSIZE`).
    pub size: u8,
    pub burst: Burst,
}

impl Addr {
    /// An INCR burst.
    pub fn incr(id: u32, addr: u64, beats: u16, size: u8) -> Self {
        Self {
            id,
            addr,
            len: u8::try_from(beats.saturating_sub(1)).unwrap_or(u8::MAX),
            size,
            burst: Burst::Incr,
        }
    }

    pub fn beats(&self) -> usize {
        usize::from(self.len) + 1
    }

    /// Byte addresses beat `n` carries: from its address up to the next `size` boundary.
    pub fn beat_bytes(&self, n: usize) -> Range<u64> {
        let bytes = 1u64 << self.size;
        let aligned = self.addr & !(bytes - 1);
        let start = if n == 0 {
            self.addr
        } else {
            aligned + n as u64 * bytes
        };
        // The top beat of the address space ends at 2^64, which a `Range<u64>` cannot hold: it
        // saturates (its last byte is dropped from the range, and it lies past any memory, so the
        // beat answers DECERR either way).
        start..(start & !(bytes - 1)).saturating_add(bytes)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WBeat {
    /// One byte per lane of the bus (lane = address modulo the bus width).
    pub data: Vec<u8>,
    /// Bit `i` enables lane `i`.
    pub strb: u64,
    pub last: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RBeat {
    pub id: u32,
    pub data: Vec<u8>,
    pub resp: Resp,
    pub last: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BResp {
    pub id: u32,
    pub resp: Resp,
}

/// What the master drives in one cycle (`Some` = valid).
#[derive(Debug, Clone, Default)]
pub struct MasterOut {
    pub ar: Option<Addr>,
    pub aw: Option<Addr>,
    pub w: Option<WBeat>,
    pub r_ready: bool,
    pub b_ready: bool,
}

/// What the slave drives in one cycle (`Some` = valid).
#[derive(Debug, Clone, Default)]
pub struct SlaveOut {
    pub ar_ready: bool,
    pub aw_ready: bool,
    pub w_ready: bool,
    pub r: Option<RBeat>,
    pub b: Option<BResp>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AxiError {
    #[error("bad memory configuration: {0}")]
    Config(String),
    #[error(transparent)]
    Stream(#[from] StreamError),
    #[error("cycle {cycle}: burst at {addr:#x} crosses a 4 KB boundary")]
    Crosses4k { cycle: u64, addr: u64 },
    #[error("cycle {cycle}: size {size} (2^size bytes) is wider than the {bus_bytes}-byte bus")]
    Size {
        cycle: u64,
        size: u8,
        bus_bytes: usize,
    },
    #[error("cycle {cycle}: {burst:?} bursts are not supported (INCR only)")]
    Burst { cycle: u64, burst: Burst },
    #[error("cycle {cycle}: WLAST {got} on beat {beat} of a {beats}-beat burst")]
    WLast {
        cycle: u64,
        beat: usize,
        beats: usize,
        got: bool,
    },
    #[error("cycle {cycle}: W beat with {got} data bytes on a {bus_bytes}-byte bus")]
    WWidth {
        cycle: u64,
        got: usize,
        bus_bytes: usize,
    },
}

/// Settings of [`AxiMem`].
#[derive(Debug, Clone)]
pub struct MemConfig {
    /// Data bus width in bytes: a power of two, 1..=64.
    pub bus_bytes: usize,
    /// Memory size in bytes, from address 0.
    pub size: usize,
    /// Cycles from the AR handshake to the first cycle its first R beat may be offered, >= 1.
    pub read_latency: u64,
    /// Cycles from the last W beat's handshake to the first cycle its B may be offered, >= 1.
    pub write_latency: u64,
    /// Chance per cycle that each of AR, AW and W is ready.
    pub p_ready: f64,
    /// Chance per cycle that a due R beat or B response goes on the bus.
    pub p_resp: f64,
    pub seed: u64,
    /// Address ranges that answer with an error instead of accessing the memory; the first
    /// range that holds any byte of a beat decides.
    pub errors: Vec<(Range<u64>, Resp)>,
}

impl Default for MemConfig {
    fn default() -> Self {
        Self {
            bus_bytes: 8,
            size: 1 << 16,
            read_latency: 1,
            write_latency: 1,
            p_ready: 1.0,
            p_resp: 1.0,
            seed: 0,
            errors: Vec::new(),
        }
    }
}

#[derive(Debug)]
struct InFlight {
    a: Addr,
    beat: usize,
    due: u64,
    resp: Resp,
}

/// The memory model (see the module documentation).
#[derive(Debug)]
pub struct AxiMem {
    cfg: MemConfig,
    mem: Vec<u8>,
    ready: Throttle,
    resp: Throttle,
    cycle: u64,
    out: Option<SlaveOut>,
    reads: VecDeque<InFlight>,
    writes: VecDeque<InFlight>,
    wbeats: VecDeque<WBeat>,
    bs: VecDeque<(BResp, u64)>,
    r_bus: Option<RBeat>,
    b_bus: Option<BResp>,
    mon_ar: RuleMonitor<Option<Addr>>,
    mon_aw: RuleMonitor<Option<Addr>>,
    mon_w: RuleMonitor<Option<WBeat>>,
}

impl AxiMem {
    /// A zero-filled memory.
    ///
    /// # Errors
    /// [`AxiError::Config`] for a bus width that is not a power of two in 1..=64, a latency of
    /// 0, or a probability outside 0..=1.
    pub fn new(cfg: MemConfig) -> Result<Self, AxiError> {
        if !cfg.bus_bytes.is_power_of_two() || cfg.bus_bytes > 64 {
            return Err(AxiError::Config(format!(
                "bus width {} bytes",
                cfg.bus_bytes
            )));
        }
        if cfg.read_latency == 0 || cfg.write_latency == 0 {
            return Err(AxiError::Config("latencies start at 1".into()));
        }
        let ready = Throttle::new(cfg.seed, cfg.p_ready)?;
        let resp = Throttle::new(cfg.seed ^ 0x5eed, cfg.p_resp)?;
        Ok(Self {
            mem: vec![0; cfg.size],
            cfg,
            ready,
            resp,
            cycle: 0,
            out: None,
            reads: VecDeque::new(),
            writes: VecDeque::new(),
            wbeats: VecDeque::new(),
            bs: VecDeque::new(),
            r_bus: None,
            b_bus: None,
            mon_ar: RuleMonitor::new("AR"),
            mon_aw: RuleMonitor::new("AW"),
            mon_w: RuleMonitor::new("W"),
        })
    }

    /// Memory contents (back door, no bus cycle).
    pub fn bytes(&self) -> &[u8] {
        &self.mem
    }

    /// Accesses touching `r` answer `resp` from now on (reads and writes alike).
    pub fn add_error(&mut self, r: Range<u64>, resp: Resp) {
        self.cfg.errors.push((r, resp));
    }

    /// Back-door write; `None` if it does not fit.
    pub fn load(&mut self, addr: usize, data: &[u8]) -> Option<()> {
        let end = addr.checked_add(data.len())?;
        self.mem.get_mut(addr..end)?.copy_from_slice(data);
        Some(())
    }

    /// No burst in progress and no response pending.
    pub fn is_idle(&self) -> bool {
        self.reads.is_empty()
            && self.writes.is_empty()
            && self.wbeats.is_empty()
            && self.bs.is_empty()
            && self.r_bus.is_none()
            && self.b_bus.is_none()
    }

    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The slave's outputs this cycle; the same until [`AxiMem::tick`].
    pub fn outputs(&mut self) -> SlaveOut {
        if let Some(o) = &self.out {
            return o.clone();
        }
        if self.r_bus.is_none() {
            let due = self.reads.front().is_some_and(|r| r.due <= self.cycle);
            if due && self.resp.go() {
                self.r_bus = self.reads.front().map(|r| self.read_beat(r));
            }
        }
        if self.b_bus.is_none() {
            let due = self.bs.front().is_some_and(|(_, d)| *d <= self.cycle);
            if due && self.resp.go() {
                self.b_bus = self.bs.front().map(|(b, _)| b.clone());
            }
        }
        let o = SlaveOut {
            ar_ready: self.ready.go(),
            aw_ready: self.ready.go(),
            w_ready: self.ready.go(),
            r: self.r_bus.clone(),
            b: self.b_bus.clone(),
        };
        self.out = Some(o.clone());
        o
    }

    /// The clock edge with the master's signals `m`.
    ///
    /// # Errors
    /// A protocol error of the master (see the module documentation).
    pub fn tick(&mut self, m: &MasterOut) -> Result<(), AxiError> {
        let s = self.outputs();
        let cycle = self.cycle;
        self.mon_ar
            .check(cycle, m.ar.is_some(), s.ar_ready, &m.ar)?;
        self.mon_aw
            .check(cycle, m.aw.is_some(), s.aw_ready, &m.aw)?;
        self.mon_w.check(cycle, m.w.is_some(), s.w_ready, &m.w)?;

        if let (Some(a), true) = (&m.ar, s.ar_ready) {
            self.check_addr(a)?;
            self.reads.push_back(InFlight {
                a: a.clone(),
                beat: 0,
                due: cycle + self.cfg.read_latency,
                resp: Resp::Okay,
            });
        }
        if s.r.is_some() && m.r_ready {
            self.r_bus = None;
            if let Some(r) = self.reads.front_mut() {
                r.beat += 1;
                if r.beat == r.a.beats() {
                    self.reads.pop_front();
                }
            }
        }
        if let (Some(a), true) = (&m.aw, s.aw_ready) {
            self.check_addr(a)?;
            self.writes.push_back(InFlight {
                a: a.clone(),
                beat: 0,
                due: 0,
                resp: Resp::Okay,
            });
        }
        if let (Some(w), true) = (&m.w, s.w_ready) {
            if w.data.len() != self.cfg.bus_bytes {
                return Err(AxiError::WWidth {
                    cycle,
                    got: w.data.len(),
                    bus_bytes: self.cfg.bus_bytes,
                });
            }
            self.wbeats.push_back(w.clone());
        }
        self.write_beats()?;
        if s.b.is_some() && m.b_ready {
            self.b_bus = None;
            self.bs.pop_front();
        }
        self.cycle += 1;
        self.out = None;
        Ok(())
    }

    fn check_addr(&self, a: &Addr) -> Result<(), AxiError> {
        let cycle = self.cycle;
        if a.burst != Burst::Incr {
            return Err(AxiError::Burst {
                cycle,
                burst: a.burst,
            });
        }
        if (1usize << a.size) > self.cfg.bus_bytes {
            return Err(AxiError::Size {
                cycle,
                size: a.size,
                bus_bytes: self.cfg.bus_bytes,
            });
        }
        let last = a.beat_bytes(a.beats() - 1).end - 1;
        if a.addr >> 12 != last >> 12 {
            return Err(AxiError::Crosses4k {
                cycle,
                addr: a.addr,
            });
        }
        Ok(())
    }

    /// The error response for a beat, if any of its bytes is in an error range or outside.
    fn beat_error(&self, bytes: &Range<u64>) -> Option<Resp> {
        let hit = self
            .cfg
            .errors
            .iter()
            .find(|(r, _)| r.start < bytes.end && bytes.start < r.end)
            .map(|(_, resp)| *resp);
        hit.or_else(|| (bytes.end > self.mem.len() as u64).then_some(Resp::DecErr))
    }

    fn read_beat(&self, r: &InFlight) -> RBeat {
        let bytes = r.a.beat_bytes(r.beat);
        let lanes = self.cfg.bus_bytes as u64;
        let mut data = vec![0u8; self.cfg.bus_bytes];
        let resp = self.beat_error(&bytes);
        if resp.is_none() {
            for a in bytes {
                // In range: beat_error checked the end against the memory size.
                data[(a % lanes) as usize] = self.mem[a as usize];
            }
        }
        RBeat {
            id: r.a.id,
            data,
            resp: resp.unwrap_or(Resp::Okay),
            last: r.beat + 1 == r.a.beats(),
        }
    }

    /// Applies the W beats that have their AW; queues B after each burst's last beat.
    fn write_beats(&mut self) -> Result<(), AxiError> {
        let lanes = self.cfg.bus_bytes as u64;
        while !self.wbeats.is_empty() {
            let Some(wr) = self.writes.front() else {
                break;
            };
            let Some(w) = self.wbeats.pop_front() else {
                break;
            };
            let (beat, beats) = (wr.beat, wr.a.beats());
            if w.last != (beat + 1 == beats) {
                return Err(AxiError::WLast {
                    cycle: self.cycle,
                    beat,
                    beats,
                    got: w.last,
                });
            }
            let bytes = wr.a.beat_bytes(beat);
            let err = self.beat_error(&bytes);
            if err.is_none() {
                for a in bytes {
                    let lane = a % lanes;
                    if w.strb >> lane & 1 == 1 {
                        self.mem[a as usize] = w.data[lane as usize];
                    }
                }
            }
            let due = self.cycle + self.cfg.write_latency;
            if let Some(wr) = self.writes.front_mut() {
                wr.resp = wr.resp.max(err.unwrap_or(Resp::Okay));
                wr.beat += 1;
                if wr.beat == beats {
                    let b = BResp {
                        id: wr.a.id,
                        resp: wr.resp,
                    };
                    self.writes.pop_front();
                    self.bs.push_back((b, due));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last beat of the address space: no overflow into address 0 (which would read memory
    /// and answer OKAY), but a range past any memory.
    #[test]
    fn top_of_address_space() {
        let a = Addr::incr(0, u64::MAX - 63, 2, 5);
        assert_eq!(a.beat_bytes(0), u64::MAX - 63..u64::MAX - 31);
        assert_eq!(a.beat_bytes(1), u64::MAX - 31..u64::MAX);
        let unaligned = Addr::incr(0, u64::MAX - 20, 1, 6);
        assert_eq!(unaligned.beat_bytes(0), u64::MAX - 20..u64::MAX);
    }
}
