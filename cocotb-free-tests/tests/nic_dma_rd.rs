//! `onerma_dma_rd` against protocol.md §4.1 / §4.2, with a reference written from the text
//! (`onerma_rtl_tests::dma`): random requests from every client (random alignment, lengths
//! 1..4096 across 4 KB boundaries, inside, across and outside their regions, at the top of the
//! address space), regions with random base / size / permissions, a bench RRT whose entries the
//! test commits mid-stream, SLVERR / DECERR ranges in the memory, random back-pressure on AR, R,
//! the RRT port and every client stream.
//!
//! Checked: every burst's AR, in the first cycle it is offered, is the next burst of an accepted
//! request (4 KB / `MaxBurstBeats` cut) and the table entry as it is in that cycle passes §4.1 for
//! the whole request; every client gets exactly `ceil(len / Bytes)` beats per request, `rd_last`
//! on the final, each beat's bytes equal to memory (the first `len` bytes) unless the beat is
//! built from a burst not issued or an error R beat, which carries `rd_err` and zero data; each
//! response in request order per client, after the request's last data beat, with the status of
//! the first failure in burst order (REGION only if a lookup of the region during the request
//! failed the check; no burst missing without a failure); `quiesce_o` never 1 while a burst
//! offered before the latest commit has not had its last R beat, and 1 at the end.

use std::collections::VecDeque;

use onerma_rtl_tests::axi::{Addr, AxiMem, MasterOut, MemConfig, Resp, SlaveOut};
use onerma_rtl_tests::bits::{get_bits, put_bits};
use onerma_rtl_tests::dma::{
    Burst, DmaStatus, PERM_LOCAL_READ, Req, Rrt, beat_range, cut, passes, random_entry, random_req,
    whole_memory_entry,
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
    rd_ready: Vec<bool>,
    rsp_ready: Vec<bool>,
    rrt_ready: bool,
    rrt: &'a ([u32; 10], u16),
    commit: bool,
    s: &'a SlaveOut,
}

/// A client data beat: bytes, last, err.
type RdBeat = (Vec<u8>, bool, bool);

struct Out {
    req_ready: Vec<bool>,
    rd: Vec<Option<RdBeat>>,
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
    ($m:ident, $clients:expr, $bytes:expr, $max:expr, $aw:expr, $dw:expr, $rw:expr) => {
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
                self.set_rd_ready_i(bit(i.rd_ready.clone()) as _);
                self.set_rsp_ready_i(bit(i.rsp_ready.clone()) as _);
                self.set_rrt_ready_i(u8::from(i.rrt_ready));
                self.set_rrt_entry_i(&i.rrt.0);
                self.set_rrt_gen_i(i.rrt.1 as _);
                self.set_rrt_commit_i(u8::from(i.commit));
                self.set_m_axi_arready_i(u8::from(i.s.ar_ready));
                self.set_m_axi_rvalid_i(u8::from(i.s.r.is_some()));
                let mut rd = [0u32; $rw];
                if let Some(r) = &i.s.r {
                    for (k, byte) in r.data.iter().enumerate() {
                        put_bits(&mut rd, 8 * k, 8, u128::from(*byte));
                    }
                }
                self.set_m_axi_rdata_i(&rd);
                self.set_m_axi_rid_i(i.s.r.as_ref().map_or(0, |r| r.id) as _);
                self.set_m_axi_rresp_i(i.s.r.as_ref().map_or(0, |r| r.resp.bits()) as _);
                self.set_m_axi_rlast_i(u8::from(i.s.r.as_ref().is_some_and(|r| r.last)));
            }
            fn out(&self) -> Out {
                let n = Self::CLIENTS;
                let rv = u128::from(self.req_ready_o());
                let rv_o = u128::from(self.rd_valid_o());
                let rl = u128::from(self.rd_last_o());
                let re = u128::from(self.rd_err_o());
                let rdw = self.rd_data_o();
                let sv = u128::from(self.rsp_valid_o());
                let tags = u128::from(self.rsp_tag_o());
                let sts = u128::from(self.rsp_status_o());
                let ar = (self.m_axi_arvalid_o() != 0).then(|| {
                    Addr::incr(
                        u32::from(self.m_axi_arid_o()),
                        self.m_axi_araddr_o() as u64,
                        u16::from(self.m_axi_arlen_o()) + 1,
                        self.m_axi_arsize_o(),
                    )
                });
                Out {
                    req_ready: (0..n).map(|c| rv >> c & 1 == 1).collect(),
                    rd: (0..n)
                        .map(|c| {
                            (rv_o >> c & 1 == 1).then(|| {
                                (
                                    (0..$bytes)
                                        .map(|k| get_bits(&rdw, c * $bytes * 8 + 8 * k, 8) as u8)
                                        .collect(),
                                    rl >> c & 1 == 1,
                                    re >> c & 1 == 1,
                                )
                            })
                        })
                        .collect(),
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
                        ar,
                        aw: None,
                        w: None,
                        r_ready: self.m_axi_rready_o() != 0,
                        b_ready: false,
                    },
                }
            }
        }
    };
}

