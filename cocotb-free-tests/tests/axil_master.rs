//! The AXI4-Lite master (`onerma_rtl_tests::axil`) against a tiny register-file slave written
//! here: results in issue order, byte strobes, error responses, random back-pressure on every
//! channel, and the stream rule on both sides.

use onerma_rtl_tests::axi::{AxiError, Resp};
use onerma_rtl_tests::axil::{AxilMaster, LiteDone, LiteMasterOut, LiteOp, LiteSlaveOut};
use onerma_rtl_tests::{RuleMonitor, StreamError, Throttle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const ID: u32 = 0x0a11_ce01;

/// Four read/write registers at 0x0..0xc, a read-only ID at 0x10 (a write is SLVERR), DECERR
/// elsewhere. AW and W are taken independently; B and R are held until taken.
struct RegFile {
    regs: [u32; 4],
    ready: Throttle,
    aw: Option<u64>,
    w: Option<(u32, u8)>,
    b: Option<Resp>,
    r: Option<(u32, Resp)>,
    out: Option<LiteSlaveOut>,
    mon_aw: RuleMonitor<Option<u64>>,
    mon_w: RuleMonitor<Option<(u32, u8)>>,
    mon_ar: RuleMonitor<Option<u64>>,
    /// Drop R after one stalled cycle (a broken slave, to see the master's check fire).
    broken: bool,
    cycle: u64,
}

impl RegFile {
    fn new(ready: Throttle) -> Self {
        Self {
            regs: [0; 4],
            ready,
            aw: None,
            w: None,
            b: None,
            r: None,
            out: None,
            mon_aw: RuleMonitor::new("AW"),
            mon_w: RuleMonitor::new("W"),
            mon_ar: RuleMonitor::new("AR"),
            broken: false,
            cycle: 0,
        }
    }

    fn outputs(&mut self) -> LiteSlaveOut {
        if let Some(o) = self.out {
            return o;
        }
        let o = LiteSlaveOut {
            aw_ready: self.aw.is_none() && self.b.is_none() && self.ready.go(),
            w_ready: self.w.is_none() && self.b.is_none() && self.ready.go(),
            b: self.b,
            ar_ready: self.r.is_none() && self.ready.go(),
            r: self.r,
        };
        self.out = Some(o);
        o
    }

    fn tick(&mut self, m: &LiteMasterOut) -> Result<(), StreamError> {
        let s = self.outputs();
        let c = self.cycle;
        self.mon_aw.check(c, m.aw.is_some(), s.aw_ready, &m.aw)?;
        self.mon_w.check(c, m.w.is_some(), s.w_ready, &m.w)?;
        self.mon_ar.check(c, m.ar.is_some(), s.ar_ready, &m.ar)?;
        if s.b.is_some() && m.b_ready {
            self.b = None;
        }
        if s.r.is_some() && (m.r_ready || self.broken) {
            self.r = None;
        }
        if s.aw_ready {
            self.aw = self.aw.or(m.aw);
        }
        if s.w_ready {
            self.w = self.w.or(m.w);
        }
        if let (Some(addr), Some((data, strb))) = (self.aw, self.w) {
            self.b = Some(self.write(addr, data, strb));
            self.aw = None;
            self.w = None;
        }
        if let (Some(addr), true) = (m.ar, s.ar_ready) {
            self.r = Some(self.read(addr));
        }
        self.cycle += 1;
        self.out = None;
        Ok(())
    }

    fn write(&mut self, addr: u64, data: u32, strb: u8) -> Resp {
        match addr {
            0x0 | 0x4 | 0x8 | 0xc => {
                let reg = &mut self.regs[(addr / 4) as usize];
                for lane in 0..4 {
                    if strb >> lane & 1 == 1 {
                        let mask = 0xffu32 << (8 * lane);
                        *reg = (*reg & !mask) | (data & mask);
                    }
                }
                Resp::Okay
            }
            0x10 => Resp::SlvErr,
            _ => Resp::DecErr,
        }
    }

    fn read(&self, addr: u64) -> (u32, Resp) {
        match addr {
            0x0 | 0x4 | 0x8 | 0xc => (self.regs[(addr / 4) as usize], Resp::Okay),
            0x10 => (ID, Resp::Okay),
            _ => (0, Resp::DecErr),
        }
    }
}

#[derive(Debug, thiserror::Error)]
enum Fail {
    #[error("master: {0}")]
    Master(AxiError),
    #[error("slave: {0}")]
    Slave(StreamError),
    #[error("no progress")]
    Timeout,
}

fn run(master: &mut AxilMaster, slave: &mut RegFile, limit: u64) -> Result<u64, Fail> {
    let mut cycle = 0;
    while !master.is_idle() {
        if cycle > limit {
            return Err(Fail::Timeout);
        }
        let m = master.outputs();
        let s = slave.outputs();
        slave.tick(&m).map_err(Fail::Slave)?;
        master.tick(&s).map_err(Fail::Master)?;
        cycle += 1;
    }
    Ok(cycle)
}

/// Hand-written expectation: every response and read value spelled out.
#[test]
fn scripted_register_access() {
    for (seed, p_master, p_slave) in [(1, 1.0, 1.0), (2, 0.5, 0.5), (3, 0.2, 0.9), (4, 0.9, 0.2)] {
        let mut master = AxilMaster::new(Throttle::new(seed, p_master).expect("p"));
        let mut slave = RegFile::new(Throttle::new(seed + 100, p_slave).expect("p"));
        master.write(0x0, 0x1122_3344, 0xf);
        master.write(0x4, 0xaabb_ccdd, 0x5);
        master.read(0x4);
        master.read(0x0);
        master.write(0x10, 0xffff_ffff, 0xf);
        master.read(0x10);
        master.read(0x40);
        master.write(0x0, 0x0000_ff00, 0x2);
        master.read(0x0);
        master.write(0x44, 1, 0xf);
        let cycles = run(&mut master, &mut slave, 10_000).expect("run");
        let got: Vec<(LiteOp, Resp, u32)> = master
            .done()
            .iter()
            .map(|d| (d.op, d.resp, d.data))
            .collect();
        use LiteOp::{Read, Write};
        let want = vec![
            (
                Write {
                    addr: 0x0,
                    data: 0x1122_3344,
                    strb: 0xf,
                },
                Resp::Okay,
                0,
            ),
            (
                Write {
                    addr: 0x4,
                    data: 0xaabb_ccdd,
                    strb: 0x5,
                },
                Resp::Okay,
                0,
            ),
            (Read { addr: 0x4 }, Resp::Okay, 0x00bb_00dd),
            (Read { addr: 0x0 }, Resp::Okay, 0x1122_3344),
            (
                Write {
                    addr: 0x10,
                    data: 0xffff_ffff,
                    strb: 0xf,
                },
                Resp::SlvErr,
                0,
            ),
            (Read { addr: 0x10 }, Resp::Okay, ID),
            (Read { addr: 0x40 }, Resp::DecErr, 0),
            (
                Write {
                    addr: 0x0,
                    data: 0x0000_ff00,
                    strb: 0x2,
                },
                Resp::Okay,
                0,
            ),
            (Read { addr: 0x0 }, Resp::Okay, 0x1122_ff44),
            (
                Write {
                    addr: 0x44,
                    data: 1,
                    strb: 0xf,
                },
                Resp::DecErr,
                0,
            ),
        ];
        assert_eq!(got, want, "seed {seed}");
        // Each operation takes at least two cycles (address, then response).
        assert!(cycles >= 20, "seed {seed}: {cycles} cycles");
        let at: Vec<u64> = master.done().iter().map(|d: &LiteDone| d.cycle).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "one at a time: {at:?}");
    }
}

