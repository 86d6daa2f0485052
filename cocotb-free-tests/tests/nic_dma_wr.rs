//! `onerma_dma_wr` against protocol.md §4.1 / §4.2, with a reference written from the text
//! (`onerma_rtl_tests::dma`): random requests from every client (random alignment, lengths
//! 1..4096 across 4 KB boundaries, addresses inside, across the ends of and outside their
//! regions, at the top of the address space), regions with random base / size / permissions, a
//! bench RRT whose entries the test commits mid-stream (so `rgen`, bounds and permissions change
//! under requests in flight), SLVERR / DECERR ranges in the memory, random back-pressure on every
//! AXI channel, the RRT port and every client stream.
//!
//! Checked: every burst's AW, in the first cycle it is offered, belongs to the next burst of an
//! accepted request (the cut of 4 KB boundaries and `MaxBurstBeats`) and the table entry as it is
//! in that cycle passes the §4.1 check for the whole request; memory after the run byte-exact
//! against the reference (only the issued bursts' bytes of their requests, error beats not
//! written); every response in request order per client with the status of the first failing
//! burst in burst order (REGION only if a lookup of the request's region during its life failed
//! the check; no burst missing without a failure); `quiesce_o` never 1 while a burst offered
//! before the latest commit has no B, and 1 at the end. The memory model rejects bursts across
//! 4 KB and misplaced WLAST.

use std::collections::VecDeque;

use onerma_rtl_tests::axi::{Addr, AxiMem, MasterOut, MemConfig, Resp, SlaveOut, WBeat};
use onerma_rtl_tests::bits::{get_bits, put_bits};
use onerma_rtl_tests::dma::{
    Burst, DmaStatus, PERM_LOCAL_WRITE, Req, Rrt, beat_range, cut, passes, random_entry,
    random_req, whole_memory_entry,
};
use onerma_rtl_tests::{Sink, Source, Throttle};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const REGIONS: u16 = 4;
const MEM: u64 = 1 << 16;

/// What the bench drives in one cycle.
struct In<'a> {
    req: Vec<Option<&'a Req>>,
    wd: Vec<Option<&'a Vec<u8>>>,
    rsp_ready: Vec<bool>,
    rrt_ready: bool,
    rrt: &'a ([u32; 10], u16),
    commit: bool,
    s: &'a SlaveOut,
}

struct Out {
    req_ready: Vec<bool>,
    wd_ready: Vec<bool>,
    rsp: Vec<Option<(u8, DmaStatus)>>,
    rrt: Option<u16>,
    quiesce: bool,
    m: MasterOut,
}

trait Dut {
    const CLIENTS: usize;
    const BYTES: usize;
    const MAX_BEATS: usize;
    fn fresh() -> Self;
    fn eval(&mut self);
    fn tick(&mut self);
    fn drive(&mut self, i: &In);
    fn out(&self) -> Out;
}

fn packed<const N: usize>(vals: &[u128], width: usize) -> [u32; N] {
    let mut w = [0u32; N];
    for (c, v) in vals.iter().enumerate() {
        put_bits(&mut w, c * width, width, *v);
    }
    w
}

fn scalar(vals: &[u128], width: usize) -> u128 {
    vals.iter().enumerate().fold(0u128, |acc, (c, v)| {
        acc | (v & ((1u128 << width) - 1)) << (c * width)
    })
}

