//! `onerma_rsp_ctx` (the responder's write contexts) against a reference of the rules of
//! protocol.md §5, §8.2-8.6 and §11 as docs/nic.md "Write contexts" applies them (the golden
//! model's `do_serve`, `rx_wr_data`, `on_wr_data_tag`, `on_ctx_written`, `ctx_settle`).
//!
//! The bench plays every neighbour: the WRITE/REKEY queue (requests of 1 B..4 KB and REKEYs),
//! the window allocator (reservations granted or refused), the sealer (counters in the job's
//! cycle or later, jobs dropped unsent, and each WR_RDREQ's `sent` from the cycle after its
//! counter to tens of cycles later, the contexts' sends in any order), the receive edge (WR_DATA
//! headers aimed at live contexts, with wrong counters, echo fields, chunk geometry, context
//! indices, late frames, copies, frames at contexts whose WR_RDREQ is not sent yet, and their
//! payload beats; some contexts are never sent any data so they expire; `judged` usually `now`,
//! sometimes lagging it, never past a header still offered), the engines (results after a delay,
//! some failing), the window (unwinds finishing after a delay), the host write DMA (answers, some
//! errors) and the key install port (some refused). The reference keeps each context and
//! decides, cycle by cycle, what the block must do: every service and reservation, sealer job
//! (header, key, meta; WR_RDREQs in service order, then WR_CMPLs round-robin), drop counter
//! pulse, opener job, unwind (with its REKEY flag), host write, install and refund. At the end
//! every context is free and every service ended exactly once (a WR_CMPL, a silent expiry, or a
//! dropped WR_RDREQ / WR_CMPL).

use onerma_layouts::{Hdr, MsgType, OpType, Status};
use onerma_rtl_tests::bits::{be_to_words, from_words, reached, to_words, words_to_be};
use onerma_rtl_tests::dma::{CIB, CMASK, NCH};
use onerma_rtl_tests::later::Later;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

const CHUNK: u16 = onerma_layouts::CHUNK_BYTES as u16;
const HOLD_NS: u32 = 3_000;

trait Dut {
    const CTX: usize;
    const CTX_BITS: u32;
    fn fresh() -> Self;
    fn eval(&mut self);
    fn tick(&mut self);
    fn drive(&mut self, d: &Drive);
    fn sample(&self) -> Sample;
}

#[derive(Clone, Debug)]
struct Srv {
    hdr: Hdr,
    kd: u128,
    base: u64,
    gen_: u16,
    key_gen: u8,
}

