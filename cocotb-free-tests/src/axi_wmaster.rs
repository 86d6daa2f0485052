//! An AXI4 write master at the channel level, cycle by cycle (the write half of a DMA engine or
//! of a host bridge as a slave sees it).
//!
//! Bursts queued with [`AxiWriteMaster::push`] go out in order on AW and W. The two channels
//! run independently, each with its own random valid gaps: a burst's W beats may be offered
//! before, with or after its AW (AXI allows all three). B is taken with random back-pressure
//! and checked: a B must answer an AW already sent whose last W beat was sent, B responses come
//! in AW order (the slaves here are in-order; AXI would allow reordering across IDs only), and
//! the slave's B stream keeps the stream rule. Each cycle: [`AxiWriteMaster::outputs`], drive the
//! slave, [`AxiWriteMaster::tick`] with the slave's signals; `tick` reports the handshakes of
//! the edge ([`WriteEvents`]). [`WriteBurst::range`] builds the burst that writes a byte range.

use std::collections::VecDeque;

use crate::axi::{Addr, AxiError, BResp, MasterOut, Resp, SlaveOut, WBeat};
use crate::stream::{RuleMonitor, Throttle};

/// One burst: its AW and its W beats (`last` set on the final one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteBurst {
    pub aw: Addr,
    pub beats: Vec<WBeat>,
}

impl WriteBurst {
    /// The INCR burst of `2^size`-byte beats that writes `data` at byte address `addr` on a
    /// `bus_bytes`-wide bus (`size` <= log2 `bus_bytes`): the first beat starts at `addr`
    /// (unaligned allowed), each strobe covers exactly one byte of `data`. `None` if `data` is
    /// empty, the burst would cross a 4 KB boundary or need more than 256 beats.
    pub fn range(addr: u64, data: &[u8], size: u8, bus_bytes: usize) -> Option<Self> {
        if data.is_empty() || (1usize << size) > bus_bytes {
            return None;
        }
        let end = addr + data.len() as u64;
        if addr >> 12 != (end - 1) >> 12 {
            return None;
        }
        let step = 1u64 << size;
        let beats = ((end - (addr & !(step - 1))).div_ceil(step)) as u16;
        if beats > 256 {
            return None;
        }
        let aw = Addr::incr(0, addr, beats, size);
        let lanes = bus_bytes as u64;
        let beats = (0..usize::from(beats))
            .map(|n| {
                let mut w = WBeat {
                    data: vec![0; bus_bytes],
                    strb: 0,
                    last: n + 1 == aw.beats(),
                };
                for a in aw.beat_bytes(n) {
                    if (addr..end).contains(&a) {
                        let lane = (a % lanes) as usize;
                        w.data[lane] = data[(a - addr) as usize];
                        w.strb |= 1 << lane;
                    }
                }
                w
            })
            .collect();
        Some(Self { aw, beats })
    }

    /// The same burst with AXI ID `id`.
    pub fn with_id(mut self, id: u32) -> Self {
        self.aw.id = id;
        self
    }
}

/// The handshakes of one clock edge.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteEvents {
    /// AW handshake: the burst's AW.
    pub aw: Option<Addr>,
    /// W handshake: the burst's AW, the beat index and the beat.
    pub w: Option<(Addr, usize, WBeat)>,
    /// B handshake: the burst's AW and the response.
    pub b: Option<(Addr, Resp)>,
}

/// The master (see the module documentation).
#[derive(Debug)]
pub struct AxiWriteMaster {
    /// Bursts whose AW is not sent yet.
    aw_q: VecDeque<Addr>,
    /// Beats not sent yet, with their burst's AW and index.
    w_q: VecDeque<(Addr, usize, WBeat)>,
    /// AW sent, B not received, with "all W beats sent".
    open: VecDeque<(Addr, bool)>,
    /// Last beats sent before their AW (count), so `open` can be marked when the AW goes.
    early_last: usize,
    aw_thr: Throttle,
    w_thr: Throttle,
    b_thr: Throttle,
    aw_on: bool,
    w_on: bool,
    out: Option<MasterOut>,
    cycle: u64,
    mon_b: RuleMonitor<Option<BResp>>,
    done: Vec<(Addr, Resp, u64)>,
}