macro_rules! dut {
    ($m:ident, $clients:expr, $bytes:expr, $max:expr, $aw:expr, $dw:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const CLIENTS: usize = $clients;
            const BYTES: usize = $bytes;
            const MAX_BEATS: usize = $max;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(&mut self, i: &In) {
                let n = Self::CLIENTS;
                let f = |g: &dyn Fn(&Req) -> u128| -> Vec<u128> {
                    (0..n).map(|c| i.req[c].map_or(0, |r| g(r))).collect()
                };
                let bit =
                    |v: Vec<bool>| scalar(&v.iter().map(|b| u128::from(*b)).collect::<Vec<_>>(), 1);
                self.set_req_valid_i(bit(i.req.iter().map(|r| r.is_some()).collect()) as _);
                self.set_req_addr_i(&packed::<$aw>(&f(&|r| u128::from(r.addr)), 64));
                self.set_req_len_i(scalar(&f(&|r| u128::from(r.len)), 13) as _);
                self.set_req_region_i(scalar(&f(&|r| u128::from(r.region)), 16) as _);
                self.set_req_gen_i(scalar(&f(&|r| u128::from(r.rgen)), 16) as _);
                self.set_req_perm_i(scalar(&f(&|r| u128::from(r.perm)), 5) as _);
                self.set_req_tag_i(scalar(&f(&|r| u128::from(r.tag)), 8) as _);
                self.set_wd_valid_i(bit(i.wd.iter().map(|d| d.is_some()).collect()) as _);
                let mut wd = [0u32; $dw];
                for (c, d) in i.wd.iter().enumerate() {
                    if let Some(d) = d {
                        for (k, byte) in d.iter().enumerate() {
                            put_bits(&mut wd, c * $bytes * 8 + 8 * k, 8, u128::from(*byte));
                        }
                    }
                }
                self.set_wd_data_i(&wd);
                self.set_wd_last_i(0);
                self.set_rsp_ready_i(bit(i.rsp_ready.clone()) as _);
                self.set_rrt_ready_i(u8::from(i.rrt_ready));
                self.set_rrt_entry_i(&i.rrt.0);
                self.set_rrt_gen_i(i.rrt.1 as _);
                self.set_rrt_commit_i(u8::from(i.commit));
                self.set_m_axi_awready_i(u8::from(i.s.aw_ready));
                self.set_m_axi_wready_i(u8::from(i.s.w_ready));
                self.set_m_axi_bvalid_i(u8::from(i.s.b.is_some()));
                self.set_m_axi_bid_i(i.s.b.as_ref().map_or(0, |b| b.id) as _);
                self.set_m_axi_bresp_i(i.s.b.as_ref().map_or(0, |b| b.resp.bits()) as _);
            }
            fn out(&self) -> Out {
                let n = Self::CLIENTS;
                let rv = u128::from(self.req_ready_o());
                let wr = u128::from(self.wd_ready_o());
                let sv = u128::from(self.rsp_valid_o());
                let tags = u128::from(self.rsp_tag_o());
                let sts = u128::from(self.rsp_status_o());
                let aw = (self.m_axi_awvalid_o() != 0).then(|| {
                    Addr::incr(
                        u32::from(self.m_axi_awid_o()),
                        self.m_axi_awaddr_o() as u64,
                        u16::from(self.m_axi_awlen_o()) + 1,
                        self.m_axi_awsize_o(),
                    )
                });
                let w = (self.m_axi_wvalid_o() != 0).then(|| {
                    let words = self.m_axi_wdata_o();
                    WBeat {
                        data: (0..$bytes)
                            .map(|k| get_bits(&words, 8 * k, 8) as u8)
                            .collect(),
                        strb: self.m_axi_wstrb_o() as u64,
                        last: self.m_axi_wlast_o() != 0,
                    }
                });
                Out {
                    req_ready: (0..n).map(|c| rv >> c & 1 == 1).collect(),
                    wd_ready: (0..n).map(|c| wr >> c & 1 == 1).collect(),
                    rsp: (0..n)
                        .map(|c| {
                            (sv >> c & 1 == 1).then(|| {
                                (
                                    (tags >> (8 * c)) as u8,
                                    DmaStatus::from_bits((sts >> (2 * c)) as u8),
                                )
                            })
                        })
                        .collect(),
                    rrt: (self.rrt_valid_o() != 0).then(|| self.rrt_idx_o() as u16),
                    quiesce: self.quiesce_o() != 0,
                    m: MasterOut {
                        ar: None,
                        aw,
                        w,
                        r_ready: false,
                        b_ready: self.m_axi_bready_o() != 0,
                    },
                }
            }
        }
    };
}

dut!(dma_wr, 2, 16, 16, 4, 8);
dut!(dma_wr_default, 3, 64, 64, 6, 48);

#[derive(Debug, Clone, Copy)]
struct Knobs {
    /// Chances (percent) per cycle; `p_commit` in 1/10,000 per cycle.
    p_req: u8,
    p_wd: u8,
    p_rsp: u8,
    p_rrt: u8,
    p_axi: u8,
    p_commit: u8,
    errors: bool,
}

/// An accepted request and what the bench saw of it.
struct Accepted {
    client: usize,
    req: Req,
    data: Vec<u8>,
    bursts: Vec<Burst>,
    issued: usize,
    t_acc: u64,
    t_rsp: Option<u64>,
}

struct Lookup {
    cycle: u64,
    idx: u16,
    entry: onerma_layouts::RrtEntry,
    rgen: u16,
}

