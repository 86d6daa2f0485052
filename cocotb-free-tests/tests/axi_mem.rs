//! The AXI4 memory model (`onerma_rtl_tests::axi`) against a scripted master and an independent
//! expectation: a flat byte map filled from each write's byte stream in AW order (no lane or
//! beat arithmetic), burst lengths, RLAST/WLAST, R and B order, read latency, back-pressure and
//! the stream rule on the slave's R/B outputs, error responses by address range, and the
//! protocol errors the model reports.

use std::collections::{HashMap, VecDeque};

use onerma_rtl_tests::axi::{
    Addr, AxiError, AxiMem, BResp, Burst, MasterOut, MemConfig, RBeat, Resp, WBeat,
};
use onerma_rtl_tests::{RuleMonitor, StreamError, Throttle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Drives AR, AW and W from queues, each held until its handshake; takes R and B with random
/// back-pressure and checks the slave keeps them stable while stalled.
struct Master {
    ars: VecDeque<Addr>,
    aws: VecDeque<Addr>,
    ws: VecDeque<WBeat>,
    ready: Throttle,
    out: Option<MasterOut>,
    /// Handshake cycle of every AR, in order.
    ar_at: Vec<u64>,
    rs: Vec<(u64, RBeat)>,
    bs: Vec<BResp>,
    mon_r: RuleMonitor<Option<RBeat>>,
    mon_b: RuleMonitor<Option<BResp>>,
    /// Cycles in which a valid AR/AW/W waited for ready, and R/B waited for the master.
    slave_stalls: u64,
    master_stalls: u64,
}

impl Master {
    fn new(ready: Throttle) -> Self {
        Self {
            ars: VecDeque::new(),
            aws: VecDeque::new(),
            ws: VecDeque::new(),
            ready,
            out: None,
            ar_at: Vec::new(),
            rs: Vec::new(),
            bs: Vec::new(),
            mon_r: RuleMonitor::new("R"),
            mon_b: RuleMonitor::new("B"),
            slave_stalls: 0,
            master_stalls: 0,
        }
    }

    fn outputs(&mut self) -> MasterOut {
        if let Some(o) = &self.out {
            return o.clone();
        }
        let o = MasterOut {
            ar: self.ars.front().cloned(),
            aw: self.aws.front().cloned(),
            w: self.ws.front().cloned(),
            r_ready: self.ready.go(),
            b_ready: self.ready.go(),
        };
        self.out = Some(o.clone());
        o
    }

    fn done(&self) -> bool {
        self.ars.is_empty() && self.aws.is_empty() && self.ws.is_empty()
    }
}

/// Runs until the master has sent everything and the memory is idle.
fn run(master: &mut Master, mem: &mut AxiMem, limit: u64) -> Result<(), String> {
    while !(master.done() && mem.is_idle()) {
        let cycle = mem.cycle();
        if cycle > limit {
            return Err(format!("no progress after {cycle} cycles"));
        }
        let s = mem.outputs();
        let m = master.outputs();
        master
            .mon_r
            .check(cycle, s.r.is_some(), m.r_ready, &s.r)
            .map_err(|e| e.to_string())?;
        master
            .mon_b
            .check(cycle, s.b.is_some(), m.b_ready, &s.b)
            .map_err(|e| e.to_string())?;
        mem.tick(&m).map_err(|e| e.to_string())?;
        master.out = None;
        let stalled = [
            m.ar.is_some() && !s.ar_ready,
            m.aw.is_some() && !s.aw_ready,
            m.w.is_some() && !s.w_ready,
        ];
        master.slave_stalls += stalled.iter().filter(|&&x| x).count() as u64;
        if m.ar.is_some() && s.ar_ready {
            master.ars.pop_front();
            master.ar_at.push(cycle);
        }
        if m.aw.is_some() && s.aw_ready {
            master.aws.pop_front();
        }
        if m.w.is_some() && s.w_ready {
            master.ws.pop_front();
        }
        match s.r {
            Some(r) if m.r_ready => master.rs.push((cycle, r)),
            Some(_) => master.master_stalls += 1,
            None => {}
        }
        match s.b {
            Some(b) if m.b_ready => master.bs.push(b),
            Some(_) => master.master_stalls += 1,
            None => {}
        }
    }
    Ok(())
}

const BUS: usize = 8;

/// A write burst given as its byte stream from `addr` on (one byte and one enable per address):
/// the W beats put byte `k` on lane `(addr + k) % BUS`.
struct Write {
    a: Addr,
    bytes: Vec<(u8, bool)>,
}

fn w_beats(w: &Write) -> Vec<WBeat> {
    let mut beats = Vec::new();
    let mut k = 0;
    for n in 0..w.a.beats() {
        let mut data = vec![0u8; BUS];
        let mut strb = 0u64;
        for addr in w.a.beat_bytes(n) {
            let (b, en) = w.bytes[k];
            let lane = addr as usize % BUS;
            data[lane] = b;
            strb |= u64::from(en) << lane;
            k += 1;
        }
        beats.push(WBeat {
            data,
            strb,
            last: n + 1 == w.a.beats(),
        });
    }
    beats
}

/// The byte stream of a read burst from its R beats.
fn r_stream(a: &Addr, beats: &[RBeat]) -> Vec<u8> {
    let mut out = Vec::new();
    for (n, r) in beats.iter().enumerate() {
        for addr in a.beat_bytes(n) {
            out.push(r.data[addr as usize % BUS]);
        }
    }
    out
}

/// Random aligned INCR burst inside one 4 KB page of a 16 KB memory.
fn random_burst(rng: &mut StdRng, id: u32) -> Addr {
    let size: u8 = rng.random_range(0..=3);
    let beats: u16 = rng.random_range(1..=16);
    let span = u64::from(beats) << size;
    let page = rng.random_range(0..4u64) << 12;
    let offset = rng.random_range(0..=(4096 - span)) & !((1u64 << size) - 1);
    Addr::incr(id, page + offset, beats, size)
}

fn stream_config(seed: u64, p_ready: f64, p_resp: f64, read_latency: u64) -> MemConfig {
    MemConfig {
        bus_bytes: BUS,
        size: 1 << 14,
        read_latency,
        write_latency: 3,
        p_ready,
        p_resp,
        seed,
        errors: Vec::new(),
    }
}

/// Random overlapping writes, then reads of the same places and of random ones: data, order,
/// burst lengths, latency and back-pressure.
fn writes_then_reads(seed: u64, p_ready: f64, p_master: f64, latency: u64) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut mem =
        AxiMem::new(stream_config(seed, p_ready, p_master, latency)).map_err(|e| e.to_string())?;
    let mut master = Master::new(Throttle::new(seed + 1, p_master).map_err(|e| e.to_string())?);
    let mut expect: HashMap<u64, u8> = HashMap::new();
    let mut writes = Vec::new();
    for id in 0..40 {
        let a = random_burst(&mut rng, id % 4);
        let n: usize = (0..a.beats()).map(|i| a.beat_bytes(i).count()).sum();
        let bytes: Vec<(u8, bool)> = (0..n)
            .map(|_| (rng.random(), rng.random_bool(0.8)))
            .collect();
        // The expectation: byte k at addr + k, later writes over earlier ones.
        for (k, &(b, en)) in bytes.iter().enumerate() {
            if en {
                expect.insert(a.addr + k as u64, b);
            }
        }
        let w = Write { a, bytes };
        master.aws.push_back(w.a.clone());
        master.ws.extend(w_beats(&w));
        writes.push(w);
    }
    run(&mut master, &mut mem, 100_000)?;
    let b_ids: Vec<u32> = master.bs.iter().map(|b| b.id).collect();
    let aw_ids: Vec<u32> = writes.iter().map(|w| w.a.id).collect();
    if b_ids != aw_ids {
        return Err(format!("B order {b_ids:?}, AW order {aw_ids:?}"));
    }
    if let Some(b) = master.bs.iter().find(|b| b.resp != Resp::Okay) {
        return Err(format!("unexpected write response {b:?}"));
    }

    let mut reads: Vec<Addr> = writes.iter().map(|w| w.a.clone()).collect();
    reads.extend((0..20).map(|i| random_burst(&mut rng, 100 + i)));
    master.ars.extend(reads.iter().cloned());
    let first_r = master.rs.len();
    run(&mut master, &mut mem, 200_000)?;
    let rs = &master.rs[first_r..];
    let mut at = 0;
    for (i, a) in reads.iter().enumerate() {
        let beats: Vec<RBeat> = rs
            .get(at..at + a.beats())
            .ok_or_else(|| format!("read {i}: R beats missing"))?
            .iter()
            .map(|(_, r)| r.clone())
            .collect();
        let (first_cycle, _) = rs[at];
        if first_cycle < master.ar_at[i] + latency {
            return Err(format!(
                "read {i}: first beat in cycle {first_cycle}, AR in {}, latency {latency}",
                master.ar_at[i]
            ));
        }
        for (n, r) in beats.iter().enumerate() {
            if r.id != a.id || r.resp != Resp::Okay || r.last != (n + 1 == a.beats()) {
                return Err(format!("read {i} beat {n}: {r:?} for {a:?}"));
            }
        }
        let got = r_stream(a, &beats);
        let want: Vec<u8> = (0..got.len() as u64)
            .map(|k| expect.get(&(a.addr + k)).copied().unwrap_or(0))
            .collect();
        if got != want {
            return Err(format!("read {i} {a:?}: got {got:02x?}, want {want:02x?}"));
        }
        at += a.beats();
    }
    if at != rs.len() {
        return Err(format!("{} extra R beats", rs.len() - at));
    }
    if p_ready < 1.0 && master.slave_stalls == 0 {
        return Err("no AR/AW/W back-pressure seen".into());
    }
    if p_master < 1.0 && master.master_stalls == 0 {
        return Err("no R/B back-pressure seen".into());
    }
    Ok(())
}

