//! `onerma_rsp_read` reading through a real `onerma_dma_rd` (test top `onerma_rsp_read_sim`)
//! against protocol.md §3.1, §7.3 and §4.1 and the model's RD_RESP (`Responder::on_rd_serve`:
//! the request's header with `msg_type` RD_RESP, `dst_nic = request.src_nic`, `prev_counter =
//! request.counter`, the echo fields, `chunk_offset`; `chunk_len` of §3.1; no chunk sent after a
//! failed one).
//!
//! Random READs that passed the request checks are started (the RD_REQ header as received, with
//! random values in the fields a RD_RESP does not echo; K_d; the region entry's base and gen at
//! the check): sizes 1..4096 favouring chunk edges, regions whose check passes or fails (bounds,
//! permission, a `gen` changed since the check), SLVERR / DECERR ranges in the AXI4 memory
//! (`AxiMem`); the start, seal job and payload streams, the RRT port and the memory stall at
//! random; the payload lock is lowered and raised at random while the block is idle and `yield`
//! is raised at random. The reference per chunk (written from §3.1, §7.3 and §4.1 with the
//! shared `dma` helpers, never from the RTL): the job (header field by field, K_d, meta =
//! chunk), the read's status (REGION if the check fails, else the first erroneous AXI beat's
//! answer in burst order, else OK) and its bytes.
//!
//! Checked: jobs exactly in order (chunk 0, 1, .. of each start, starts in order), one per
//! chunk, held still while stalled, none while an accepted job's payload is due; payload beats
//! only after their chunk's job, exactly `ceil(chunk_len / Bytes)` with `last` on the final, data
//! equal to memory on every beat without `pay_err`; in the first failing chunk of a READ some
//! beat has `pay_err` (iff that read failed), every beat of a later chunk of it has; no start
//! taken under `yield`, with `MaxOps` READs whose jobs are not all accepted, or without the
//! lock while one is; one `fail` per failed READ, in order, with its first failing read's
//! status; `idle` never while
//! a job or payload is due, and at the end. Three tops: 128 bit holding 2 READs and 2 reads, 512
//! bit with the block's defaults (4 and 4), 512 bit holding one (the serial corner). Throughput
//! tests print the payload beats per cycle of 4 KB READs and the cycles per 64 B READ.

use std::collections::VecDeque;
use std::ops::Range;

use onerma_layouts::{Hdr, MsgType, OpType, Status};
use onerma_rtl_tests::axi::{Addr, AxiMem, MasterOut, MemConfig, Resp, SlaveOut};
use onerma_rtl_tests::bits::{be_to_words, get_bits, put_bits, words_to_be};
use onerma_rtl_tests::dma::{
    CHUNK, DmaStatus, PERM_REMOTE_READ, Req, Rrt, chunk_len, random_entry, random_req, read_status,
    whole_memory_entry,
};
use onerma_rtl_tests::{RuleMonitor, Source, Throttle};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const REGIONS: u16 = 4;
const MEM: u64 = 1 << 16;

/// A READ at the head of the READ queue: what `start` carries.
#[derive(Debug, Clone)]
struct Start {
    /// The RD_REQ header as received.
    req: Hdr,
    kd: u128,
    /// The region entry's base and gen at the check.
    base: u64,
    gen_: u16,
}

/// What the bench drives in one cycle.
struct In<'a> {
    start: Option<&'a Start>,
    lock: bool,
    yield_: bool,
    job_ready: bool,
    pay_ready: bool,
    rrt_ready: bool,
    rrt: &'a ([u32; 10], u16),
    s: &'a SlaveOut,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Job {
    hdr: [u8; 64],
    key: u128,
    meta: u8,
}

struct Out {
    start_ready: bool,
    idle: bool,
    fail: Option<DmaStatus>,
    job: Option<Job>,
    /// (bytes in lane order, last, err).
    pay: Option<(Vec<u8>, bool, bool)>,
    rrt: Option<u16>,
    m: MasterOut,
}

trait Dut {
    const BYTES: usize;
    const MAX_OPS: usize;
    const MAX_BEATS: usize;
    fn fresh() -> Self;
    fn eval(&mut self);
    fn tick(&mut self);
    fn drive(&mut self, i: &In) -> Result<(), TestCaseError>;
    fn out(&self) -> Out;
}