fn err_of(ranges: &[(std::ops::Range<u64>, Resp)], r: &std::ops::Range<u128>) -> Option<Resp> {
    let hit = ranges
        .iter()
        .find(|(e, _)| u128::from(e.start) < r.end && r.start < u128::from(e.end))
        .map(|(_, resp)| *resp);
    hit.or_else(|| (r.end > u128::from(MEM)).then_some(Resp::DecErr))
}

#[derive(Debug, Default)]
struct Stats {
    requests: usize,
    bursts: usize,
    by_status: [usize; 4],
    commits: usize,
    cycles: u64,
}

fn run<D: Dut>(seed: u64, count: usize, k: Knobs) -> Result<Stats, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let n = D::CLIENTS;
    let bytes = D::BYTES;
    let thr = |p: u8, s: u64| Throttle::new(seed ^ s, f64::from(p) / 100.0).expect("p");
    let mut errors = Vec::new();
    if k.errors {
        for _ in 0..3 {
            let a = rng.random_range(0..MEM - 256);
            let resp = if rng.random() {
                Resp::SlvErr
            } else {
                Resp::DecErr
            };
            errors.push((a..a + rng.random_range(1..256), resp));
        }
    }
    let mut mem = AxiMem::new(MemConfig {
        bus_bytes: bytes,
        size: MEM as usize,
        read_latency: 1,
        write_latency: rng.random_range(1..6),
        p_ready: f64::from(k.p_axi) / 100.0,
        p_resp: f64::from(k.p_axi) / 100.0,
        seed,
        errors: errors.clone(),
    })
    .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let init: Vec<u8> = (0..MEM).map(|_| rng.random()).collect();
    mem.load(0, &init).expect("load");
    let mut expect = init.clone();

    let mut rrt = Rrt::new(
        (0..REGIONS)
            .map(|_| (random_entry(&mut rng, MEM, PERM_LOCAL_WRITE), rng.random()))
            .collect(),
    );
    let mut dut = D::fresh();
    let mut req_src: Vec<Source<Req>> = (0..n)
        .map(|c| Source::new(thr(k.p_req, 11 + c as u64)))
        .collect();
    let mut wd_src: Vec<Source<Vec<u8>>> = (0..n)
        .map(|c| Source::new(thr(k.p_wd, 23 + c as u64)))
        .collect();
    let mut rsp_sink: Vec<Sink<(u8, DmaStatus)>> = (0..n)
        .map(|c| Sink::new(thr(k.p_rsp, 37 + c as u64)))
        .collect();
    let mut rrt_thr = thr(k.p_rrt, 51);
    let mut made = vec![0usize; n];
    // Per client: indices into `acc` of its requests in order.
    let mut per_client: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut acc: Vec<Accepted> = Vec::new();
    let mut pending: Vec<VecDeque<(Req, Vec<u8>)>> = vec![VecDeque::new(); n];
    let mut lookups: Vec<Lookup> = Vec::new();
    // Bursts offered and not yet answered: (pre-commit flag).
    let mut out_bursts: VecDeque<bool> = VecDeque::new();
    let mut aw_held = false;
    let mut cursor: Option<(usize, usize)> = None;
    let mut st = Stats::default();
    let limit = (count * n) as u64 * 3000 + 20_000;
    let mut cycle = 0u64;

    loop {
        // New requests, rgen read from the table now (stale ones fail at the check).
        for c in 0..n {
            if req_src[c].is_idle() && made[c] < count {
                let r = random_req(
                    &mut rng,
                    &rrt,
                    REGIONS,
                    MEM,
                    PERM_LOCAL_WRITE,
                    made[c] as u8,
                );
                let data: Vec<u8> = (0..r.client_beats(bytes) * bytes)
                    .map(|_| rng.random())
                    .collect();
                for b in data.chunks(bytes) {
                    wd_src[c].push(b.to_vec());
                }
                req_src[c].push(r.clone());
                pending[c].push_back((r, data));
                made[c] += 1;
            }
        }
        let done = made.iter().all(|m| *m == count)
            && req_src.iter().all(|s| s.is_idle())
            && wd_src.iter().all(|s| s.is_idle())
            && acc.iter().all(|a| a.t_rsp.is_some())
            && mem.is_idle();
        if done {
            break;
        }
        if cycle > limit {
            return Err(TestCaseError::fail(format!(
                "no progress after {cycle} cycles"
            )));
        }
        let reqs: Vec<Option<Req>> = req_src.iter_mut().map(|s| s.offer().cloned()).collect();
        let wds: Vec<Option<Vec<u8>>> = wd_src.iter_mut().map(|s| s.offer().cloned()).collect();
        let rsp_ready: Vec<bool> = rsp_sink.iter_mut().map(|s| s.ready()).collect();
        let rrt_ready = rrt_thr.go();
        let commit = rng.random_range(0u16..10_000) < u16::from(k.p_commit);
        let s = mem.outputs();
        let answer = *rrt.answer();
        dut.drive(&In {
            req: reqs.iter().map(|r| r.as_ref()).collect(),
            wd: wds.iter().map(|d| d.as_ref()).collect(),
            rsp_ready,
            rrt_ready,
            rrt: &answer,
            commit,
            s: &s,
        });
        dut.eval();
        let o = dut.out();

        // quiesce: no burst offered before the latest commit may still be waiting for its B.
        if o.quiesce && out_bursts.iter().any(|pre| *pre) {
            return Err(TestCaseError::fail(format!(
                "cycle {cycle}: quiesce_o = 1 with a burst from before the last commit outstanding"
            )));
        }
        // Requests accepted (the arbiter takes one per cycle).
        for c in 0..n {
            if let Some(r) = req_src[c].handshake(o.req_ready[c]) {
                let (pr, data) = pending[c].pop_front().expect("pending");
                prop_assert_eq!(&pr, &r);
                per_client[c].push(acc.len());
                acc.push(Accepted {
                    client: c,
                    bursts: cut(&r, bytes, D::MAX_BEATS),
                    req: r,
                    data,
                    issued: 0,
                    t_acc: cycle,
                    t_rsp: None,
                });
            }
        }
        // A burst in the first cycle it is offered: the next burst of an accepted request, and
        // the entry now passes §4.1 for that request.
        if let Some(aw) = &o.m.aw {
            if !aw_held {
                let b = Burst {
                    addr: aw.addr,
                    beats: aw.beats(),
                };
                let cont = cursor.filter(|(i, j)| acc[*i].bursts.get(*j) == Some(&b));
                let at = match cont {
                    Some((i, j)) => (i, j),
                    None => {
                        let from = cursor.map_or(0, |(i, _)| i + 1);
                        // Requests may share a first burst: the DUT may only have
                        // issued one whose check passes now.
                        let first = |i: &usize| acc[*i].bursts.first() == Some(&b);
                        let ok = |i: &usize| {
                            let (e, g) = rrt.read(acc[*i].req.region);
                            passes(&e, g, &acc[*i].req)
                        };
                        let i = (from..acc.len())
                            .find(|i| first(i) && ok(i))
                            .or_else(|| (from..acc.len()).find(first))
                            .ok_or_else(|| {
                                TestCaseError::fail(format!(
                                    "cycle {cycle}: burst {b:?} is no next burst of an accepted request"
                                ))
                            })?;
                        (i, 0)
                    }
                };
                let a = &mut acc[at.0];
                let (e, g) = rrt.read(a.req.region);
                prop_assert!(
                    passes(&e, g, &a.req),
                    "cycle {}: burst {:?} of {:?} offered while the entry {:?} rgen {} fails the check",
                    cycle,
                    b,
                    a.req,
                    e,
                    g
                );
                a.issued = at.1 + 1;
                cursor = Some((at.0, at.1 + 1));
                out_bursts.push_back(false);
                st.bursts += 1;
            }
            aw_held = !s.aw_ready;
        } else {
            aw_held = false;
        }
        if let (Some(idx), true) = (o.rrt, rrt_ready) {
            let (entry, rgen) = rrt.lookup(idx);
            lookups.push(Lookup {
                cycle,
                idx,
                entry,
                rgen,
            });
        }
        for c in 0..n {
            wd_src[c].handshake(o.wd_ready[c]);
            if rsp_sink[c].handshake(o.rsp[c]) {
                let k = rsp_sink[c].received().len() - 1;
                let i = *per_client[c].get(k).ok_or_else(|| {
                    TestCaseError::fail(format!("client {c}: response without a request"))
                })?;
                acc[i].t_rsp = Some(cycle);
            }
        }
        if s.b.is_some() && o.m.b_ready {
            out_bursts.pop_front();
        }
        if commit {
            let idx = rng.random_range(0..REGIONS as usize);
            let mut e = rrt.entries[idx].0.clone();
            match rng.random_range(0u8..20) {
                0..=5 => {
                    e = random_entry(&mut rng, MEM, PERM_LOCAL_WRITE);
                    e.valid = 1;
                }
                6..=8 => e.valid = 0,
                9..=11 => e.size = e.size.saturating_sub(rng.random_range(0..4096)),
                // The same fields: only gen changes.
                _ => {}
            }
            rrt.commit(idx, e);
            for b in out_bursts.iter_mut() {
                *b = true;
            }
            st.commits += 1;
        }
        mem.tick(&o.m)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        dut.tick();
        cycle += 1;
    }
    prop_assert!(dut.out().quiesce, "quiesce_o = 0 with nothing outstanding");

    // The reference: memory in acceptance order (the order of the bursts on the bus), then
    // every request's status.
    let mut want = Vec::with_capacity(acc.len());
    for a in &acc {
        let mut status = None;
        for bu in &a.bursts[..a.issued] {
            let mut worst = Resp::Okay;
            for n in 0..bu.beats {
                let full = beat_range(bu, n, bytes);
                let r = full.start.max(u128::from(a.req.addr))..full.end.min(a.req.end());
                match err_of(&errors, &full) {
                    Some(e) => worst = worst.max(e),
                    None => {
                        for addr in r {
                            expect[addr as usize] =
                                a.data[(addr - u128::from(a.req.addr)) as usize];
                        }
                    }
                }
            }
            if status.is_none() && worst != Resp::Okay {
                status = Some(DmaStatus::from_resp(worst));
            }
        }
        want.push(match status {
            Some(s) => s,
            None if a.issued == a.bursts.len() => DmaStatus::Ok,
            None => DmaStatus::Region,
        });
    }
    for (c, sink) in rsp_sink.iter().enumerate() {
        prop_assert_eq!(
            sink.received().len(),
            per_client[c].len(),
            "client {} responses",
            c
        );
        for (k, got) in sink.received().iter().enumerate() {
            let i = per_client[c][k];
            let a = &acc[i];
            prop_assert_eq!(a.client, c);
            prop_assert_eq!(got.0, a.req.tag, "client {} response {} out of order", c, k);
            prop_assert_eq!(
                got.1,
                want[i],
                "client {} request {:?} issued {}/{}",
                c,
                &a.req,
                a.issued,
                a.bursts.len()
            );
            if want[i] == DmaStatus::Region {
                let end = a.t_rsp.unwrap_or(u64::MAX);
                prop_assert!(
                    lookups.iter().any(|l| l.cycle >= a.t_acc
                        && l.cycle <= end
                        && l.idx == a.req.region
                        && !passes(&l.entry, l.rgen, &a.req)),
                    "REGION for {:?} without a failing lookup",
                    &a.req
                );
            }
            st.by_status[got.1 as usize] += 1;
        }
    }
    let got = mem.bytes();
    if let Some(i) = (0..MEM as usize).find(|i| got[*i] != expect[*i]) {
        return Err(TestCaseError::fail(format!(
            "memory differs first at {i:#x}: {:#04x}, reference {:#04x}",
            got[i], expect[i]
        )));
    }
    st.requests = acc.len();
    st.cycles = cycle;
    Ok(st)
}