impl AxiWriteMaster {
    /// `aw`, `w`: chance per cycle that a waiting AW / W goes on the bus; `b`: B ready.
    pub fn new(aw: Throttle, w: Throttle, b: Throttle) -> Self {
        Self {
            aw_q: VecDeque::new(),
            w_q: VecDeque::new(),
            open: VecDeque::new(),
            early_last: 0,
            aw_thr: aw,
            w_thr: w,
            b_thr: b,
            aw_on: false,
            w_on: false,
            out: None,
            cycle: 0,
            mon_b: RuleMonitor::new("B"),
            done: Vec::new(),
        }
    }

    pub fn push(&mut self, burst: WriteBurst) {
        for (n, w) in burst.beats.into_iter().enumerate() {
            self.w_q.push_back((burst.aw.clone(), n, w));
        }
        self.aw_q.push_back(burst.aw);
    }

    /// Nothing queued, nothing on the bus, every B received.
    pub fn is_idle(&self) -> bool {
        self.aw_q.is_empty() && self.w_q.is_empty() && self.open.is_empty()
    }

    /// Bursts completed: AW, response, cycle of the B handshake.
    pub fn done(&self) -> &[(Addr, Resp, u64)] {
        &self.done
    }

    /// What the master drives this cycle; the same until [`AxiWriteMaster::tick`].
    pub fn outputs(&mut self) -> MasterOut {
        if let Some(o) = &self.out {
            return o.clone();
        }
        // Once offered, a word stays offered until taken (stream rule).
        if !self.aw_on && !self.aw_q.is_empty() {
            self.aw_on = self.aw_thr.go();
        }
        if !self.w_on && !self.w_q.is_empty() {
            self.w_on = self.w_thr.go();
        }
        let o = MasterOut {
            ar: None,
            aw: if self.aw_on {
                self.aw_q.front().cloned()
            } else {
                None
            },
            w: if self.w_on {
                self.w_q.front().map(|(_, _, w)| w.clone())
            } else {
                None
            },
            r_ready: false,
            b_ready: self.b_thr.go(),
        };
        self.out = Some(o.clone());
        o
    }

    /// The clock edge with the slave's signals `s`.
    ///
    /// # Errors
    /// The slave broke the B stream rule ([`AxiError::Stream`]) or sent a B that answers no
    /// finished burst, or with another burst's ID ([`AxiError::Config`] with the reason).
    pub fn tick(&mut self, s: &SlaveOut) -> Result<WriteEvents, AxiError> {
        let o = self.outputs();
        let cycle = self.cycle;
        let mut ev = WriteEvents::default();
        self.mon_b.check(cycle, s.b.is_some(), o.b_ready, &s.b)?;
        if let (Some(b), true) = (&s.b, o.b_ready) {
            match self.open.front() {
                Some((a, true)) if a.id == b.id => {
                    ev.b = Some((a.clone(), b.resp));
                    self.done.push((a.clone(), b.resp, cycle));
                    self.open.pop_front();
                }
                other => {
                    return Err(AxiError::Config(format!(
                        "cycle {cycle}: B {b:?} while the oldest open burst is {other:?}"
                    )));
                }
            }
        }
        if o.aw.is_some() && s.aw_ready {
            if let Some(a) = self.aw_q.pop_front() {
                let all_sent = self.early_last > 0;
                if all_sent {
                    self.early_last -= 1;
                }
                self.open.push_back((a.clone(), all_sent));
                ev.aw = Some(a);
            }
            self.aw_on = false;
        }
        if o.w.is_some() && s.w_ready {
            if let Some((a, n, w)) = self.w_q.pop_front() {
                if w.last {
                    // The oldest open burst without all beats, else its AW is still to come.
                    match self.open.iter_mut().find(|(_, sent)| !sent) {
                        Some(slot) => slot.1 = true,
                        None => self.early_last += 1,
                    }
                }
                ev.w = Some((a, n, w));
            }
            self.w_on = false;
        }
        self.cycle += 1;
        self.out = None;
        Ok(ev)
    }
}