/// Random operations against a plain array with byte masks.
#[test]
fn random_register_access_matches_array() {
    for seed in 0..6u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut master = AxilMaster::new(Throttle::new(seed, 0.6).expect("p"));
        let mut slave = RegFile::new(Throttle::new(seed ^ 0xff, 0.6).expect("p"));
        let mut reference = [0u32; 4];
        let mut want = Vec::new();
        for _ in 0..200 {
            let reg: u64 = rng.random_range(0..4);
            if rng.random_bool(0.5) {
                let (data, strb): (u32, u8) = (rng.random(), rng.random_range(0..16));
                master.write(reg * 4, data, strb);
                let bytes = (0..4).map(|i| {
                    if strb >> i & 1 == 1 {
                        0xffu32 << (8 * i)
                    } else {
                        0
                    }
                });
                let mask: u32 = bytes.sum();
                reference[reg as usize] = (reference[reg as usize] & !mask) | (data & mask);
                want.push(0);
            } else {
                master.read(reg * 4);
                want.push(reference[reg as usize]);
            }
        }
        run(&mut master, &mut slave, 100_000).expect("run");
        let got: Vec<u32> = master.done().iter().map(|d| d.data).collect();
        assert_eq!(got, want, "seed {seed}");
        assert!(master.done().iter().all(|d| d.resp == Resp::Okay));
    }
}

/// A slave that drops R before the master takes it breaks the stream rule; the master says so.
#[test]
fn master_catches_a_slave_dropping_r() {
    let mut master = AxilMaster::new(Throttle::new(5, 0.0).expect("p"));
    let mut slave = RegFile::new(Throttle::always());
    slave.broken = true;
    master.read(0x0);
    let r = run(&mut master, &mut slave, 100);
    assert!(
        matches!(
            r,
            Err(Fail::Master(AxiError::Stream(
                StreamError::ValidDropped { .. }
            )))
        ),
        "{r:?}"
    );
}