dut!(dma_rd, 2, 16, 16, 4, 8, 4);
dut!(dma_rd_default, 3, 64, 64, 6, 48, 16);

#[derive(Debug, Clone, Copy)]
struct Knobs {
    /// Chances (percent) per cycle; `p_commit` in 1/10,000 per cycle.
    p_req: u8,
    p_rd: u8,
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
    err_beats: usize,
    commits: usize,
}

/// The reference for one request: its client beats (data, err) and status, given how many of
/// its bursts were issued and the memory's error ranges.
fn reference(
    a: &Accepted,
    mem: &[u8],
    errors: &[(std::ops::Range<u64>, Resp)],
    bytes: usize,
) -> (Vec<(Vec<u8>, bool)>, DmaStatus) {
    // Every AXI beat of the request, in order: (first op byte it carries, error).
    let mut axi: Vec<bool> = Vec::new();
    let mut status = None;
    for (k, bu) in a.bursts.iter().enumerate() {
        for n in 0..bu.beats {
            let e = if k < a.issued {
                let r = beat_range(bu, n, bytes);
                let e = err_of(errors, &r);
                if status.is_none() {
                    status = e.map(DmaStatus::from_resp);
                }
                e.is_some()
            } else {
                true
            };
            axi.push(e);
        }
    }
    let status = match status {
        Some(s) => s,
        None if a.issued == a.bursts.len() => DmaStatus::Ok,
        None => DmaStatus::Region,
    };
    let off = (a.req.addr % bytes as u64) as usize;
    let len = usize::from(a.req.len);
    let beats = a.req.client_beats(bytes);
    let mut out = Vec::with_capacity(beats);
    for i in 0..beats {
        // Op bytes i*bytes.. sit in AXI beats (off + i*bytes) / bytes ..
        let lo = (off + i * bytes) / bytes;
        let hi = (off + ((i + 1) * bytes).min(len) - 1) / bytes;
        let err = (lo..=hi).any(|j| axi[j]);
        let data = if err {
            vec![0; bytes]
        } else {
            (0..bytes)
                .map(|k| {
                    let b = i * bytes + k;
                    if b < len {
                        mem[(a.req.addr + b as u64) as usize]
                    } else {
                        0
                    }
                })
                .collect()
        };
        out.push((data, err));
    }
    (out, status)
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
        read_latency: rng.random_range(1..6),
        write_latency: 1,
        p_ready: f64::from(k.p_axi) / 100.0,
        p_resp: f64::from(k.p_axi) / 100.0,
        seed,
        errors: errors.clone(),
    })
    .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let init: Vec<u8> = (0..MEM).map(|_| rng.random()).collect();
    mem.load(0, &init).expect("load");

    let mut rrt = Rrt::new(
        (0..REGIONS)
            .map(|_| (random_entry(&mut rng, MEM, PERM_LOCAL_READ), rng.random()))
            .collect(),
    );
    let mut dut = D::fresh();
    let mut req_src: Vec<Source<Req>> = (0..n)
        .map(|c| Source::new(thr(k.p_req, 11 + c as u64)))
        .collect();
    let mut rd_sink: Vec<Sink<RdBeat>> = (0..n)
        .map(|c| Sink::new(thr(k.p_rd, 23 + c as u64)))
        .collect();
    let mut rsp_sink: Vec<Sink<(u8, DmaStatus)>> = (0..n)
        .map(|c| Sink::new(thr(k.p_rsp, 37 + c as u64)))
        .collect();
    let mut rrt_thr = thr(k.p_rrt, 51);
    let mut made = vec![0usize; n];
    let mut per_client: Vec<Vec<usize>> = vec![Vec::new(); n];
    // Per client: last data beats received so far (a response must follow its last beat).
    let mut lasts = vec![0usize; n];
    let mut acc: Vec<Accepted> = Vec::new();
    let mut lookups: Vec<Lookup> = Vec::new();
    // Bursts offered whose last R beat has not come: (pre-commit flag).
    let mut out_bursts: VecDeque<bool> = VecDeque::new();
    let mut ar_held = false;
    let mut cursor: Option<(usize, usize)> = None;
    let mut st = Stats::default();
    let limit = (count * n) as u64 * 3000 + 20_000;
    let mut cycle = 0u64;

    loop {
        for c in 0..n {
            if req_src[c].is_idle() && made[c] < count {
                let r = random_req(&mut rng, &rrt, REGIONS, MEM, PERM_LOCAL_READ, made[c] as u8);
                req_src[c].push(r);
                made[c] += 1;
            }
        }
        let done = made.iter().all(|m| *m == count)
            && req_src.iter().all(|s| s.is_idle())
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
        let rd_ready: Vec<bool> = rd_sink.iter_mut().map(|s| s.ready()).collect();
        let rsp_ready: Vec<bool> = rsp_sink.iter_mut().map(|s| s.ready()).collect();
        let rrt_ready = rrt_thr.go();
        let commit = rng.random_range(0u16..10_000) < u16::from(k.p_commit);
        let s = mem.outputs();
        let answer = *rrt.answer();
        dut.drive(&In {
            req: reqs.iter().map(|r| r.as_ref()).collect(),
            rd_ready,
            rsp_ready,
            rrt_ready,
            rrt: &answer,
            commit,
            s: &s,
        });
        dut.eval();
        let o = dut.out();

        if o.quiesce && out_bursts.iter().any(|pre| *pre) {
            return Err(TestCaseError::fail(format!(
                "cycle {cycle}: quiesce_o = 1 with a burst from before the last commit outstanding"
            )));
        }
        for c in 0..n {
            if let Some(r) = req_src[c].handshake(o.req_ready[c]) {
                per_client[c].push(acc.len());
                acc.push(Accepted {
                    client: c,
                    bursts: cut(&r, bytes, D::MAX_BEATS),
                    req: r,
                    issued: 0,
                    t_acc: cycle,
                    t_rsp: None,
                });
            }
        }
        if let Some(ar) = &o.m.ar {
            if !ar_held {
                let b = Burst {
                    addr: ar.addr,
                    beats: ar.beats(),
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
                    "cycle {}: burst {:?} of {:?} offered while the entry {:?} gen {} fails the check",
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
            ar_held = !s.ar_ready;
        } else {
            ar_held = false;
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
            let beat = o.rd[c].clone();
            let is_last = beat.as_ref().is_some_and(|b| b.1);
            if rd_sink[c].handshake(beat) && is_last {
                lasts[c] += 1;
            }
            if rsp_sink[c].handshake(o.rsp[c]) {
                let k = rsp_sink[c].received().len() - 1;
                let i = *per_client[c].get(k).ok_or_else(|| {
                    TestCaseError::fail(format!("client {c}: response without a request"))
                })?;
                prop_assert!(
                    lasts[c] > k,
                    "client {}: response {} before its last data beat",
                    c,
                    k
                );
                acc[i].t_rsp = Some(cycle);
            }
        }
        if s.r.as_ref().is_some_and(|r| r.last) && o.m.r_ready {
            out_bursts.pop_front();
        }
        if commit {
            let idx = rng.random_range(0..REGIONS as usize);
            let mut e = rrt.entries[idx].0.clone();
            match rng.random_range(0u8..20) {
                0..=5 => {
                    e = random_entry(&mut rng, MEM, PERM_LOCAL_READ);
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

    for c in 0..n {
        let beats = rd_sink[c].received();
        let rsps = rsp_sink[c].received();
        prop_assert_eq!(rsps.len(), per_client[c].len(), "client {} responses", c);
        let mut at = 0usize;
        for (k, got) in rsps.iter().enumerate() {
            let i = per_client[c][k];
            let a = &acc[i];
            prop_assert_eq!(a.client, c);
            prop_assert_eq!(got.0, a.req.tag, "client {} response {} out of order", c, k);
            let (want_beats, want) = reference(a, &init, &errors, bytes);
            prop_assert_eq!(
                got.1,
                want,
                "client {} request {:?} issued {}/{}",
                c,
                &a.req,
                a.issued,
                a.bursts.len()
            );
            let len = usize::from(a.req.len);
            for (b, (wd, we)) in want_beats.iter().enumerate() {
                let (gd, gl, ge) = beats.get(at).ok_or_else(|| {
                    TestCaseError::fail(format!("client {c}: data beats missing"))
                })?;
                at += 1;
                let last = b + 1 == want_beats.len();
                prop_assert_eq!(
                    *gl,
                    last,
                    "client {} request {:?} beat {}: rd_last",
                    c,
                    &a.req,
                    b
                );
                prop_assert_eq!(
                    *ge,
                    *we,
                    "client {} request {:?} beat {}: rd_err",
                    c,
                    &a.req,
                    b
                );
                let n_bytes = if *we {
                    bytes
                } else {
                    (len - b * bytes).min(bytes)
                };
                prop_assert_eq!(
                    &gd[..n_bytes],
                    &wd[..n_bytes],
                    "client {} request {:?} beat {}: data",
                    c,
                    &a.req,
                    b
                );
                st.err_beats += usize::from(*we);
            }
            if want == DmaStatus::Region {
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
        prop_assert_eq!(at, beats.len(), "client {}: extra data beats", c);
    }
    st.requests = acc.len();
    Ok(st)
}

fn knobs() -> impl Strategy<Value = Knobs> {
    (
        (20u8..=100, 20u8..=100, 20u8..=100),
        (20u8..=100, 30u8..=100, 0u8..=30),
        any::<bool>(),
    )
        .prop_map(
            |((p_req, p_rd, p_rsp), (p_rrt, p_axi, p_commit), errors)| Knobs {
                p_req,
                p_rd,
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
    fn small_reads_follow_section_4_1(seed in any::<u64>(), k in knobs()) {
        run::<onerma_rtl::dma_rd::Model>(seed, 20, k)?;
    }

    #[test]
    fn default_reads_follow_section_4_1(seed in any::<u64>(), k in knobs()) {
        run::<onerma_rtl::dma_rd_default::Model>(seed, 12, k)?;
    }
}

/// A fixed mix that must reach every status, commits, error beats and bursts.
#[test]
fn streams_reach_every_status() {
    let k = Knobs {
        p_req: 70,
        p_rd: 80,
        p_rsp: 70,
        p_rrt: 80,
        p_axi: 70,
        p_commit: 20,
        errors: true,
    };
    let mut total = Stats::default();
    for seed in 0..6 {
        let s = run::<onerma_rtl::dma_rd::Model>(seed, 30, k).expect("run");
        for i in 0..4 {
            total.by_status[i] += s.by_status[i];
        }
        total.bursts += s.bursts;
        total.commits += s.commits;
        total.requests += s.requests;
        total.err_beats += s.err_beats;
    }
    println!("{total:?}");
    assert!(total.by_status.iter().all(|n| *n > 0), "{total:?}");
    assert!(total.bursts > total.requests && total.err_beats > 0);
}

/// What a request stream did: request handshakes (first and last cycle, count), R beats (first
/// and last cycle, count), responses, cycles in all.
#[derive(Debug, Default)]
struct StreamRun {
    take: (Option<u64>, u64, usize),
    beats: (Option<u64>, u64, u64),
    rsps: usize,
    cycles: u64,
}

/// Runs per-client request lists against a region covering the whole memory and a memory that
/// never stalls (read latency `latency`), every stream always ready, until every response came.
fn stream<D: Dut>(latency: u64, reqs: Vec<Vec<Req>>) -> StreamRun {
    let n = D::CLIENTS;
    let mut rng = StdRng::seed_from_u64(7);
    let mut mem = AxiMem::new(MemConfig {
        bus_bytes: D::BYTES,
        size: MEM as usize,
        read_latency: latency,
        ..MemConfig::default()
    })
    .expect("mem");
    let e = whole_memory_entry(&mut rng, MEM, PERM_LOCAL_READ);
    let mut rrt = Rrt::new(vec![(e, 5)]);
    let mut dut = D::fresh();
    let total: usize = reqs.iter().map(Vec::len).sum();
    let mut req_src: Vec<Source<Req>> = (0..n).map(|_| Source::new(Throttle::always())).collect();
    for (src, list) in req_src.iter_mut().zip(reqs) {
        for r in list {
            src.push(r);
        }
    }
    let mut run = StreamRun::default();
    while run.rsps < total && run.cycles < 1_000_000 {
        let cycle = run.cycles;
        let offers: Vec<Option<Req>> = req_src.iter_mut().map(|s| s.offer().cloned()).collect();
        let s = mem.outputs();
        let answer = *rrt.answer();
        dut.drive(&In {
            req: offers.iter().map(|r| r.as_ref()).collect(),
            rd_ready: vec![true; n],
            rsp_ready: vec![true; n],
            rrt_ready: true,
            rrt: &answer,
            commit: false,
            s: &s,
        });
        dut.eval();
        let o = dut.out();
        for (c, src) in req_src.iter_mut().enumerate() {
            if src.handshake(o.req_ready[c]).is_some() {
                run.take.0.get_or_insert(cycle);
                run.take.1 = cycle;
                run.take.2 += 1;
            }
            run.rsps += usize::from(o.rsp[c].is_some());
        }
        if let Some(idx) = o.rrt {
            rrt.lookup(idx);
        }
        if s.r.is_some() && o.m.r_ready {
            run.beats.0.get_or_insert(cycle);
            run.beats.1 = cycle;
            run.beats.2 += 1;
        }
        mem.tick(&o.m).expect("axi");
        dut.tick();
        run.cycles += 1;
    }
    assert_eq!(run.rsps, total, "responses");
    run
}

/// `per` requests of `len` bytes per client for [`stream`], at the addresses `addr` draws (in
/// client order), in the whole-memory region.
fn req_lists(n: usize, per: usize, len: u16, mut addr: impl FnMut() -> u64) -> Vec<Vec<Req>> {
    (0..n)
        .map(|c| {
            (0..per)
                .map(|i| Req {
                    addr: addr(),
                    len,
                    region: 0,
                    rgen: 5,
                    perm: PERM_LOCAL_READ,
                    tag: (i + c) as u8,
                })
                .collect()
        })
        .collect()
}

/// One data beat per cycle on R for a stream of 4 KB requests (aligned, then unaligned) from
/// every client, with a memory that never stalls; measured and printed, not asserted.
fn throughput<D: Dut>(name: &str) {
    let (n, bytes, per) = (D::CLIENTS, D::BYTES, 16usize);
    for unaligned in [false, true] {
        let mut rng = StdRng::seed_from_u64(7);
        let reqs = req_lists(n, per, 4096, || {
            rng.random_range(0..(MEM - 8192) / 4096) * 4096
                + if unaligned {
                    rng.random_range(1..bytes as u64)
                } else {
                    0
                }
        });
        let run = stream::<D>(4, reqs);
        let (first, last, beats) = run.beats;
        let span = last + 1 - first.unwrap_or(0);
        let total = (n * per * 4096) as f64;
        println!(
            "{name} {}: {beats} R beats in {span} cycles: {:.3} beats/cycle, {:.2} bytes/cycle of {} ({:.1} %)",
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
    throughput::<onerma_rtl::dma_rd::Model>("dma_rd (128 bit)");
    throughput::<onerma_rtl::dma_rd_default::Model>("dma_rd_default (512 bit)");
}

/// Cycles per request for a stream of 64-byte single-burst requests (aligned, so one burst of
/// 64 / Bytes beats) from every client, with a memory that never stalls and a read latency of 1:
/// the engine takes a single-burst request per cycle, so at 512 bits (one beat per request) the
/// stream approaches one request per cycle; at 128 bits the R path's four beats per request
/// bind. Measured and printed; the 512-bit rate is asserted to stay under 1.2 cycles.
fn small_requests<D: Dut>(name: &str) -> f64 {
    let (n, per) = (D::CLIENTS, 64usize);
    let mut rng = StdRng::seed_from_u64(11);
    let reqs = req_lists(n, per, 64, || rng.random_range(0..MEM / 64) * 64);
    let run = stream::<D>(1, reqs);
    let (first, last, taken) = run.take;
    assert_eq!(taken, n * per, "requests");
    let span = last - first.unwrap_or(0);
    let per_req = span as f64 / (taken - 1) as f64;
    println!(
        "{name}: {taken} requests of 64 B, taken over {span} cycles: {per_req:.2} cycles per request ({} cycles in all)",
        run.cycles
    );
    per_req
}

#[test]
fn throughput_64b_requests() {
    small_requests::<onerma_rtl::dma_rd::Model>("dma_rd (128 bit)");
    let wide = small_requests::<onerma_rtl::dma_rd_default::Model>("dma_rd_default (512 bit)");
    assert!(wide < 1.2, "{wide:.2} cycles per 64 B request at 512 bits");
}