macro_rules! dut {
    ($m:ident, $bytes:expr, $max:expr, $dw:expr, $ops:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const BYTES: usize = $bytes;
            const MAX_OPS: usize = $ops;
            const MAX_BEATS: usize = $max;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(&mut self, i: &In) -> Result<(), TestCaseError> {
                let (hdr, kd, base, gen_) = match i.start {
                    Some(s) => (
                        be_to_words::<16>(
                            &s.req
                                .to_bytes()
                                .map_err(|e| TestCaseError::fail(format!("header: {e}")))?,
                        ),
                        be_to_words::<4>(&s.kd.to_be_bytes()),
                        s.base,
                        s.gen_,
                    ),
                    None => ([0; 16], [0; 4], 0, 0),
                };
                self.set_start_valid_i(u8::from(i.start.is_some()));
                self.set_lock_i(u8::from(i.lock));
                self.set_yield_i(u8::from(i.yield_));
                self.set_start_hdr_i(&hdr);
                self.set_start_kd_i(&kd);
                self.set_start_base_i(base);
                self.set_start_gen_i(gen_);
                self.set_job_ready_i(u8::from(i.job_ready));
                self.set_pay_ready_i(u8::from(i.pay_ready));
                self.set_rrt_ready_i(u8::from(i.rrt_ready));
                self.set_rrt_entry_i(&i.rrt.0);
                self.set_rrt_gen_i(i.rrt.1);
                self.set_rrt_commit_i(0);
                self.set_m_axi_arready_i(u8::from(i.s.ar_ready));
                self.set_m_axi_rvalid_i(u8::from(i.s.r.is_some()));
                let mut rd = [0u32; $dw];
                if let Some(r) = &i.s.r {
                    for (k, byte) in r.data.iter().enumerate() {
                        put_bits(&mut rd, 8 * k, 8, u128::from(*byte));
                    }
                }
                self.set_m_axi_rdata_i(&rd);
                self.set_m_axi_rid_i(i.s.r.as_ref().map_or(0, |r| r.id) as _);
                self.set_m_axi_rresp_i(i.s.r.as_ref().map_or(0, |r| r.resp.bits()) as _);
                self.set_m_axi_rlast_i(u8::from(i.s.r.as_ref().is_some_and(|r| r.last)));
                Ok(())
            }
            fn out(&self) -> Out {
                let mut hdr = [0u8; 64];
                words_to_be(&self.job_hdr_o(), &mut hdr);
                let mut key = [0u8; 16];
                words_to_be(&self.job_key_o(), &mut key);
                let pd = self.pay_data_o();
                let ar = (self.m_axi_arvalid_o() != 0).then(|| {
                    Addr::incr(
                        u32::from(self.m_axi_arid_o()),
                        self.m_axi_araddr_o(),
                        u16::from(self.m_axi_arlen_o()) + 1,
                        self.m_axi_arsize_o(),
                    )
                });
                Out {
                    start_ready: self.start_ready_o() != 0,
                    idle: self.idle_o() != 0,
                    fail: (self.fail_o() != 0).then(|| DmaStatus::from_bits(self.fail_status_o())),
                    job: (self.job_valid_o() != 0).then(|| Job {
                        hdr,
                        key: u128::from_be_bytes(key),
                        meta: self.job_meta_o(),
                    }),
                    pay: (self.pay_valid_o() != 0).then(|| {
                        (
                            (0..$bytes).map(|k| get_bits(&pd, 8 * k, 8) as u8).collect(),
                            self.pay_last_o() != 0,
                            self.pay_err_o() != 0,
                        )
                    }),
                    rrt: (self.rrt_valid_o() != 0).then(|| self.rrt_idx_o()),
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

// rsp_read: 128 bit, MaxOps 2, MaxReads 2; rsp_read_default: 512 bit, the block's defaults
// (4, 4); rsp_read_serial: 512 bit, MaxOps 1, MaxReads 1.
dut!(rsp_read, 16, 16, 4, 2);
dut!(rsp_read_default, 64, 64, 16, 4);
dut!(rsp_read_serial, 64, 64, 16, 1);

/// One chunk as the reference has it.
#[derive(Debug)]
struct ChunkExp {
    job: Job,
    req: Req,
    status: DmaStatus,
}

/// One start: every chunk, and the first whose read fails.
#[derive(Debug)]
struct StartExp {
    chunks: Vec<ChunkExp>,
    first_fail: Option<usize>,
}

/// The RD_RESP header of chunk `k` (§7.3, the model's `on_rd_serve`): RD_RESP, READ, status OK,
/// `dst_nic = request.src_nic`, `prev_counter = request.counter`, PID / region / slot / offset /
/// length echoed, the chunk's offset and size; src_nic and counter are the sealer's (0 here),
/// ctx and hold_ns 0.
fn rd_resp_hdr(req: &Hdr, k: usize) -> Result<[u8; 64], TestCaseError> {
    let h = Hdr {
        msg_type: MsgType::RdResp,
        op_type: OpType::Read,
        status: Status::Ok,
        src_nic: 0,
        dst_nic: req.src_nic,
        counter: 0,
        prev_counter: req.counter,
        pid: req.pid,
        region: req.region,
        slot: req.slot,
        offset: req.offset,
        length: req.length,
        chunk_offset: (k * CHUNK) as u16,
        chunk_len: chunk_len(usize::from(req.length), k) as u16,
        ctx: 0,
        hold_ns: 0,
    };
    h.to_bytes()
        .map_err(|e| TestCaseError::fail(format!("header: {e}")))
}

/// A random READ that passed the request checks: its host side is a random read request of the
/// shared DMA generator (mostly inside a readable region; sometimes across its ends, a region
/// without the permission, or a `gen` changed since the check), the length favouring chunk
/// edges and 4 KB; the fields a RD_RESP does not echo are random.
fn random_start(rng: &mut StdRng, rrt: &Rrt) -> Start {
    let r = random_req(rng, rrt, REGIONS, MEM, PERM_REMOTE_READ, 0);
    let length: u16 = match rng.random_range(0u8..4) {
        0 => 4096,
        1 => *[1u16, 1023, 1024, 1025, 2047, 2048, 2049, 3072, 4095]
            .get(rng.random_range(0..9))
            .unwrap_or(&1),
        _ => r.len,
    };
    // Keep the read inside the region when the generator's request was.
    let addr = if length <= r.len || rng.random_range(0u8..4) == 0 {
        r.addr
    } else {
        r.addr.saturating_sub(u64::from(length - r.len))
    };
    // The base at the check: mostly the entry's, sometimes any (the offset makes up the rest).
    let base = if rng.random_range(0u8..4) == 0 {
        rng.random()
    } else {
        rrt.read(r.region).0.base_addr
    };
    let op = |rng: &mut StdRng| {
        if rng.random() {
            OpType::Read
        } else {
            OpType::Write
        }
    };
    Start {
        req: Hdr {
            msg_type: MsgType::RdReq,
            op_type: op(rng),
            status: Status::Ok,
            src_nic: rng.random(),
            dst_nic: rng.random(),
            counter: rng.random(),
            prev_counter: rng.random(),
            pid: rng.random(),
            region: r.region,
            slot: rng.random(),
            offset: addr.wrapping_sub(base),
            length,
            chunk_offset: rng.random(),
            chunk_len: rng.random(),
            ctx: rng.random(),
            hold_ns: rng.random(),
        },
        kd: rng.random(),
        base,
        gen_: r.rgen,
    }
}

/// The reference chunks of a start.
fn expect_start<D: Dut>(
    st: &Start,
    rrt: &Rrt,
    errors: &[(Range<u64>, Resp)],
) -> Result<StartExp, TestCaseError> {
    let len = usize::from(st.req.length);
    let mut chunks = Vec::new();
    for k in 0..len.div_ceil(CHUNK) {
        let req = Req {
            addr: st
                .base
                .wrapping_add(st.req.offset)
                .wrapping_add((k * CHUNK) as u64),
            len: chunk_len(len, k) as u16,
            region: st.req.region,
            rgen: st.gen_,
            perm: PERM_REMOTE_READ,
            tag: k as u8,
        };
        let status = read_status(&req, rrt, errors, MEM, D::BYTES, D::MAX_BEATS);
        chunks.push(ChunkExp {
            job: Job {
                hdr: rd_resp_hdr(&st.req, k)?,
                key: st.kd,
                meta: k as u8,
            },
            req,
            status,
        });
    }
    let first_fail = chunks.iter().position(|c| c.status != DmaStatus::Ok);
    Ok(StartExp { chunks, first_fail })
}

#[derive(Debug, Clone, Copy)]
struct Knobs {
    /// Percent per cycle: start offered, job / payload ready, RRT ready, AXI ready.
    p_start: u8,
    p_job: u8,
    p_pay: u8,
    p_rrt: u8,
    p_axi: u8,
    /// Percent per cycle: the payload lock rises (falls, when idle); `yield` is high.
    p_lock: u8,
    p_yield: u8,
    errors: bool,
    read_latency: u64,
}

/// The accepted job whose payload is due: start, chunk, beats taken, whether one had err.
#[derive(Debug, Clone, Copy)]
struct Due {
    start: usize,
    chunk: usize,
    beats: usize,
    err: bool,
}

#[derive(Debug, Default)]
struct Stats {
    starts: usize,
    chunks: usize,
    ok: usize,
    failed_region: usize,
    failed_axi: usize,
    /// Chunks after a failed one (every beat erroneous).
    after_fail: usize,
    bytes: usize,
}

fn run<D: Dut>(seed: u64, ops: usize, k: Knobs) -> Result<Stats, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let bytes = D::BYTES;
    let thr = |p: u8, s: u64| Throttle::new(seed ^ s, f64::from(p) / 100.0);
    let mut errors = Vec::new();
    if k.errors {
        for _ in 0..4 {
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
        read_latency: k.read_latency,
        write_latency: 1,
        p_ready: f64::from(k.p_axi) / 100.0,
        p_resp: f64::from(k.p_axi) / 100.0,
        seed,
        errors: errors.clone(),
    })
    .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let init: Vec<u8> = (0..MEM).map(|_| rng.random()).collect();
    mem.load(0, &init)
        .ok_or_else(|| TestCaseError::fail("memory load"))?;
    let mut rrt = Rrt::new(
        (0..REGIONS)
            .map(|_| (random_entry(&mut rng, MEM, PERM_REMOTE_READ), rng.random()))
            .collect(),
    );

    let mut dut = D::fresh();
    let mut start_src: Source<Start> =
        Source::new(thr(k.p_start, 1).map_err(|e| TestCaseError::fail(e.to_string()))?);
    let mut job_thr = thr(k.p_job, 2).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut pay_thr = thr(k.p_pay, 3).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut rrt_thr = thr(k.p_rrt, 4).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut lock_thr = thr(k.p_lock, 5).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut yield_thr = thr(k.p_yield, 6).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut job_mon: RuleMonitor<Option<Job>> = RuleMonitor::new("job");
    let mut pay_mon: RuleMonitor<Option<(Vec<u8>, bool, bool)>> = RuleMonitor::new("pay");

    // Made, not yet taken.
    let mut queued: VecDeque<StartExp> = VecDeque::new();
    // Taken, in order; the next job is (js, jc).
    let mut taken: Vec<StartExp> = Vec::new();
    let (mut js, mut jc) = (0usize, 0usize);
    let mut due: Option<Due> = None;
    let mut fails: Vec<DmaStatus> = Vec::new();
    let mut made = 0usize;
    let mut st = Stats::default();
    let mut cycle = 0u64;
    // The payload lock; it may fall only in a cycle the block is idle (idle last cycle with no
    // start taken).
    let mut lock = true;
    let mut may_change = true;
    let limit = ops as u64 * 6000 + 10_000;
    loop {
        // A new READ at the queue head, at random.
        if made < ops && rng.random_range(0u8..8) == 0 {
            let s = random_start(&mut rng, &rrt);
            queued.push_back(expect_start::<D>(&s, &rrt, &errors)?);
            start_src.push(s);
            made += 1;
        }
        let all_served = made == ops && start_src.is_idle() && js == taken.len() && due.is_none();
        // The lock falls only while the block is idle (its contract); it rises at random, and
        // at the end so that the block can drain.
        if lock {
            lock = !(may_change && lock_thr.go());
        } else {
            lock = lock_thr.go() || all_served;
        }

        let offer = start_src.offer().cloned();
        let job_ready = job_thr.go();
        let pay_ready = pay_thr.go();
        let rrt_ready = rrt_thr.go();
        let yield_ = yield_thr.go() && k.p_yield > 0;
        let s = mem.outputs();
        let answer = *rrt.answer();
        dut.drive(&In {
            start: offer.as_ref(),
            lock,
            yield_,
            job_ready,
            pay_ready,
            rrt_ready,
            rrt: &answer,
            s: &s,
        })?;
        dut.eval();
        let o = dut.out();
        if all_served && o.idle && mem.is_idle() {
            break;
        }
        prop_assert!(
            cycle < limit,
            "no progress after {} cycles ({} starts queued, {} jobs left)",
            cycle,
            queued.len(),
            taken.iter().map(|t| t.chunks.len()).sum::<usize>() - st.chunks
        );

        job_mon
            .check(cycle, o.job.is_some(), job_ready, &o.job)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        pay_mon
            .check(cycle, o.pay.is_some(), pay_ready, &o.pay)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;

        // idle: never while a job or payload is due.
        if o.idle {
            prop_assert!(
                js == taken.len() && due.is_none(),
                "cycle {}: idle with work left",
                cycle
            );
        }

        // Start handshake: never under yield, nor with MaxOps READs whose jobs are not all
        // accepted (the block also holds a READ until its reads are issued: a lower bound).
        let held = taken.len() - js;
        let start_fire = offer.is_some() && o.start_ready;
        if o.start_ready {
            prop_assert!(!yield_, "cycle {}: start ready under yield", cycle);
            prop_assert!(
                held < D::MAX_OPS,
                "cycle {}: start ready with {} held",
                cycle,
                held
            );
            prop_assert!(
                lock || held == 0,
                "cycle {}: start ready without the lock",
                cycle
            );
        }
        if start_fire {
            let e = queued
                .pop_front()
                .ok_or_else(|| TestCaseError::fail("start without a reference"))?;
            taken.push(e);
            st.starts += 1;
        }
        start_src.handshake(o.start_ready);
        may_change = o.idle && !start_fire;

        // Job: the next chunk in order, only when no payload is due.
        if let Some(j) = &o.job {
            prop_assert!(due.is_none(), "cycle {}: job while a payload is due", cycle);
            let want = taken
                .get(js)
                .and_then(|e| e.chunks.get(jc))
                .ok_or_else(|| {
                    TestCaseError::fail(format!("cycle {cycle}: job for start {js} chunk {jc}"))
                })?;
            prop_assert_eq!(
                j,
                &want.job,
                "cycle {}: job of start {} chunk {}",
                cycle,
                js,
                jc
            );
            if job_ready {
                due = Some(Due {
                    start: js,
                    chunk: jc,
                    beats: 0,
                    err: false,
                });
                st.chunks += 1;
                jc += 1;
                if jc == taken[js].chunks.len() {
                    js += 1;
                    jc = 0;
                }
            }
        }

        // Payload.
        if let Some((data, last, err)) = o.pay.clone().filter(|_| pay_ready) {
            let Some(d) = due.as_mut() else {
                return Err(TestCaseError::fail(format!(
                    "cycle {cycle}: payload beat with no job due"
                )));
            };
            let e = &taken[d.start];
            let ch = &e.chunks[d.chunk];
            let n = ch.req.client_beats(bytes);
            prop_assert_eq!(
                last,
                d.beats + 1 == n,
                "cycle {}: last on beat {}",
                cycle,
                d.beats
            );
            let after = e.first_fail.is_some_and(|f| d.chunk > f);
            if after {
                prop_assert!(err, "cycle {}: a clean beat after a failed chunk", cycle);
            }
            if !err {
                let lo = d.beats * bytes;
                let hi = ((d.beats + 1) * bytes).min(usize::from(ch.req.len));
                for (i, b) in data.iter().enumerate().take(hi - lo) {
                    let a = ch.req.addr.wrapping_add((lo + i) as u64);
                    let want = init.get(a as usize).copied();
                    prop_assert_eq!(
                        Some(*b),
                        want,
                        "cycle {}: byte {} of chunk {}",
                        cycle,
                        lo + i,
                        d.chunk
                    );
                }
                st.bytes += hi - lo;
            }
            d.err |= err;
            d.beats += 1;
            if last {
                if after {
                    st.after_fail += 1;
                } else {
                    prop_assert_eq!(
                        d.err,
                        ch.status != DmaStatus::Ok,
                        "cycle {}: an erroneous beat iff the read failed ({:?})",
                        cycle,
                        ch.status
                    );
                }
                if d.chunk + 1 == e.chunks.len() {
                    match e.first_fail.map(|f| e.chunks[f].status) {
                        None => st.ok += 1,
                        Some(DmaStatus::Region) => st.failed_region += 1,
                        Some(_) => st.failed_axi += 1,
                    }
                }
                due = None;
            }
        }

        if let Some(f) = o.fail {
            fails.push(f);
        }

        // RRT and memory.
        if let (Some(idx), true) = (o.rrt, rrt_ready) {
            rrt.lookup(idx);
        }
        mem.tick(&o.m)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        dut.tick();
        cycle += 1;
    }
    // One failure report per failed READ, in order, with its first failing read's status.
    let want: Vec<DmaStatus> = taken
        .iter()
        .filter_map(|e| e.first_fail.map(|f| e.chunks[f].status))
        .collect();
    prop_assert_eq!(fails, want, "fail pulses");
    prop_assert_eq!(st.starts, ops, "starts");
    prop_assert_eq!(
        st.ok + st.failed_region + st.failed_axi,
        ops,
        "READs served"
    );
    Ok(st)
}

fn pct() -> impl Strategy<Value = u8> {
    prop_oneof![Just(100u8), 30u8..100]
}

fn knobs() -> impl Strategy<Value = Knobs> {
    (
        (pct(), pct(), pct(), pct(), pct()),
        (
            prop_oneof![Just(0u8), 1u8..30],
            prop_oneof![Just(0u8), 1u8..50],
        ),
        any::<bool>(),
        1u64..8,
    )
        .prop_map(
            |((p_start, p_job, p_pay, p_rrt, p_axi), (p_lock, p_yield), errors, read_latency)| {
                Knobs {
                    p_start,
                    p_job,
                    p_pay,
                    p_rrt,
                    p_axi,
                    p_lock,
                    p_yield,
                    errors,
                    read_latency,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn small(seed in any::<u64>(), k in knobs()) {
        run::<onerma_rtl::rsp_read::Model>(seed, 24, k)?;
    }

    #[test]
    fn default_config(seed in any::<u64>(), k in knobs()) {
        run::<onerma_rtl::rsp_read_default::Model>(seed, 24, k)?;
    }

    #[test]
    fn serial_512(seed in any::<u64>(), k in knobs()) {
        run::<onerma_rtl::rsp_read_serial::Model>(seed, 24, k)?;
    }
}

/// Fixed seeds with error ranges: every outcome occurs (READs served whole, failed by the
/// region check, failed by an AXI error, chunks after a failed one dropped).
#[test]
fn every_outcome_occurs() -> Result<(), TestCaseError> {
    let k = Knobs {
        p_start: 100,
        p_job: 70,
        p_pay: 90,
        p_rrt: 80,
        p_axi: 80,
        p_lock: 10,
        p_yield: 10,
        errors: true,
        read_latency: 3,
    };
    let mut t = Stats::default();
    for seed in 0..4 {
        let s = if seed % 2 == 0 {
            run::<onerma_rtl::rsp_read::Model>(seed, 40, k)?
        } else {
            run::<onerma_rtl::rsp_read_default::Model>(seed, 40, k)?
        };
        t.starts += s.starts;
        t.chunks += s.chunks;
        t.ok += s.ok;
        t.failed_region += s.failed_region;
        t.failed_axi += s.failed_axi;
        t.after_fail += s.after_fail;
        t.bytes += s.bytes;
    }
    println!(
        "{} starts: {} served, {} failed by the region check, {} by an AXI error; {} chunks ({} \
         after a failed one), {} good bytes",
        t.starts, t.ok, t.failed_region, t.failed_axi, t.chunks, t.after_fail, t.bytes
    );
    prop_assert!(
        t.ok > 0 && t.failed_region > 0 && t.failed_axi > 0 && t.after_fail > 0,
        "outcomes {:?}",
        t
    );
    Ok(())
}

/// `n` READs of `len` bytes offered back to back with nothing stalling: cycles from the first
/// start handshake to the last payload beat, and the payload beats in them. Printed for
/// docs/nic.md (`-- --nocapture`).
fn stream<D: Dut>(len: u16, n: usize, latency: u64) -> Result<(u64, usize), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(5);
    let mut dut = D::fresh();
    let mut mem = AxiMem::new(MemConfig {
        bus_bytes: D::BYTES,
        size: MEM as usize,
        read_latency: latency,
        ..MemConfig::default()
    })
    .map_err(|e| TestCaseError::fail(e.to_string()))?;
    // A region covering the whole memory, READs from it.
    let e = whole_memory_entry(&mut rng, MEM, PERM_REMOTE_READ);
    let mut rrt = Rrt::new(vec![(e, 7)]);
    let mut start = random_start(&mut rng, &rrt);
    start.req.region = 0;
    start.req.length = len;
    start.req.offset = 4096;
    start.base = 0;
    start.gen_ = 7;
    let per = usize::from(len).div_ceil(CHUNK);
    let beats_per = (0..per)
        .map(|c| chunk_len(usize::from(len), c).div_ceil(D::BYTES))
        .sum::<usize>();
    let (mut t0, mut beats, mut cycle, mut started) = (None, 0usize, 0u64, 0usize);
    while beats < n * beats_per {
        prop_assert!(cycle < 100_000, "no progress");
        let s = mem.outputs();
        let answer = *rrt.answer();
        let offer = (started < n).then_some(&start);
        dut.drive(&In {
            start: offer,
            lock: true,
            yield_: false,
            job_ready: true,
            pay_ready: true,
            rrt_ready: true,
            rrt: &answer,
            s: &s,
        })?;
        dut.eval();
        let o = dut.out();
        if offer.is_some() && o.start_ready {
            started += 1;
            t0.get_or_insert(cycle);
        }
        if let Some((_, _, err)) = o.pay {
            prop_assert!(!err, "an erroneous beat");
            beats += 1;
        }
        if let Some(idx) = o.rrt {
            rrt.lookup(idx);
        }
        mem.tick(&o.m)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        dut.tick();
        cycle += 1;
    }
    let t0 = t0.ok_or_else(|| TestCaseError::fail("never started"))?;
    Ok((cycle - t0, beats))
}

#[test]
fn throughput() -> Result<(), TestCaseError> {
    fn one<D: Dut>(name: &str) -> Result<(), TestCaseError> {
        for lat in [1, 16] {
            let (c1, b1) = stream::<D>(4096, 1, lat)?;
            let (c4, b4) = stream::<D>(4096, 4, lat)?;
            let (c64, _) = stream::<D>(64, 64, lat)?;
            println!(
                "{name}: read latency {lat}: one 4 KB READ {:.2} beats/cycle ({c1} cycles), 4 \
                 back to back {:.2}; 64 B READs {:.2} cycles each (64 in {c64} cycles)",
                b1 as f64 / c1 as f64,
                b4 as f64 / c4 as f64,
                c64 as f64 / 64.0
            );
        }
        Ok(())
    }
    one::<onerma_rtl::rsp_read::Model>("rsp_read (128 bit, 2 READs, 2 reads)")?;
    one::<onerma_rtl::rsp_read_default::Model>("rsp_read_default (512 bit, 4 READs, 4 reads)")?;
    one::<onerma_rtl::rsp_read_serial::Model>("rsp_read_serial (512 bit, 1 READ, 1 read)")?;
    Ok(())
}