fn knobs() -> impl Strategy<Value = Knobs> {
    (
        (20u8..=100, 20u8..=100, 20u8..=100),
        (20u8..=100, 30u8..=100, 0u8..=30),
        any::<bool>(),
    )
        .prop_map(
            |((p_req, p_wd, p_rsp), (p_rrt, p_axi, p_commit), errors)| Knobs {
                p_req,
                p_wd,
                p_rsp,
                p_rrt,
                p_axi,
                p_commit,
                errors,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn small_writes_follow_section_4_1(seed in any::<u64>(), k in knobs()) {
        run::<onerma_rtl::dma_wr::Model>(seed, 20, k)?;
    }

    #[test]
    fn default_writes_follow_section_4_1(seed in any::<u64>(), k in knobs()) {
        run::<onerma_rtl::dma_wr_default::Model>(seed, 12, k)?;
    }
}

/// A fixed mix that must reach every status, commits and every kind of burst.
#[test]
fn streams_reach_every_status() {
    let k = Knobs {
        p_req: 70,
        p_wd: 80,
        p_rsp: 70,
        p_rrt: 80,
        p_axi: 70,
        p_commit: 20,
        errors: true,
    };
    let mut total = Stats::default();
    for seed in 0..6 {
        let s = run::<onerma_rtl::dma_wr::Model>(seed, 30, k).expect("run");
        for i in 0..4 {
            total.by_status[i] += s.by_status[i];
        }
        total.bursts += s.bursts;
        total.commits += s.commits;
        total.requests += s.requests;
    }
    println!("{total:?}");
    assert!(total.by_status.iter().all(|n| *n > 0), "{total:?}");
    assert!(total.bursts > total.requests);
}

/// One data beat per cycle on W for a stream of 4 KB requests (aligned, then unaligned) from
/// every client, with a memory that never stalls; measured and printed, not asserted.
fn throughput<D: Dut>(name: &str) {
    let n = D::CLIENTS;
    let bytes = D::BYTES;
    for unaligned in [false, true] {
        let mut rng = StdRng::seed_from_u64(7);
        let mut mem = AxiMem::new(MemConfig {
            bus_bytes: bytes,
            size: MEM as usize,
            write_latency: 4,
            ..MemConfig::default()
        })
        .expect("mem");
        let e = whole_memory_entry(&mut rng, MEM, PERM_LOCAL_WRITE);
        let mut rrt = Rrt::new(vec![(e, 5)]);
        let mut dut = D::fresh();
        let per = 16usize;
        let mut req_src: Vec<Source<Req>> =
            (0..n).map(|_| Source::new(Throttle::always())).collect();
        let mut wd_src: Vec<Source<Vec<u8>>> =
            (0..n).map(|_| Source::new(Throttle::always())).collect();
        for c in 0..n {
            for i in 0..per {
                let addr = rng.random_range(0..(MEM - 8192) / 4096) * 4096
                    + if unaligned {
                        rng.random_range(1..bytes as u64)
                    } else {
                        0
                    };
                req_src[c].push(Req {
                    addr,
                    len: 4096,
                    region: 0,
                    rgen: 5,
                    perm: PERM_LOCAL_WRITE,
                    tag: i as u8,
                });
                for _ in 0..4096 / bytes {
                    wd_src[c].push(vec![0xa5; bytes]);
                }
            }
        }
        let (mut first, mut last, mut beats, mut rsps) = (None, 0u64, 0u64, 0usize);
        let mut cycle = 0u64;
        while rsps < n * per && cycle < 1_000_000 {
            let reqs: Vec<Option<Req>> = req_src.iter_mut().map(|s| s.offer().cloned()).collect();
            let wds: Vec<Option<Vec<u8>>> = wd_src.iter_mut().map(|s| s.offer().cloned()).collect();
            let s = mem.outputs();
            let answer = *rrt.answer();
            dut.drive(&In {
                req: reqs.iter().map(|r| r.as_ref()).collect(),
                wd: wds.iter().map(|d| d.as_ref()).collect(),
                rsp_ready: vec![true; n],
                rrt_ready: true,
                rrt: &answer,
                commit: false,
                s: &s,
            });
            dut.eval();
            let o = dut.out();
            for c in 0..n {
                req_src[c].handshake(o.req_ready[c]);
                wd_src[c].handshake(o.wd_ready[c]);
                rsps += usize::from(o.rsp[c].is_some());
            }
            if let Some(idx) = o.rrt {
                rrt.lookup(idx);
            }
            if o.m.w.is_some() && s.w_ready {
                first.get_or_insert(cycle);
                last = cycle;
                beats += 1;
            }
            mem.tick(&o.m).expect("axi");
            dut.tick();
            cycle += 1;
        }
        assert_eq!(rsps, n * per, "responses");
        let span = last + 1 - first.unwrap_or(0);
        let total = (n * per * 4096) as f64;
        println!(
            "{name} {}: {beats} W beats in {span} cycles: {:.3} beats/cycle, {:.2} bytes/cycle of {} ({:.1} %)",
            if unaligned { "unaligned" } else { "aligned" },
            beats as f64 / span as f64,
            total / span as f64,
            bytes,
            100.0 * total / span as f64 / bytes as f64
        );
    }
}

#[test]
fn throughput_4k_stream() {
    throughput::<onerma_rtl::dma_wr::Model>("dma_wr (128 bit)");
    throughput::<onerma_rtl::dma_wr_default::Model>("dma_wr_default (512 bit)");
}
