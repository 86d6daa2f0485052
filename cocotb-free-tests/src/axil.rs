//! An AXI4-Lite master for register access, cycle by cycle.
//!
//! Operations queued with [`AxilMaster::read`] / [`AxilMaster::write`] run one at a time in
//! order (a register master needs no overlap, and it keeps the order of effects obvious): a
//! write drives AW and W together, each held until its own handshake, then waits for B; a read
//! drives AR, then waits for R. B and R are taken with random back-pressure. Each cycle:
//! [`AxilMaster::outputs`], drive the slave, [`AxilMaster::tick`] with the slave's signals. The
//! slave's B and R streams are checked against the stream rule.

use std::collections::VecDeque;

use crate::axi::{AxiError, Resp};
use crate::stream::{RuleMonitor, Throttle};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LiteOp {
    Read { addr: u64 },
    Write { addr: u64, data: u32, strb: u8 },
}

/// A finished operation: its response, the read data (0 for a write), and the cycle of the
/// B or R handshake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiteDone {
    pub op: LiteOp,
    pub resp: Resp,
    pub data: u32,
    pub cycle: u64,
}

/// What the master drives (`Some` = valid). W is (data, strobe).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LiteMasterOut {
    pub aw: Option<u64>,
    pub w: Option<(u32, u8)>,
    pub b_ready: bool,
    pub ar: Option<u64>,
    pub r_ready: bool,
}

/// What the slave drives (`Some` = valid). R is (data, response).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LiteSlaveOut {
    pub aw_ready: bool,
    pub w_ready: bool,
    pub b: Option<Resp>,
    pub ar_ready: bool,
    pub r: Option<(u32, Resp)>,
}

#[derive(Debug, Clone, Copy)]
struct Current {
    op: LiteOp,
    /// AW and AR (the address) handshaken.
    addr_done: bool,
    /// W handshaken (writes only).
    data_done: bool,
}

/// The master (see the module documentation).
#[derive(Debug)]
pub struct AxilMaster {
    ops: VecDeque<LiteOp>,
    cur: Option<Current>,
    done: Vec<LiteDone>,
    ready: Throttle,
    out: Option<LiteMasterOut>,
    cycle: u64,
    mon_b: RuleMonitor<Option<Resp>>,
    mon_r: RuleMonitor<Option<(u32, Resp)>>,
}

impl AxilMaster {
    /// `ready` decides B and R back-pressure.
    pub fn new(ready: Throttle) -> Self {
        Self {
            ops: VecDeque::new(),
            cur: None,
            done: Vec::new(),
            ready,
            out: None,
            cycle: 0,
            mon_b: RuleMonitor::new("B"),
            mon_r: RuleMonitor::new("R"),
        }
    }

    pub fn read(&mut self, addr: u64) {
        self.ops.push_back(LiteOp::Read { addr });
    }

    pub fn write(&mut self, addr: u64, data: u32, strb: u8) {
        self.ops.push_back(LiteOp::Write { addr, data, strb });
    }

    /// Finished operations in issue order.
    pub fn done(&self) -> &[LiteDone] {
        &self.done
    }

    pub fn is_idle(&self) -> bool {
        self.ops.is_empty() && self.cur.is_none()
    }

    /// The master's outputs this cycle; the same until [`AxilMaster::tick`].
    pub fn outputs(&mut self) -> LiteMasterOut {
        if let Some(o) = self.out {
            return o;
        }
        if self.cur.is_none() {
            self.cur = self.ops.pop_front().map(|op| Current {
                op,
                addr_done: false,
                data_done: false,
            });
        }
        let ready = self.ready.go();
        let mut o = LiteMasterOut::default();
        match self.cur {
            Some(Current {
                op: LiteOp::Write { addr, data, strb },
                addr_done,
                data_done,
            }) => {
                o.aw = (!addr_done).then_some(addr);
                o.w = (!data_done).then_some((data, strb));
                o.b_ready = addr_done && data_done && ready;
            }
            Some(Current {
                op: LiteOp::Read { addr },
                addr_done,
                ..
            }) => {
                o.ar = (!addr_done).then_some(addr);
                o.r_ready = addr_done && ready;
            }
            None => {}
        }
        self.out = Some(o);
        o
    }

    /// The clock edge with the slave's signals `s`.
    ///
    /// # Errors
    /// [`AxiError::Stream`] if the slave breaks the stream rule on B or R.
    pub fn tick(&mut self, s: &LiteSlaveOut) -> Result<(), AxiError> {
        let o = self.outputs();
        let cycle = self.cycle;
        self.mon_b.check(cycle, s.b.is_some(), o.b_ready, &s.b)?;
        self.mon_r.check(cycle, s.r.is_some(), o.r_ready, &s.r)?;
        if let Some(cur) = self.cur.as_mut() {
            cur.addr_done |= (o.aw.is_some() && s.aw_ready) || (o.ar.is_some() && s.ar_ready);
            cur.data_done |= o.w.is_some() && s.w_ready;
            let finished = match (s.b, s.r) {
                (Some(resp), _) if o.b_ready => Some((resp, 0)),
                (_, Some((data, resp))) if o.r_ready => Some((resp, data)),
                _ => None,
            };
            if let Some((resp, data)) = finished {
                self.done.push(LiteDone {
                    op: cur.op,
                    resp,
                    data,
                    cycle,
                });
                self.cur = None;
            }
        }
        self.cycle += 1;
        self.out = None;
        Ok(())
    }
}