#[test]
fn data_order_and_latency_without_stalls() {
    writes_then_reads(1, 1.0, 1.0, 1).expect("memory model");
}

#[test]
fn data_order_and_latency_under_random_backpressure() {
    for seed in 2..8 {
        let latency = seed % 5 + 1;
        writes_then_reads(seed, 0.4, 0.5, latency).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

/// Beats in an error range answer with its response and leave the memory alone; the other
/// beats of the same burst work; B carries the worst response.
#[test]
fn error_ranges_by_address() {
    let cfg = MemConfig {
        size: 0x4000,
        errors: vec![
            (0x1100..0x1180, Resp::SlvErr),
            (0x2000..0x2100, Resp::DecErr),
        ],
        ..stream_config(9, 0.7, 0.7, 2)
    };
    let mut mem = AxiMem::new(cfg).expect("config");
    let mut master = Master::new(Throttle::new(10, 0.6).expect("p"));
    // Two beats: 0x10f8..0x1100 is fine, 0x1100..0x1108 is in the SLVERR range.
    let straddle = Write {
        a: Addr::incr(1, 0x10f8, 2, 3),
        bytes: (0..16).map(|k| (0xa0 + k, true)).collect(),
    };
    let inside = Write {
        a: Addr::incr(2, 0x2010, 1, 3),
        bytes: (0..8).map(|k| (0x50 + k, true)).collect(),
    };
    for w in [&straddle, &inside] {
        master.aws.push_back(w.a.clone());
        master.ws.extend(w_beats(w));
    }
    master.ars.extend([
        Addr::incr(3, 0x10f8, 2, 3),
        Addr::incr(4, 0x2000, 1, 3),
        // Past the end of the 16 KB memory: DECERR without a range.
        Addr::incr(5, 0x5000, 1, 3),
    ]);
    // Reads go after the writes' responses, so they see the writes.
    let reads: Vec<Addr> = master.ars.drain(..).collect();
    run(&mut master, &mut mem, 10_000).expect("writes");
    assert_eq!(
        master.bs,
        vec![
            BResp {
                id: 1,
                resp: Resp::SlvErr
            },
            BResp {
                id: 2,
                resp: Resp::DecErr
            }
        ]
    );
    let want_low: Vec<u8> = (0xa0..0xa8).collect();
    assert_eq!(
        &mem.bytes()[0x10f8..0x1100],
        &want_low[..],
        "good beat written"
    );
    assert!(
        mem.bytes()[0x1100..0x1108].iter().all(|&b| b == 0),
        "error beat not written"
    );
    assert!(mem.bytes()[0x2010..0x2018].iter().all(|&b| b == 0));

    master.ars.extend(reads);
    run(&mut master, &mut mem, 10_000).expect("reads");
    let got: Vec<(u32, Resp, bool)> = master
        .rs
        .iter()
        .map(|(_, r)| (r.id, r.resp, r.last))
        .collect();
    assert_eq!(
        got,
        vec![
            (3, Resp::Okay, false),
            (3, Resp::SlvErr, true),
            (4, Resp::DecErr, true),
            (5, Resp::DecErr, true)
        ]
    );
    assert_eq!(master.rs[0].1.data, want_low);
    assert!(
        master.rs[1..]
            .iter()
            .all(|(_, r)| r.data.iter().all(|&b| b == 0))
    );
}

/// A narrow (4-byte) burst with an unaligned start on the 8-byte bus, spelled out by hand.
#[test]
fn narrow_unaligned_burst() {
    let mut mem = AxiMem::new(stream_config(11, 1.0, 1.0, 1)).expect("config");
    let mut master = Master::new(Throttle::always());
    // 0x13 size 2, 3 beats: 0x13 (1 byte, lane 3), 0x14..0x18 (lanes 4-7), 0x18..0x1c (0-3).
    let a = Addr::incr(0, 0x13, 3, 2);
    master.aws.push_back(a.clone());
    master.ws.extend([
        WBeat {
            data: vec![0, 0, 0, 0x11, 0xee, 0xee, 0xee, 0xee],
            strb: 0x08,
            last: false,
        },
        WBeat {
            data: vec![0xee, 0xee, 0xee, 0xee, 0x21, 0x22, 0x23, 0x24],
            strb: 0xf0,
            last: false,
        },
        WBeat {
            data: vec![0x31, 0x32, 0x33, 0x34, 0xee, 0xee, 0xee, 0xee],
            // Lane 1 disabled: 0x19 keeps its 0.
            strb: 0x0d,
            last: true,
        },
    ]);
    run(&mut master, &mut mem, 1_000).expect("write");
    assert_eq!(
        &mem.bytes()[0x10..0x1d],
        &[
            0, 0, 0, 0x11, 0x21, 0x22, 0x23, 0x24, 0x31, 0, 0x33, 0x34, 0
        ]
    );
    master.ars.push_back(a);
    run(&mut master, &mut mem, 1_000).expect("read");
    let lanes: Vec<Vec<u8>> = master.rs.iter().map(|(_, r)| r.data.clone()).collect();
    assert_eq!(
        lanes,
        vec![
            vec![0, 0, 0, 0x11, 0, 0, 0, 0],
            vec![0, 0, 0, 0, 0x21, 0x22, 0x23, 0x24],
            vec![0x31, 0, 0x33, 0x34, 0, 0, 0, 0]
        ]
    );
}

fn one_cycle(mem: &mut AxiMem, m: &MasterOut) -> Result<(), AxiError> {
    mem.outputs();
    mem.tick(m)
}

#[test]
fn protocol_errors_are_reported() {
    let cfg = || stream_config(12, 1.0, 1.0, 1);
    let ar = |a: Addr| MasterOut {
        ar: Some(a),
        ..MasterOut::default()
    };
    let mut mem = AxiMem::new(cfg()).expect("config");
    assert!(matches!(
        one_cycle(&mut mem, &ar(Addr::incr(0, 0xff8, 2, 3))),
        Err(AxiError::Crosses4k { addr: 0xff8, .. })
    ));
    let mut mem = AxiMem::new(cfg()).expect("config");
    assert!(matches!(
        one_cycle(&mut mem, &ar(Addr::incr(0, 0, 1, 4))),
        Err(AxiError::Size { size: 4, .. })
    ));
    let mut mem = AxiMem::new(cfg()).expect("config");
    let fixed = Addr {
        burst: Burst::Fixed,
        ..Addr::incr(0, 0, 2, 3)
    };
    assert!(matches!(
        one_cycle(&mut mem, &ar(fixed)),
        Err(AxiError::Burst { .. })
    ));
    // WLAST on the first of two beats.
    let mut mem = AxiMem::new(cfg()).expect("config");
    let m = MasterOut {
        aw: Some(Addr::incr(0, 0, 2, 3)),
        w: Some(WBeat {
            data: vec![0; BUS],
            strb: 0xff,
            last: true,
        }),
        ..MasterOut::default()
    };
    assert!(matches!(
        one_cycle(&mut mem, &m),
        Err(AxiError::WLast { beat: 0, .. })
    ));
    // A master that withdraws AR before the (never ready) slave takes it.
    let mut mem = AxiMem::new(MemConfig {
        p_ready: 0.0,
        ..cfg()
    })
    .expect("config");
    one_cycle(&mut mem, &ar(Addr::incr(0, 0, 1, 3))).expect("offer");
    assert!(matches!(
        one_cycle(&mut mem, &MasterOut::default()),
        Err(AxiError::Stream(StreamError::ValidDropped { .. }))
    ));
    assert!(
        AxiMem::new(MemConfig {
            bus_bytes: 6,
            ..cfg()
        })
        .is_err()
    );
}