#[derive(Default)]
struct Drive {
    now: u32,
    judged: u32,
    server_timeout: u32,
    srv: Option<Srv>,
    rsv_ready: bool,
    sj_ready: bool,
    asg: Option<(usize, u64)>,
    sj_drop: Option<usize>,
    sent: Option<usize>,
    hdr: Option<([u8; 64], u128, u32)>,
    pay: Option<bool>,
    opay_ready: bool,
    oj_ready: bool,
    res: Option<(bool, u32)>,
    uw_ready: bool,
    uw_done: Option<(usize, usize)>,
    hw_ready: bool,
    hw_rsp: Option<(u32, bool)>,
    ins_ready: bool,
    ins_done: Option<(usize, bool)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Job {
    hdr: [u8; 64],
    tag: u128,
    key: u128,
    meta: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct SJob {
    hdr: [u8; 64],
    key: u128,
    meta: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Hw {
    addr: u64,
    len: u32,
    region: u16,
    gen_: u16,
    tag: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Ins {
    region: u16,
    gen_: u16,
    key_gen: u8,
    ctx: usize,
}

struct Sample {
    srv_ready: bool,
    rsv: Option<u32>,
    sj: Option<SJob>,
    hdr_ready: bool,
    pay_ready: bool,
    opay_valid: bool,
    oj: Option<Job>,
    res_ready: bool,
    uw: Option<(usize, usize, bool, bool)>, // (ctx, chunk, read, rekey)
    hw: Option<Hw>,
    ins: Option<Ins>,
    refund: Option<u32>,
    drop_stale: bool,
    drop_dup: bool,
    drop_auth: bool,
}

macro_rules! dut {
    ($m:ident, $n:expr, $bits:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const CTX: usize = $n;
            const CTX_BITS: u32 = $bits;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(&mut self, d: &Drive) {
                self.set_now_i(d.now);
                self.set_judged_i(d.judged);
                self.set_server_timeout_i(d.server_timeout);
                self.set_hold_ns_i(HOLD_NS);
                self.set_srv_valid_i(u8::from(d.srv.is_some()));
                if let Some(s) = &d.srv {
                    let b = s.hdr.to_bytes().unwrap_or([0; 64]);
                    self.set_srv_hdr_i(&be_to_words::<16>(&b));
                    self.set_srv_kd_i(&to_words(&s.kd.to_be_bytes()));
                    self.set_srv_base_i(s.base);
                    self.set_srv_gen_i(s.gen_);
                    self.set_srv_key_gen_i(s.key_gen);
                }
                self.set_rsv_ready_i(u8::from(d.rsv_ready));
                self.set_sj_ready_i(u8::from(d.sj_ready));
                self.set_asg_i(u8::from(d.asg.is_some()));
                let (ac, actr) = d.asg.unwrap_or((0, 0));
                self.set_asg_ctx_i(ac as _);
                self.set_asg_counter_i(actr);
                self.set_sj_drop_i(u8::from(d.sj_drop.is_some()));
                self.set_sj_drop_ctx_i(d.sj_drop.unwrap_or(0) as _);
                self.set_sent_i(u8::from(d.sent.is_some()));
                self.set_sent_ctx_i(d.sent.unwrap_or(0) as _);
                self.set_hdr_valid_i(u8::from(d.hdr.is_some()));
                let (hb, ht, hrx) = d.hdr.unwrap_or(([0; 64], 0, 0));
                self.set_hdr_i(&be_to_words::<16>(&hb));
                self.set_hdr_tag_i(&to_words(&ht.to_be_bytes()));
                self.set_hdr_t_rx_i(hrx);
                self.set_pay_valid_i(u8::from(d.pay.is_some()));
                self.set_pay_last_i(u8::from(d.pay.unwrap_or(false)));
                self.set_opay_ready_i(u8::from(d.opay_ready));
                self.set_oj_ready_i(u8::from(d.oj_ready));
                self.set_res_valid_i(u8::from(d.res.is_some()));
                let (rok, rmeta) = d.res.unwrap_or((false, 0));
                self.set_res_ok_i(u8::from(rok));
                self.set_res_meta_i(rmeta as _);
                self.set_uw_ready_i(u8::from(d.uw_ready));
                self.set_uw_done_i(u8::from(d.uw_done.is_some()));
                let (uc, uk) = d.uw_done.unwrap_or((0, 0));
                self.set_uw_done_ctx_i(uc as _);
                self.set_uw_done_chunk_i(uk as _);
                self.set_hw_ready_i(u8::from(d.hw_ready));
                self.set_hw_rsp_valid_i(u8::from(d.hw_rsp.is_some()));
                let (htag, hok) = d.hw_rsp.unwrap_or((0, false));
                self.set_hw_rsp_tag_i(htag as _);
                self.set_hw_rsp_ok_i(u8::from(hok));
                self.set_ins_ready_i(u8::from(d.ins_ready));
                self.set_ins_done_i(u8::from(d.ins_done.is_some()));
                let (ic, iok) = d.ins_done.unwrap_or((0, false));
                self.set_ins_done_ctx_i(ic as _);
                self.set_ins_ok_i(u8::from(iok));
            }
            fn sample(&self) -> Sample {
                let mut sjh = [0u8; 64];
                words_to_be(&self.sj_hdr_o(), &mut sjh);
                let mut ojh = [0u8; 64];
                words_to_be(&self.oj_hdr_o(), &mut ojh);
                Sample {
                    srv_ready: self.srv_ready_o() != 0,
                    rsv: (self.rsv_valid_o() != 0).then(|| u32::from(self.rsv_lines_o())),
                    sj: (self.sj_valid_o() != 0).then(|| SJob {
                        hdr: sjh,
                        key: u128::from_be_bytes(from_words(&self.sj_key_o())),
                        meta: u32::from(self.sj_meta_o()),
                    }),
                    hdr_ready: self.hdr_ready_o() != 0,
                    pay_ready: self.pay_ready_o() != 0,
                    opay_valid: self.opay_valid_o() != 0,
                    oj: (self.oj_valid_o() != 0).then(|| Job {
                        hdr: ojh,
                        tag: u128::from_be_bytes(from_words(&self.oj_tag_o())),
                        key: u128::from_be_bytes(from_words(&self.oj_key_o())),
                        meta: u32::from(self.oj_meta_o()),
                    }),
                    res_ready: self.res_ready_o() != 0,
                    uw: (self.uw_valid_o() != 0).then(|| {
                        (
                            self.uw_ctx_o() as usize,
                            self.uw_chunk_o() as usize,
                            self.uw_read_o() != 0,
                            self.uw_rekey_o() != 0,
                        )
                    }),
                    hw: (self.hw_valid_o() != 0).then(|| Hw {
                        addr: self.hw_addr_o(),
                        len: u32::from(self.hw_len_o()),
                        region: self.hw_region_o(),
                        gen_: self.hw_gen_o(),
                        tag: u32::from(self.hw_tag_o()),
                    }),
                    ins: (self.ins_valid_o() != 0).then(|| Ins {
                        region: self.ins_region_o(),
                        gen_: self.ins_gen_o(),
                        key_gen: self.ins_key_gen_o(),
                        ctx: self.ins_ctx_o() as usize,
                    }),
                    refund: (self.refund_valid_o() != 0).then(|| u32::from(self.refund_lines_o())),
                    drop_stale: self.drop_stale_o() != 0,
                    drop_dup: self.drop_dup_o() != 0,
                    drop_auth: self.drop_auth_o() != 0,
                }
            }
        }
    };
}

dut!(rsp_ctx, 4, 2);
dut!(rsp_ctx_default, 16, 4);

// ---------------------------------------------------------------------------------------------
// The reference.
// ---------------------------------------------------------------------------------------------

/// Chunk states of §8.4 with the window and host steps explicit (docs/nic.md "Write contexts").
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cs {
    Missing,
    Pending,
    Dropping,
    Reading,
    Writing,
    Done,
}

#[derive(Clone, Debug)]
struct Ctx {
    srv: Option<Srv>,
    in_use: bool,
    rqo: bool,  // WR_RDREQ owed to the sealer
    cmo: bool,  // WR_CMPL owed to the sealer
    sjf: bool,  // a job taken by the sealer, its counter or discard not yet reported
    snd: bool,  // WR_RDREQ counter known, not yet sent
    live: bool, // WR_RDREQ sent: WR_DATA can be taken
    late: bool, // the deadline scan saw the deadline pass
    exp: bool,  // ends silently
    err: bool,  // REMOTE_ACCESS_ERROR decided
    endg: bool, // end decided
    fin: bool,  // to be freed
    cs: [Cs; NCH],
    rdctr: u64,
    dl: u32,
    // Bench: never send this context any data (it expires).
    mute: bool,
}

impl Ctx {
    fn new() -> Self {
        Ctx {
            srv: None,
            in_use: false,
            rqo: false,
            cmo: false,
            sjf: false,
            snd: false,
            live: false,
            late: false,
            exp: false,
            err: false,
            endg: false,
            fin: false,
            cs: [Cs::Missing; NCH],
            rdctr: 0,
            dl: 0,
            mute: false,
        }
    }
    fn req(&self) -> Option<&Hdr> {
        self.srv.as_ref().map(|s| &s.hdr)
    }
    fn rekey(&self) -> bool {
        self.req().is_some_and(|h| h.op_type == OpType::Rekey)
    }
    fn n_chunks(&self) -> usize {
        self.req()
            .map_or(0, |h| usize::from(h.length.div_ceil(CHUNK)))
    }
    /// Something of the context in flight (`in_reg`: its job is in the sealer-job register).
    fn inflight(&self, in_reg: bool) -> bool {
        in_reg
            || self.rqo
            || self.sjf
            || self.snd
            || self
                .cs
                .iter()
                .any(|c| matches!(c, Cs::Pending | Cs::Dropping | Cs::Reading | Cs::Writing))
    }
}

fn chunk_len(length: u16, k: u16) -> u16 {
    (length - k * CHUNK).min(CHUNK)
}

/// The first requester at or after `ptr`, wrapping (`onerma_rr_pick`).
fn rr(req: &[bool], ptr: usize) -> Option<usize> {
    let n = req.len();
    (0..n).map(|o| (ptr + o) % n).find(|&i| req[i])
}

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Verdict {
    Stale,
    Dup,
    Accept(usize, usize),
}

/// §8.4 WR_DATA acceptance (docs/nic.md "Write contexts").
fn classify(ctxs: &[Ctx], h: &Hdr, t_rx: u32) -> Verdict {
    let ci = usize::from(h.ctx);
    let Some(c) = ctxs.get(ci) else {
        return Verdict::Stale;
    };
    let Some(r) = c.req() else {
        return Verdict::Stale;
    };
    let k = usize::from(h.chunk_offset / CHUNK);
    let ok = c.in_use
        && c.live
        && !c.endg
        && !c.exp
        && !c.err
        && h.msg_type == MsgType::WrData
        && h.prev_counter == c.rdctr
        && h.src_nic == r.src_nic
        && h.slot == r.slot
        && h.op_type == r.op_type
        && h.pid == r.pid
        && h.region == r.region
        && h.offset == r.offset
        && h.length == r.length
        && h.chunk_offset.is_multiple_of(CHUNK)
        && h.chunk_offset < h.length
        && h.chunk_len == chunk_len(h.length, h.chunk_offset / CHUNK);
    let in_time = (t_rx.wrapping_sub(c.dl) as i32) < 0;
    if !ok || !in_time {
        Verdict::Stale
    } else if c.cs[k] != Cs::Missing {
        Verdict::Dup
    } else {
        Verdict::Accept(ci, k)
    }
}

fn fail(msg: impl Into<String>) -> TestCaseError {
    TestCaseError::fail(msg.into())
}

/// A WR_DATA aimed at a live context, mostly right, sometimes wrong in one way; now and then one
/// aimed at a context whose WR_RDREQ has its counter but is not sent yet (right counter: a peer
/// cannot have it, but the block must not take it either).
fn frame(rng: &mut StdRng, ctxs: &[Ctx], counter: &mut u64) -> Option<(Hdr, u128)> {
    let n = ctxs.len();
    let live: Vec<usize> = (0..n)
        .filter(|&c| ctxs[c].in_use && ctxs[c].live && !ctxs[c].mute)
        .collect();
    let unsent: Vec<usize> = (0..n)
        .filter(|&c| ctxs[c].in_use && ctxs[c].snd && !ctxs[c].mute)
        .collect();
    let ci = if !unsent.is_empty() && rng.random_range(0..8) == 0 {
        unsent[rng.random_range(0..unsent.len())]
    } else if live.is_empty() || rng.random_range(0..30) == 0 {
        rng.random_range(0..n + 2)
    } else {
        live[rng.random_range(0..live.len())]
    };
    let c = ctxs.get(ci)?;
    let r = c.req()?;
    let nch = r.length.div_ceil(CHUNK).max(1);
    let k = rng.random_range(0..nch);
    *counter += 1;
    let mut h = Hdr {
        msg_type: MsgType::WrData,
        counter: *counter,
        prev_counter: c.rdctr,
        dst_nic: 0x0b00_0002,
        ctx: ci as u16,
        chunk_offset: k * CHUNK,
        chunk_len: chunk_len(r.length, k),
        hold_ns: 0,
        status: Status::Ok,
        ..r.clone()
    };
    match rng.random_range(0..40) {
        0 => h.prev_counter ^= 1,
        1 => h.pid ^= 1,
        2 => h.src_nic ^= 4,
        3 => h.offset ^= 1,
        4 => h.length = h.length.wrapping_add(1),
        5 if h.chunk_len > 1 => h.chunk_len -= 1,
        6 => h.slot ^= 1,
        7 => h.region ^= 1,
        8 => {
            h.op_type = if h.op_type == OpType::Rekey {
                OpType::Write
            } else {
                OpType::Rekey
            }
        }
        9 => h.msg_type = MsgType::RdResp,
        10 => h.chunk_offset += 4,
        11 => h.ctx = (ci as u16) ^ 1,
        _ => {}
    }
    Some((h, rng.random()))
}

#[derive(Default, Debug)]
struct Stats {
    served: usize,
    ended: usize,
    cmpl_ok: [usize; 2],  // [WRITE, REKEY]
    cmpl_err: [usize; 2], // [WRITE, REKEY]
    expired: [usize; 2],  // silent ends after the deadline [WRITE, REKEY]
    dropped: usize,       // ends with a dropped WR_RDREQ / WR_CMPL
    hw: usize,
    ins: usize,
    late: usize,
    sent: usize,   // WR_RDREQs sent
    unsent: usize, // WR_DATA headers at a context between its WR_RDREQ's counter and its sending
    saved: usize, // WR_DATA accepted (arrived in time) after `now`, not `judged`, passed the deadline
    lagged: usize, // scan visits of a live context late in `now` but not yet in `judged`
}

#[allow(clippy::too_many_lines)]
fn run<D: Dut>(seed: u64, busy: u32, cycles: u64) -> Result<Stats, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = D::fresh();
    let n = D::CTX;
    let cb = D::CTX_BITS;
    let server_timeout: u32 = rng.random_range(150..600);
    let mut ctxs: Vec<Ctx> = (0..n).map(|_| Ctx::new()).collect();
    let mut st = Stats::default();
    let mut now: u32 = rng.random();
    let mut sealer_ctr: u64 = 1 << 40;
    let mut peer_ctr: u64 = 1 << 20;
    // Bench state.
    let mut srv_cur: Option<Srv> = None;
    let mut hdr_cur: Option<(Hdr, u128, u32)> = None;
    let mut pay_beats: VecDeque<bool> = VecDeque::new();
    let mut pay_route: VecDeque<bool> = VecDeque::new();
    let mut unjob = false;
    let mut jobs: VecDeque<Job> = VecDeque::new();
    let mut results: Later<(bool, u32)> = Later::new();
    let mut uwq: VecDeque<(usize, usize, bool)> = VecDeque::new();
    let mut uw_done: Later<(usize, usize)> = Later::new();
    let mut hwq: VecDeque<(usize, usize, bool)> = VecDeque::new(); // (ctx, chunk, rekey)
    let mut hw_rsp: Later<(u32, bool)> = Later::new();
    let mut ins_done: Later<(usize, bool)> = Later::new();
    // Sealer: jobs taken, their counter or discard owed (ctx, drop?, WR_CMPL?).
    let mut owed: Later<(usize, bool, bool)> = Later::new();
    // Sealer: WR_RDREQs with their counter, their last beat due to leave (due cycle, ctx); sent
    // in any order once due.
    let mut sends: Vec<(u64, usize)> = Vec::new();
    // The receive edge's `judged` (monotonic, at most `now`, never past a header still offered)
    // and how far it lags `now` when nothing holds it.
    let mut judged: u32 = now;
    let mut lag_target: u32 = 0;
    // The block's sealer-job register, its queue of served contexts owing a WR_RDREQ (service
    // order), the round-robin pointers.
    let mut sj_reg: Option<(usize, bool, u32)> = None; // (ctx, WR_CMPL?, hold_ns)
    let mut rdq: VecDeque<usize> = VecDeque::new();
    let mut sj_ptr = 0usize;
    let mut fr_ptr = 0usize;
    let mut ready = [false; 8];

    for cycle in 0..cycles {
        now = now.wrapping_add(1);
        // A WR_RDREQ's last beat leaves a while after its counter: in the next cycle, a few
        // cycles later or tens of cycles later.
        let send_delay = |rng: &mut StdRng| match rng.random_range(0..4) {
            0 => rng.random_range(0..2),
            1 => rng.random_range(2..8),
            _ => rng.random_range(8..60),
        };
        let draining = cycle + 4_000 > cycles;
        let pct = |rng: &mut StdRng, p: u32| rng.random_range(0..100) < p;
        for r in &mut ready {
            *r = pct(&mut rng, busy);
        }
        let mut d = Drive {
            now,
            server_timeout,
            rsv_ready: pct(&mut rng, 85),
            sj_ready: ready[0],
            opay_ready: ready[1],
            oj_ready: ready[2],
            uw_ready: ready[3],
            hw_ready: ready[4],
            ins_ready: ready[5],
            ..Drive::default()
        };
        // --- the WRITE/REKEY queue head (held until taken) ---
        if srv_cur.is_none() && !draining && pct(&mut rng, 25) {
            let rekey = rng.random_range(0..4) == 0;
            let length = if rekey {
                16
            } else if rng.random_range(0..3) == 0 {
                rng.random_range(1..=4096)
            } else {
                rng.random_range(1..=300)
            };
            peer_ctr += 1;
            srv_cur = Some(Srv {
                hdr: Hdr {
                    msg_type: if rekey {
                        MsgType::RekeyReq
                    } else {
                        MsgType::WrReq
                    },
                    op_type: if rekey { OpType::Rekey } else { OpType::Write },
                    status: Status::Ok,
                    src_nic: rng.random_range(1..4),
                    dst_nic: 0x0b00_0002,
                    counter: peer_ctr,
                    prev_counter: 0,
                    pid: rng.random_range(0..3),
                    region: rng.random_range(0..4),
                    slot: rng.random_range(0..8),
                    offset: if rekey { 0 } else { rng.random_range(0..5000) },
                    length,
                    chunk_offset: 0,
                    chunk_len: 0,
                    ctx: 0,
                    hold_ns: 0,
                },
                kd: rng.random(),
                base: rng.random::<u64>() >> 4,
                gen_: rng.random(),
                key_gen: rng.random(),
            });
        }
        d.srv.clone_from(&srv_cur);
        // --- sealer: WR_RDREQs sent (any due one), counters and discards owed ---
        let due: Vec<usize> = (0..sends.len()).filter(|&i| sends[i].0 <= cycle).collect();
        if !due.is_empty() && pct(&mut rng, 80) {
            let (_, c) = sends.swap_remove(due[rng.random_range(0..due.len())]);
            d.sent = Some(c);
        }
        if let Some((c, drop, cmpl)) = owed.peek(cycle) {
            if drop {
                d.sj_drop = Some(c);
            } else {
                sealer_ctr += 1;
                d.asg = Some((c, sealer_ctr));
                if !cmpl {
                    sends.push((cycle + 1 + send_delay(&mut rng), c));
                }
            }
            owed.pop();
        }
        // --- receive edge ---
        // Frames whose last beat came before `judged` were all offered: a new one is not older.
        let judged_lag = now.wrapping_sub(judged);
        if hdr_cur.is_none()
            && !draining
            && pct(&mut rng, 50)
            && let Some((h, tag)) = frame(&mut rng, &ctxs, &mut peer_ctr)
        {
            let lag = if pct(&mut rng, 20) {
                rng.random_range(0..=judged_lag)
            } else {
                rng.random_range(0..4).min(judged_lag)
            };
            let t_rx = now.wrapping_sub(lag);
            if h.chunk_len != 0 {
                let beats = rng.random_range(1..4);
                for b in 0..beats {
                    pay_beats.push_back(b + 1 == beats);
                }
            }
            hdr_cur = Some((h, tag, t_rx));
        }
        // `judged`: `now` less the lag (usually none), held at an offered header's `t_rx`.
        if rng.random_range(0..400) == 0 {
            lag_target = match rng.random_range(0..5) {
                0..=2 => 0,
                3 => rng.random_range(1..16),
                _ => rng.random_range(16..400),
            };
        }
        let mut lag = lag_target;
        if let Some((_, _, t_rx)) = &hdr_cur {
            lag = lag.max(now.wrapping_sub(*t_rx));
        }
        judged = now.wrapping_sub(lag.min(judged_lag));
        d.judged = judged;
        if let Some((h, tag, t_rx)) = &hdr_cur {
            let b = h.to_bytes().map_err(|e| fail(format!("hdr: {e}")))?;
            d.hdr = Some((b, *tag, *t_rx));
        }
        if !pay_beats.is_empty() && pct(&mut rng, 80) {
            d.pay = pay_beats.front().copied();
        }
        // --- engines, window, host writes, installs ---
        if let Some(r) = results.peek(cycle)
            && pct(&mut rng, 80)
        {
            d.res = Some(r);
        }
        if let Some(u) = uw_done.peek(cycle) {
            d.uw_done = Some(u);
        }
        // The window reads a chunk out (its unwind done) before its answer can come.
        if let Some(h) = hw_rsp.peek(cycle) {
            let key = ((h.0 >> CIB) as usize, (h.0 & CMASK) as usize);
            if !uw_done.0.iter().any(|(_, v)| *v == key) {
                d.hw_rsp = Some(h);
            }
        }
        if let Some(i) = ins_done.peek(cycle)
            && !uw_done.0.iter().any(|(_, v)| *v == (i.0, 0))
        {
            d.ins_done = Some(i);
        }

        dut.drive(&d);
        dut.eval();
        let mut out = dut.sample();
        // The sealer's counter in the cycle it takes a job (as onerma_seal does), or later.
        let mut sj_taken: Option<(usize, bool)> = None;
        if let Some((c, cmpl, _)) = sj_reg
            && d.sj_ready
        {
            sj_taken = Some((c, cmpl));
            let drop = rng.random_range(0..25) == 0;
            if d.asg.is_none() && d.sj_drop.is_none() && !drop && pct(&mut rng, 70) {
                sealer_ctr += 1;
                d.asg = Some((c, sealer_ctr));
                if !cmpl {
                    sends.push((cycle + 1 + send_delay(&mut rng), c));
                }
                dut.drive(&d);
                dut.eval();
                out = dut.sample();
            } else {
                owed.push(cycle + rng.random_range(0..6), (c, drop, cmpl));
            }
        }

        // ---------------- checks against the reference (pre-cycle state) ----------------
        let pre = ctxs.clone();
        // Service.
        let free = (0..n).find(|&c| !pre[c].in_use);
        prop_assert_eq!(
            out.rsv,
            d.srv
                .as_ref()
                .filter(|_| free.is_some())
                .map(|s| u32::from(s.hdr.length.div_ceil(64))),
            "reservation"
        );
        prop_assert_eq!(out.srv_ready, free.is_some() && d.rsv_ready, "srv_ready");
        let served = if d.srv.is_some() && out.srv_ready {
            free
        } else {
            None
        };
        // Sealer job register.
        match (&out.sj, sj_reg) {
            (None, None) => {}
            (Some(j), Some((c, cmpl, hold))) => {
                let x = &pre[c];
                let r = x
                    .req()
                    .ok_or_else(|| fail("sealer job of an empty context"))?;
                let mut h = r.clone();
                h.dst_nic = r.src_nic;
                h.ctx = c as u16;
                h.chunk_offset = 0;
                h.chunk_len = 0;
                if cmpl {
                    h.msg_type = MsgType::WrCmpl;
                    h.status = if x.err {
                        Status::RemoteAccessError
                    } else {
                        Status::Ok
                    };
                    h.prev_counter = x.rdctr;
                    h.hold_ns = 0;
                } else {
                    h.msg_type = MsgType::WrRdreq;
                    h.status = Status::Ok;
                    h.prev_counter = r.counter;
                    h.hold_ns = hold;
                }
                let want = SJob {
                    hdr: h.to_bytes().map_err(|e| fail(format!("{e}")))?,
                    key: x.srv.as_ref().map_or(0, |s| s.kd),
                    meta: (u32::from(cmpl) << cb) | c as u32,
                };
                prop_assert_eq!(j, &want, "sealer job");
            }
            (a, b) => return Err(fail(format!("sealer job {a:?}, expected {b:?}"))),
        }
        // The register loads the oldest service's WR_RDREQ, else a WR_CMPL round-robin.
        let sj_reg_pre = sj_reg;
        let cmo: Vec<bool> = pre.iter().map(|x| x.cmo).collect();
        let sj_load: Option<(usize, bool)> = if sj_reg.is_some() && !d.sj_ready {
            None
        } else if let Some(&c) = rdq.front() {
            prop_assert!(
                pre[c].rqo,
                "reference: ctx {} queued without a WR_RDREQ owed",
                c
            );
            Some((c, false))
        } else {
            rr(&cmo, sj_ptr).map(|c| (c, true))
        };
        if let Some((c, cmpl)) = sj_taken {
            let x = &pre[c];
            if cmpl {
                let k = usize::from(x.rekey());
                if x.err {
                    st.cmpl_err[k] += 1;
                } else {
                    st.cmpl_ok[k] += 1;
                }
            }
        }
        // Header.
        let mut stale = false;
        let mut dup = false;
        let mut accepted: Option<(usize, usize)> = None;
        let mut new_route: Option<bool> = None;
        if let Some((h, tag, t_rx)) = hdr_cur.clone() {
            let route_room = pay_route.len() < 2;
            let job_room = jobs.is_empty() || d.oj_ready;
            prop_assert_eq!(out.hdr_ready, route_room && job_room, "hdr_ready");
            if out.hdr_ready {
                let v = classify(&pre, &h, t_rx);
                if let Some(c) = pre.get(usize::from(h.ctx))
                    && c.in_use
                    && c.snd
                {
                    prop_assert_eq!(
                        v,
                        Verdict::Stale,
                        "reference: WR_DATA before its WR_RDREQ sent"
                    );
                    st.unsent += 1;
                }
                match v {
                    Verdict::Stale => stale = true,
                    Verdict::Dup => dup = true,
                    Verdict::Accept(c, k) => {
                        jobs.push_back(Job {
                            hdr: h.to_bytes().map_err(|e| fail(format!("{e}")))?,
                            tag,
                            key: pre[c].srv.as_ref().map_or(0, |s| s.kd),
                            meta: ((k as u32) << cb) | c as u32,
                        });
                        accepted = Some((c, k));
                        if reached(now, pre[c].dl) {
                            st.saved += 1;
                        }
                    }
                }
                if let Some(c) = pre.get(usize::from(h.ctx))
                    && c.live
                    && reached(t_rx, c.dl)
                {
                    st.late += 1;
                }
                if h.chunk_len != 0 {
                    new_route = Some(matches!(v, Verdict::Accept(..)));
                }
                hdr_cur = None;
            }
        }
        // Payload routing (as the op table's).
        if let Some(last) = d.pay {
            match pay_route.front().copied() {
                None => {
                    prop_assert!(!out.pay_ready, "payload taken before its header");
                    prop_assert!(!out.opay_valid);
                }
                Some(pass) => {
                    let wait = pass && unjob && pay_route.len() == 1;
                    prop_assert_eq!(out.opay_valid, pass && !wait, "payload route");
                    prop_assert_eq!(
                        out.pay_ready,
                        !pass || (d.opay_ready && !wait),
                        "payload ready"
                    );
                    if out.pay_ready {
                        pay_beats.pop_front();
                        if last {
                            pay_route.pop_front();
                        }
                    }
                }
            }
        } else {
            prop_assert!(!out.opay_valid);
        }
        if let Some(r) = new_route {
            pay_route.push_back(r);
        }
        if accepted.is_some() {
            unjob = new_route == Some(true);
        } else if d.oj_ready {
            unjob = false;
        }
        // Opener jobs.
        if let Some(j) = &out.oj {
            let want = jobs
                .front()
                .ok_or_else(|| fail("opener job without an accepted header"))?;
            prop_assert_eq!(j, want, "opener job");
            if d.oj_ready {
                let ok = rng.random_range(0..100) < 85;
                results.push(cycle + rng.random_range(1..12), (ok, j.meta));
                jobs.pop_front();
            }
        } else {
            prop_assert!(
                jobs.len() <= usize::from(accepted.is_some()),
                "opener job missing"
            );
        }
        // Tag results.
        prop_assert_eq!(out.res_ready, uwq.len() < 4, "res_ready");
        let mut res_ev: Option<(bool, usize, usize)> = None;
        if let Some((ok, meta)) = d.res
            && out.res_ready
        {
            results.pop();
            let c = (meta & ((1 << cb) - 1)) as usize;
            let k = ((meta >> cb) & CMASK) as usize;
            res_ev = Some((ok, c, k));
        }
        let auth = res_ev.is_some_and(|(ok, c, _)| !ok && !pre[c].err);
        prop_assert_eq!(out.drop_stale, stale, "drop_stale");
        prop_assert_eq!(out.drop_dup, dup, "drop_dup");
        prop_assert_eq!(out.drop_auth, auth, "drop_auth");
        // Unwinds, host writes, installs.
        let uw_want = uwq
            .front()
            .copied()
            .filter(|u| !u.2 || hwq.len() < 4)
            .map(|(c, k, read)| (c, k, read, pre[c].rekey()));
        prop_assert_eq!(out.uw, uw_want, "unwind");
        let mut hw_push: Option<(usize, usize, bool)> = None;
        if let Some(u) = out.uw
            && d.uw_ready
        {
            uwq.pop_front();
            uw_done.push(cycle + rng.random_range(1..8), (u.0, u.1));
            if u.2 {
                hw_push = Some((u.0, u.1, pre[u.0].rekey()));
            }
        }
        let head = hwq.front().copied();
        let hw_want = head.filter(|h| !h.2).and_then(|(c, k, _)| {
            pre[c].srv.as_ref().map(|s| Hw {
                addr: s
                    .base
                    .wrapping_add(s.hdr.offset)
                    .wrapping_add(k as u64 * u64::from(CHUNK)),
                len: u32::from(chunk_len(s.hdr.length, k as u16)),
                region: s.hdr.region,
                gen_: s.gen_,
                tag: ((c as u32) << CIB) | k as u32,
            })
        });
        prop_assert_eq!(&out.hw, &hw_want, "host write");
        let ins_want = head.filter(|h| h.2).map(|(c, _, _)| {
            let s = pre[c].srv.as_ref();
            Ins {
                region: s.map_or(0, |s| s.hdr.region),
                gen_: s.map_or(0, |s| s.gen_),
                key_gen: s.map_or(0, |s| s.key_gen),
                ctx: c,
            }
        });
        prop_assert_eq!(&out.ins, &ins_want, "install");
        if let Some((c, k, rekey)) = head {
            if !rekey && d.hw_ready {
                let ok = rng.random_range(0..25) != 0;
                hw_rsp.push(
                    cycle + rng.random_range(1..12),
                    (((c as u32) << CIB) | k as u32, ok),
                );
                hwq.pop_front();
                st.hw += 1;
            } else if rekey && d.ins_ready {
                let ok = rng.random_range(0..5) != 0;
                ins_done.push(cycle + rng.random_range(1..6), (c, ok));
                hwq.pop_front();
                st.ins += 1;
            }
        }
        if let Some(h) = hw_push {
            hwq.push_back(h);
        }
        // Frees and refunds.
        let fin: Vec<bool> = pre.iter().map(|x| x.fin).collect();
        let fr = rr(&fin, fr_ptr);
        prop_assert_eq!(
            out.refund,
            fr.map(|c| u32::from(pre[c].req().map_or(0, |h| h.length.div_ceil(64)))),
            "refund"
        );

        // ---------------- apply the cycle's events to the reference ----------------
        if let Some((c, _, _)) = sj_reg
            && d.sj_ready
        {
            ctxs[c].sjf = true;
        }
        if let Some((p, cmpl)) = sj_load {
            if cmpl {
                ctxs[p].cmo = false;
                sj_ptr = (p + 1) % n;
            } else {
                ctxs[p].rqo = false;
                rdq.pop_front();
            }
            sj_reg = Some((p, cmpl, HOLD_NS));
        } else if d.sj_ready {
            sj_reg = None;
        }
        // The WR_RDREQ's counter: its rdreq_counter, not yet sent (a WR_CMPL's: free).
        if let Some((c, ctr)) = d.asg {
            let x = &mut ctxs[c];
            prop_assert!(x.sjf, "bench: asg for ctx {} without a job", c);
            x.sjf = false;
            if pre[c].endg {
                x.fin = true;
            } else {
                x.snd = true;
                x.rdctr = ctr;
            }
        }
        // Its last beat left: live, the deadline from now.
        if let Some(c) = d.sent {
            let x = &mut ctxs[c];
            prop_assert!(pre[c].snd, "bench: sent for ctx {} without a counter", c);
            x.snd = false;
            x.live = true;
            x.dl = now.wrapping_add(server_timeout);
            st.sent += 1;
        }
        if let Some(c) = d.sj_drop {
            let x = &mut ctxs[c];
            prop_assert!(x.sjf, "bench: discard for ctx {} without a job", c);
            x.sjf = false;
            st.dropped += 1;
            if pre[c].endg {
                x.fin = true;
                // A dropped WR_CMPL: the context ends without its message (counted as dropped).
                let k = usize::from(pre[c].rekey());
                if pre[c].err {
                    st.cmpl_err[k] -= 1;
                } else {
                    st.cmpl_ok[k] -= 1;
                }
            } else {
                x.exp = true;
            }
        }
        if let Some((c, k)) = accepted {
            ctxs[c].cs[k] = Cs::Pending;
        }
        if let Some((ok, c, k)) = res_ev {
            prop_assert_eq!(pre[c].cs[k], Cs::Pending, "result of a chunk not pending");
            let read = ok && !pre[c].err;
            ctxs[c].cs[k] = if read { Cs::Reading } else { Cs::Dropping };
            uwq.push_back((c, k, read));
        }
        if let Some((c, k)) = d.uw_done {
            uw_done.pop();
            ctxs[c].cs[k] = match pre[c].cs[k] {
                Cs::Dropping => Cs::Missing,
                Cs::Reading => Cs::Writing,
                other => return Err(fail(format!("unwind done of a chunk in {other:?}"))),
            };
        }
        if let Some((tag, ok)) = d.hw_rsp {
            hw_rsp.pop();
            let (c, k) = ((tag >> CIB) as usize, (tag & CMASK) as usize);
            prop_assert_eq!(
                ctxs[c].cs[k],
                Cs::Writing,
                "host write answer of a chunk not written"
            );
            ctxs[c].cs[k] = if ok { Cs::Done } else { Cs::Missing };
            if !ok {
                ctxs[c].err = true;
            }
        }
        if let Some((c, ok)) = d.ins_done {
            ins_done.pop();
            prop_assert_eq!(
                ctxs[c].cs[0],
                Cs::Writing,
                "install answer of a chunk not read"
            );
            ctxs[c].cs[0] = if ok { Cs::Done } else { Cs::Missing };
            if !ok {
                ctxs[c].err = true;
            }
        }
        // The deadline scan visits context (cycle mod n), against `judged`.
        let sc = (cycle % n as u64) as usize;
        if pre[sc].in_use && pre[sc].live {
            if reached(d.judged, pre[sc].dl) {
                ctxs[sc].late = true;
            } else if reached(now, pre[sc].dl) {
                st.lagged += 1;
            }
        }
        for c in 0..n {
            let p = &pre[c];
            let nch = p.n_chunks();
            let x = &mut ctxs[c];
            let missing = (0..nch).any(|k| x.cs[k] == Cs::Missing);
            if p.in_use && !p.endg && x.late && missing && !x.err {
                x.exp = true;
            }
            let all_done = (0..nch).all(|k| p.cs[k] == Cs::Done);
            let in_reg = sj_reg_pre.is_some_and(|(r, _, _)| r == c);
            if p.in_use && !p.endg && !p.inflight(in_reg) && (p.exp || p.err || all_done) {
                x.endg = true;
                if p.exp {
                    x.fin = true;
                    if p.live {
                        st.expired[usize::from(p.rekey())] += 1;
                    }
                } else {
                    x.cmo = true;
                }
            }
        }
        if let Some(c) = fr {
            ctxs[c].in_use = false;
            ctxs[c].fin = false;
            fr_ptr = (c + 1) % n;
            st.ended += 1;
        }
        // Service last: the free context's new state whatever else the cycle did.
        if let Some(c) = served {
            let s = d
                .srv
                .clone()
                .ok_or_else(|| fail("service without a head"))?;
            let x = &mut ctxs[c];
            *x = Ctx::new();
            x.in_use = true;
            x.rqo = true;
            x.mute = rng.random_range(0..6) == 0;
            x.srv = Some(s);
            rdq.push_back(c);
            srv_cur = None;
            st.served += 1;
        }

        dut.tick();
    }
    prop_assert!(
        ctxs.iter().all(|x| !x.in_use),
        "contexts in use at the end: {:?}",
        ctxs.iter().map(|x| x.in_use).collect::<Vec<_>>()
    );
    prop_assert!(srv_cur.is_none() && results.is_empty() && uwq.is_empty() && hwq.is_empty());
    prop_assert!(sends.is_empty() && rdq.is_empty() && owed.is_empty());
    prop_assert_eq!(st.ended, st.served, "one end per service");
    Ok(st)
}

fn busy() -> impl Strategy<Value = u32> {
    prop_oneof![Just(100u32), 40u32..100]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn small(seed in any::<u64>(), b in busy()) {
        run::<onerma_rtl::rsp_ctx::Model>(seed, b, 20_000)?;
    }

    #[test]
    fn default_config(seed in any::<u64>(), b in busy()) {
        run::<onerma_rtl::rsp_ctx_default::Model>(seed, b, 20_000)?;
    }
}

/// A fixed-seed run per top in which WR_CMPL OK, WR_CMPL REMOTE_ACCESS_ERROR and a silent
/// expiry all occur, for WRITE and for REKEY (reported with --nocapture).
#[test]
fn every_end_for_write_and_rekey() -> Result<(), TestCaseError> {
    for (name, st) in [
        (
            "rsp_ctx",
            run::<onerma_rtl::rsp_ctx::Model>(11, 80, 60_000)?,
        ),
        (
            "rsp_ctx_default",
            run::<onerma_rtl::rsp_ctx_default::Model>(12, 80, 60_000)?,
        ),
    ] {
        println!("{name}: {st:?}");
        for k in 0..2 {
            prop_assert!(
                st.cmpl_ok[k] > 0 && st.cmpl_err[k] > 0 && st.expired[k] > 0,
                "{}: coverage {:?}",
                name,
                st
            );
        }
        prop_assert!(st.dropped > 0 && st.late > 0 && st.hw > 0 && st.ins > 0);
        prop_assert!(
            st.unsent > 0 && st.saved > 0 && st.lagged > 0,
            "{}: sent / judged coverage {:?}",
            name,
            st
        );
    }
    Ok(())
}
