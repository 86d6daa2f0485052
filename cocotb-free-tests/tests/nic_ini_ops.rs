//! `onerma_ini_ops` (the initiator op table) against a reference of the op rules of protocol.md
//! §2.3, §6.1-6.2, §7.4-7.5, §8.3, §8.5 and §11 as docs/nic.md "Op table" applies them.
//!
//! The bench plays every neighbour: `onerma_submit` (accepts, some refused at submission),
//! dispatch (expiries, arms), the sealer (request counters, dropped requests), the receive edge
//! (headers of every response type aimed at live ops, with wrong counters, echo fields, chunk
//! sizes, late frames, large holds, copies, and their payload beats), the engines (results after
//! a delay, some failing), the window (unwinds finishing after a delay), the host write DMA
//! (answers, some errors), the op timer (requests for every slot whose deadline was reached),
//! the WR_DATA sender (done, some failures) and the completion writer. The reference keeps each
//! slot's op and decides, cycle by cycle, what the block must do: every drop counter pulse, every
//! opener job (header, tag, key, meta), every unwind and host write, every timer write (the
//! WRITE re-arm against the model's `rearm_cycles`), every WR_DATA start, every record (status,
//! fields) and refund, the free pulses and the `live_o` bits. At the end every accepted command
//! has exactly one record and every slot is free.

use onerma_layouts::{Cmd, Hdr, MsgType, OpType, Status};
use onerma_model::timing::rearm_cycles;
use onerma_rtl_tests::bits::{be_to_words, from_words, to_words, words_to_be};
use onerma_rtl_tests::dma::{CIB, CMASK, NCH};
use onerma_rtl_tests::later::Later;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

const CHUNK: u16 = onerma_layouts::CHUNK_BYTES as u16;
const MAX_HOLD_NS: u32 = 4_000;
const CLK_PS: u32 = 4_000;

trait Dut {
    const SLOTS: usize;
    const SLOT_BITS: u32;
    fn fresh() -> Self;
    fn eval(&mut self);
    fn tick(&mut self);
    fn drive(&mut self, d: &Drive);
    fn sample(&self) -> Sample;
}

#[derive(Clone, Debug)]
struct Accept {
    slot: usize,
    seq: u16,
    status: Status,
    cmd: Cmd,
    pid: u32,
    t_sub: u32,
    cq_addr: u64,
    cq_gen: u16,
    local_addr: u64,
    local_gen: u16,
}

#[derive(Default)]
struct Drive {
    op_timeout: u32,
    acc: Option<Accept>,
    exp: Option<usize>,
    arm: Option<(usize, u32)>,
    asg: Option<(usize, u64)>,
    req_drop: Option<usize>,
    hdr: Option<([u8; 64], u128, u32)>,
    pay: Option<bool>,
    opay_ready: bool,
    job_ready: bool,
    res: Option<(bool, u32)>,
    uw_ready: bool,
    uw_done: Option<(usize, usize)>,
    hw_ready: bool,
    hw_rsp: Option<(u32, bool)>,
    to: Option<usize>,
    wds_ready: bool,
    wd_fail: Option<usize>,
    wd_done: Option<usize>,
    rec_ready: bool,
    recd: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Job {
    hdr: [u8; 64],
    tag: u128,
    key: u128,
    meta: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Rec {
    slot: usize,
    status: u8,
    op_type: u8,
    seq: u16,
    t_sub: u32,
    t_disp: Option<u32>,
    cq_addr: u64,
    cq_region: u16,
    cq_gen: u16,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Hw {
    addr: u64,
    len: u32,
    region: u16,
    gen_: u16,
    tag: u32,
}

struct Sample {
    hdr_ready: bool,
    pay_ready: bool,
    opay_valid: bool,
    job: Option<Job>,
    res_ready: bool,
    uw: Option<(usize, usize, bool)>,
    hw: Option<Hw>,
    tmr: Option<(usize, u32)>,
    wds: Option<(usize, u64, u16)>,
    live: u64,
    rec: Option<Rec>,
    free: Option<usize>,
    refund: Option<u32>,
    drop_stale: u8,
    drop_dup: bool,
    drop_auth: bool,
    drop_hold: bool,
}

macro_rules! dut {
    ($m:ident, $slots:expr, $bits:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const SLOTS: usize = $slots;
            const SLOT_BITS: u32 = $bits;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(&mut self, d: &Drive) {
                self.set_op_timeout_i(d.op_timeout);
                self.set_max_hold_ns_i(MAX_HOLD_NS);
                self.set_clk_period_ps_i(CLK_PS);
                self.set_acc_valid_i(u8::from(d.acc.is_some()));
                if let Some(a) = &d.acc {
                    let bytes = a.cmd.to_bytes().unwrap_or([0; 64]);
                    self.set_acc_slot_i(a.slot as _);
                    self.set_acc_seq_i(a.seq);
                    self.set_acc_status_i(a.status as u8);
                    self.set_acc_cmd_i(&be_to_words::<16>(&bytes));
                    self.set_acc_pid_i(a.pid);
                    self.set_acc_t_sub_i(a.t_sub);
                    self.set_acc_cq_addr_i(a.cq_addr);
                    self.set_acc_cq_gen_i(a.cq_gen);
                    self.set_acc_local_addr_i(a.local_addr);
                    self.set_acc_local_gen_i(a.local_gen);
                }
                self.set_exp_valid_i(u8::from(d.exp.is_some()));
                self.set_exp_slot_i(d.exp.unwrap_or(0) as _);
                self.set_arm_i(u8::from(d.arm.is_some()));
                let (aslot, adl) = d.arm.unwrap_or((0, 0));
                self.set_arm_slot_i(aslot as _);
                self.set_arm_deadline_i(adl);
                self.set_asg_i(u8::from(d.asg.is_some()));
                let (gslot, gctr) = d.asg.unwrap_or((0, 0));
                self.set_asg_slot_i(gslot as _);
                self.set_asg_counter_i(gctr);
                self.set_req_drop_i(u8::from(d.req_drop.is_some()));
                self.set_req_drop_slot_i(d.req_drop.unwrap_or(0) as _);
                self.set_hdr_valid_i(u8::from(d.hdr.is_some()));
                let (hb, ht, hrx) = d.hdr.unwrap_or(([0; 64], 0, 0));
                self.set_hdr_i(&be_to_words::<16>(&hb));
                self.set_hdr_tag_i(&to_words(&ht.to_be_bytes()));
                self.set_hdr_t_rx_i(hrx);
                self.set_pay_valid_i(u8::from(d.pay.is_some()));
                self.set_pay_last_i(u8::from(d.pay.unwrap_or(false)));
                self.set_opay_ready_i(u8::from(d.opay_ready));
                self.set_job_ready_i(u8::from(d.job_ready));
                self.set_res_valid_i(u8::from(d.res.is_some()));
                let (rok, rmeta) = d.res.unwrap_or((false, 0));
                self.set_res_ok_i(u8::from(rok));
                self.set_res_meta_i(rmeta as _);
                self.set_uw_ready_i(u8::from(d.uw_ready));
                self.set_uw_done_i(u8::from(d.uw_done.is_some()));
                let (us, uc) = d.uw_done.unwrap_or((0, 0));
                self.set_uw_done_slot_i(us as _);
                self.set_uw_done_chunk_i(uc as _);
                self.set_hw_ready_i(u8::from(d.hw_ready));
                self.set_hw_rsp_valid_i(u8::from(d.hw_rsp.is_some()));
                let (htag, hok) = d.hw_rsp.unwrap_or((0, false));
                self.set_hw_rsp_tag_i(htag as _);
                self.set_hw_rsp_ok_i(u8::from(hok));
                self.set_to_valid_i(u8::from(d.to.is_some()));
                self.set_to_slot_i(d.to.unwrap_or(0) as _);
                self.set_wds_ready_i(u8::from(d.wds_ready));
                self.set_wd_fail_i(u8::from(d.wd_fail.is_some()));
                self.set_wd_fail_slot_i(d.wd_fail.unwrap_or(0) as _);
                self.set_wd_done_i(u8::from(d.wd_done.is_some()));
                self.set_wd_done_slot_i(d.wd_done.unwrap_or(0) as _);
                self.set_rec_ready_i(u8::from(d.rec_ready));
                self.set_recd_valid_i(u8::from(d.recd.is_some()));
                self.set_recd_slot_i(d.recd.unwrap_or(0) as _);
            }
            fn sample(&self) -> Sample {
                let mut hdr = [0u8; 64];
                words_to_be(&self.job_hdr_o(), &mut hdr);
                Sample {
                    hdr_ready: self.hdr_ready_o() != 0,
                    pay_ready: self.pay_ready_o() != 0,
                    opay_valid: self.opay_valid_o() != 0,
                    job: (self.job_valid_o() != 0).then(|| Job {
                        hdr,
                        tag: u128::from_be_bytes(from_words(&self.job_tag_o())),
                        key: u128::from_be_bytes(from_words(&self.job_key_o())),
                        meta: u32::from(self.job_meta_o()),
                    }),
                    res_ready: self.res_ready_o() != 0,
                    uw: (self.uw_valid_o() != 0).then(|| {
                        (
                            self.uw_slot_o() as usize,
                            self.uw_chunk_o() as usize,
                            self.uw_read_o() != 0,
                        )
                    }),
                    hw: (self.hw_valid_o() != 0).then(|| Hw {
                        addr: self.hw_addr_o(),
                        len: u32::from(self.hw_len_o()),
                        region: self.hw_region_o(),
                        gen_: self.hw_gen_o(),
                        tag: u32::from(self.hw_tag_o()),
                    }),
                    tmr: (self.tmr_arm_o() != 0)
                        .then(|| (self.tmr_slot_o() as usize, self.tmr_deadline_o())),
                    wds: (self.wds_valid_o() != 0).then(|| {
                        (
                            self.wds_slot_o() as usize,
                            self.wds_counter_o(),
                            self.wds_ctx_o(),
                        )
                    }),
                    live: u64::from(self.live_o()),
                    rec: (self.rec_valid_o() != 0).then(|| Rec {
                        slot: self.rec_slot_o() as usize,
                        status: self.rec_status_o(),
                        op_type: self.rec_op_type_o(),
                        seq: self.rec_seq_o(),
                        t_sub: self.rec_t_sub_o(),
                        t_disp: (self.rec_dispatched_o() != 0).then(|| self.rec_t_disp_o()),
                        cq_addr: self.rec_cq_addr_o(),
                        cq_region: self.rec_cq_region_o(),
                        cq_gen: self.rec_cq_gen_o(),
                    }),
                    free: (self.free_o() != 0).then(|| self.free_slot_o() as usize),
                    refund: (self.refund_valid_o() != 0).then(|| u32::from(self.refund_lines_o())),
                    drop_stale: self.drop_stale_o(),
                    drop_dup: self.drop_dup_o() != 0,
                    drop_auth: self.drop_auth_o() != 0,
                    drop_hold: self.drop_hold_o() != 0,
                }
            }
        }
    };
}

dut!(ini_ops, 8, 3);
dut!(ini_ops_default, 64, 6);

// ---------------------------------------------------------------------------------------------
// The reference.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ph {
    Free,
    Queued,
    Service,
    Ending,
    Record,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cs {
    Missing,
    Pending,
    Dropping,
    Reading,
    Writing,
    Done,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Chunk = 0,
    Reply = 1,
    Rdreq = 2,
    Cmpl = 3,
}

#[derive(Clone, Debug)]
struct Op {
    acc: Option<Accept>,
    ph: Ph,
    cs: [Cs; NCH],
    engaged: bool,
    rep_pend: bool,
    ctl_pend: bool,
    rdreq_ok: bool,
    rearm: bool,
    armwait: bool,
    wd_busy: bool,
    req_fly: bool,
    ctr: Option<u64>,
    t_disp: Option<u32>,
    deadline: u32,
    status: Status,
    rep_status: Status,
    rdreq_ctr: u64,
    ctx: u16,
    cand: (u64, u16, u32, u32),
    busy: bool,
}

impl Op {
    fn new() -> Self {
        Op {
            acc: None,
            ph: Ph::Free,
            cs: [Cs::Missing; NCH],
            engaged: false,
            rep_pend: false,
            ctl_pend: false,
            rdreq_ok: false,
            rearm: false,
            armwait: false,
            wd_busy: false,
            req_fly: false,
            ctr: None,
            t_disp: None,
            deadline: 0,
            status: Status::Ok,
            rep_status: Status::Ok,
            rdreq_ctr: 0,
            ctx: 0,
            cand: (0, 0, 0, 0),
            busy: false,
        }
    }
    fn cmd(&self) -> Option<&Cmd> {
        self.acc.as_ref().map(|a| &a.cmd)
    }
    fn is_read(&self) -> bool {
        self.cmd().is_some_and(|c| c.op_type == OpType::Read as u8)
    }
    fn n_chunks(&self) -> usize {
        self.cmd()
            .map_or(0, |c| usize::from(c.length.div_ceil(CHUNK)))
    }
    fn inflight(&self) -> bool {
        self.rep_pend
            || self.ctl_pend
            || self.wd_busy
            || self.req_fly
            || self.rearm
            || self
                .cs
                .iter()
                .any(|c| matches!(c, Cs::Pending | Cs::Dropping | Cs::Reading | Cs::Writing))
    }
}

fn chunk_len(length: u16, k: u16) -> u16 {
    (length - k * CHUNK).min(CHUNK)
}

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Verdict {
    Stale,
    Hold,
    Dup,
    Accept(Kind, usize),
}

/// §7.4 steps 1-2, §7.5, §8.3, §8.5 (docs/nic.md "Response acceptance").
fn classify(ops: &[Op], h: &Hdr, t_rx: u32) -> Verdict {
    let Some(o) = ops.get(usize::from(h.slot)) else {
        return Verdict::Stale;
    };
    let (Some(c), Some(ctr)) = (o.cmd(), o.ctr) else {
        return Verdict::Stale;
    };
    let pid = o.acc.as_ref().map_or(0, |a| a.pid);
    let live = o.ph == Ph::Service;
    let echo = h.op_type as u8 == c.op_type
        && h.src_nic == c.remote_nic
        && h.pid == pid
        && h.region == c.remote_region
        && h.offset == c.remote_offset
        && h.length == c.length;
    let in_time = (t_rx.wrapping_sub(o.deadline) as i32) < 0;
    if !live || !echo || !in_time {
        return Verdict::Stale;
    }
    let chunk = usize::from(h.chunk_offset / CHUNK);
    match h.msg_type {
        MsgType::RdResp => {
            let ok = o.is_read()
                && h.prev_counter == ctr
                && h.chunk_offset.is_multiple_of(CHUNK)
                && h.chunk_offset < h.length
                && h.chunk_len == chunk_len(h.length, h.chunk_offset / CHUNK);
            if !ok {
                Verdict::Stale
            } else if o.cs[chunk] != Cs::Missing {
                Verdict::Dup
            } else {
                Verdict::Accept(Kind::Chunk, chunk)
            }
        }
        MsgType::Nack | MsgType::AccessErr | MsgType::AuthFail => {
            if h.prev_counter != ctr || o.engaged {
                Verdict::Stale
            } else if o.rep_pend {
                Verdict::Dup
            } else {
                Verdict::Accept(Kind::Reply, chunk)
            }
        }
        MsgType::WrRdreq => {
            if o.is_read() || h.prev_counter != ctr || o.engaged {
                Verdict::Stale
            } else if h.hold_ns > MAX_HOLD_NS {
                Verdict::Hold
            } else if o.ctl_pend {
                Verdict::Dup
            } else {
                Verdict::Accept(Kind::Rdreq, chunk)
            }
        }
        MsgType::WrCmpl => {
            if o.is_read() || !o.rdreq_ok || h.prev_counter != o.rdreq_ctr || h.ctx != o.ctx {
                Verdict::Stale
            } else if o.ctl_pend {
                Verdict::Dup
            } else {
                Verdict::Accept(Kind::Cmpl, chunk)
            }
        }
        _ => Verdict::Stale,
    }
}

fn reply_status(t: MsgType, carried: Status) -> Status {
    match t {
        MsgType::Nack => Status::Nack,
        MsgType::AuthFail => Status::RemoteAuthenticationFailure,
        MsgType::AccessErr => Status::RemoteAccessError,
        _ => carried,
    }
}

fn fail(msg: impl Into<String>) -> TestCaseError {
    TestCaseError::fail(msg.into())
}

/// A frame aimed at slot `slot`'s op, mostly right, sometimes wrong in one way.
fn frame(rng: &mut StdRng, slots: usize, ops: &[Op], counter: &mut u64) -> (Hdr, u128) {
    let slot = if rng.random_range(0..40) == 0 {
        rng.random_range(0..slots + 4)
    } else {
        rng.random_range(0..slots)
    };
    let o = ops.get(slot);
    let c = o.and_then(Op::cmd).cloned().unwrap_or(Cmd {
        op_type: 1,
        cos: 0,
        length: 100,
        remote_nic: 7,
        remote_region: 1,
        local_region: 1,
        cq_region: 1,
        remote_offset: 0,
        local_offset: 0,
        cq_offset: 0,
        kd: 1,
    });
    let pid = o.and_then(|o| o.acc.as_ref()).map_or(0, |a| a.pid);
    let req = o.and_then(|o| o.ctr).unwrap_or(0);
    let op_type = OpType::try_from(c.op_type).unwrap_or(OpType::Read);
    let read = op_type == OpType::Read;
    let nch = c.length.div_ceil(CHUNK).max(1);
    let k = rng.random_range(0..nch);
    *counter += 1;
    let mut h = Hdr {
        msg_type: MsgType::RdResp,
        op_type,
        status: Status::Ok,
        src_nic: c.remote_nic,
        dst_nic: 0x0a00_0001,
        counter: *counter,
        prev_counter: req,
        pid,
        region: c.remote_region,
        slot: slot as u16,
        offset: c.remote_offset,
        length: c.length,
        chunk_offset: 0,
        chunk_len: 0,
        ctx: 0,
        hold_ns: 0,
    };
    let pick = rng.random_range(0..100);
    if pick < 12 {
        h.msg_type = [MsgType::Nack, MsgType::AccessErr, MsgType::AuthFail][rng.random_range(0..3)];
        h.status = reply_status(h.msg_type, Status::Ok);
    } else if read {
        h.chunk_offset = k * CHUNK;
        h.chunk_len = chunk_len(c.length, k);
    } else if o.is_some_and(|o| o.rdreq_ok) && pick < 80 {
        h.msg_type = MsgType::WrCmpl;
        h.prev_counter = o.map_or(0, |o| o.rdreq_ctr);
        h.ctx = o.map_or(0, |o| o.ctx);
        h.status = if rng.random_range(0..4) == 0 {
            Status::RemoteAccessError
        } else {
            Status::Ok
        };
    } else {
        h.msg_type = MsgType::WrRdreq;
        h.ctx = rng.random();
        h.hold_ns = if rng.random_range(0..8) == 0 {
            rng.random_range(MAX_HOLD_NS..MAX_HOLD_NS + 100)
        } else {
            rng.random_range(1..=MAX_HOLD_NS)
        };
    }
    // One field wrong in about one frame in six.
    match rng.random_range(0..36) {
        0 => h.prev_counter ^= 1,
        1 => h.pid ^= 1,
        2 => h.src_nic ^= 4,
        3 => h.offset ^= 1,
        4 => h.length = h.length.wrapping_add(1),
        5 if h.chunk_len > 1 => h.chunk_len -= 1,
        6 => h.op_type = if read { OpType::Write } else { OpType::Read },
        _ => {}
    }
    (h, rng.random())
}

#[derive(Default)]
struct Stats {
    records: usize,
    accepted: usize,
    jobs: usize,
    ok: usize,
    timeouts: usize,
    hw: usize,
    rearms: usize,
}

#[allow(clippy::too_many_lines)]
fn run<D: Dut>(seed: u64, busy: u32, cycles: u64) -> Result<Stats, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = D::fresh();
    let n = D::SLOTS;
    let op_timeout: u32 = rng.random_range(150..900);
    let mut ops: Vec<Op> = (0..n).map(|_| Op::new()).collect();
    let mut seq = vec![0u16; n];
    let mut st = Stats::default();
    let mut now: u32 = rng.random();
    let mut sealer_ctr: u64 = 1 << 40;
    let mut peer_ctr: u64 = 1 << 20;
    let mut armed: Vec<Option<u32>> = vec![None; n];
    // Bench state.
    let mut hdr_cur: Option<(Hdr, u128, u32)> = None;
    let mut pay_beats: VecDeque<bool> = VecDeque::new(); // `last` of each beat offered
    let mut pay_route: VecDeque<bool> = VecDeque::new(); // decided frames: pass?
    // The newest passed frame's job is still offered (its payload waits).
    let mut unjob = false;
    let mut jobs: VecDeque<Job> = VecDeque::new();
    let mut results: Later<(bool, u32)> = Later::new();
    let mut uws: VecDeque<(usize, usize, bool)> = VecDeque::new();
    let mut uw_done: Later<(usize, usize)> = Later::new();
    let mut hws: VecDeque<Hw> = VecDeque::new();
    let mut hw_rsp: Later<(u32, bool)> = Later::new();
    let mut wd_ev: Later<(usize, bool)> = Later::new(); // (slot, fail first)
    let mut recd: Later<usize> = Later::new();
    let mut rec_shown: Option<Rec> = None;
    let mut refund_prev: Option<u32> = None;
    let mut hold_ready = [false; 8];
    let slot_mask: u32 = (1 << D::SLOT_BITS) - 1;

    for cycle in 0..cycles {
        now = now.wrapping_add(1);
        let draining = cycle + 6_000 > cycles;
        let pct = |rng: &mut StdRng, p: u32| rng.random_range(0..100) < p;
        for r in &mut hold_ready {
            *r = pct(&mut rng, busy);
        }
        let mut d = Drive {
            op_timeout,
            opay_ready: hold_ready[0],
            job_ready: hold_ready[1],
            uw_ready: hold_ready[2],
            hw_ready: hold_ready[3],
            wds_ready: hold_ready[4],
            rec_ready: hold_ready[5],
            ..Drive::default()
        };
        // --- submit, expiry, arm, sealer ---
        if !draining && pct(&mut rng, 30) {
            let slot = rng.random_range(0..n);
            if !ops[slot].busy {
                let op_type = rng.random_range(1..=3u8);
                let length = match op_type {
                    3 => 16,
                    _ if rng.random_range(0..3) == 0 => rng.random_range(1..=4096),
                    _ => rng.random_range(1..=256),
                };
                let status = match rng.random_range(0..20) {
                    0 => Status::BadCommand,
                    1 => Status::LocalAccessError,
                    _ => Status::Ok,
                };
                seq[slot] = seq[slot].wrapping_add(1);
                let a = Accept {
                    slot,
                    seq: seq[slot],
                    status,
                    cmd: Cmd {
                        op_type,
                        cos: 0,
                        length,
                        remote_nic: rng.random_range(1..4),
                        remote_region: rng.random_range(0..4),
                        local_region: rng.random(),
                        cq_region: rng.random(),
                        remote_offset: rng.random_range(0..3),
                        local_offset: 0,
                        cq_offset: 0,
                        kd: rng.random(),
                    },
                    pid: rng.random_range(0..3),
                    t_sub: now.wrapping_sub(rng.random_range(0..50)),
                    cq_addr: rng.random(),
                    cq_gen: rng.random(),
                    local_addr: rng.random::<u64>() >> 1,
                    local_gen: rng.random(),
                };
                d.acc = Some(a);
            }
        }
        let queued: Vec<usize> = (0..n)
            .filter(|&s| ops[s].ph == Ph::Queued && d.acc.as_ref().is_none_or(|a| a.slot != s))
            .collect();
        if !queued.is_empty() && pct(&mut rng, 10) {
            d.exp = Some(queued[rng.random_range(0..queued.len())]);
        }
        if !queued.is_empty() && pct(&mut rng, 40) {
            let s = queued[rng.random_range(0..queued.len())];
            if d.exp != Some(s) {
                d.arm = Some((s, now.wrapping_add(op_timeout)));
            }
        }
        let flying: Vec<usize> = (0..n).filter(|&s| ops[s].req_fly).collect();
        if !flying.is_empty() && pct(&mut rng, 50) {
            let s = flying[rng.random_range(0..flying.len())];
            if rng.random_range(0..30) == 0 {
                d.req_drop = Some(s);
            } else {
                sealer_ctr += rng.random_range(1..4);
                d.asg = Some((s, sealer_ctr));
            }
        }
        // --- receive edge ---
        if hdr_cur.is_none() && !draining && pct(&mut rng, 60) {
            let (h, tag) = frame(&mut rng, n, &ops, &mut peer_ctr);
            let t_rx = now.wrapping_sub(rng.random_range(0..4));
            if h.chunk_len != 0 {
                let beats = rng.random_range(1..4);
                for b in 0..beats {
                    pay_beats.push_back(b + 1 == beats);
                }
            }
            hdr_cur = Some((h, tag, t_rx));
        }
        if let Some((h, tag, t_rx)) = &hdr_cur {
            let b = h.to_bytes().map_err(|e| fail(format!("hdr: {e}")))?;
            d.hdr = Some((b, *tag, *t_rx));
        }
        if !pay_beats.is_empty() && pct(&mut rng, 80) {
            d.pay = pay_beats.front().copied();
        }
        // --- engines, window, host writes, timer, WR_DATA, completion writer ---
        let c64 = cycle;
        if let Some(r) = results.peek(c64)
            && pct(&mut rng, 80)
        {
            d.res = Some(r);
        }
        if let Some(u) = uw_done.peek(c64) {
            d.uw_done = Some(u);
        }
        // The window reads a chunk out (its unwind done) before the DMA can answer for it.
        if let Some(h) = hw_rsp.peek(c64) {
            let key = ((h.0 >> CIB) as usize, (h.0 & CMASK) as usize);
            if !uw_done.0.iter().any(|(_, v)| *v == key) {
                d.hw_rsp = Some(h);
            }
        }
        let due: Vec<usize> = (0..n)
            .filter(|&s| armed[s].is_some_and(|dl| (now.wrapping_sub(dl) as i32) >= 0))
            .collect();
        if !due.is_empty() && pct(&mut rng, 50) {
            d.to = Some(due[rng.random_range(0..due.len())]);
        }
        if let Some((s, fail_first)) = wd_ev.peek(c64) {
            if fail_first {
                d.wd_fail = Some(s);
            } else {
                d.wd_done = Some(s);
            }
        }
        if let Some(s) = recd.peek(c64) {
            d.recd = Some(s);
        }

        dut.drive(&d);
        dut.eval();
        let out = dut.sample();

        // ---------------- checks against the reference (pre-cycle state) ----------------
        let pre = ops.clone();
        let live: u64 = (0..n)
            .filter(|&s| pre[s].ph == Ph::Service)
            .fold(0, |m, s| m | (1 << s));
        prop_assert_eq!(out.live, live, "live_o");

        // Header.
        let mut stale = 0u8;
        let mut hold = false;
        let mut dup = false;
        let mut accepted_hdr: Option<(Hdr, Kind, usize)> = None;
        let mut new_route: Option<bool> = None;
        if let Some((h, tag, t_rx)) = hdr_cur.clone() {
            let route_room = pay_route.len() < 2;
            let job_room = jobs.is_empty() || d.job_ready;
            if out.hdr_ready {
                let v = classify(&pre, &h, t_rx);
                match v {
                    Verdict::Stale => stale += 1,
                    Verdict::Hold => hold = true,
                    Verdict::Dup => dup = true,
                    Verdict::Accept(kind, chunk) => {
                        let o = &pre[usize::from(h.slot)];
                        let kd = o.cmd().map_or(0, |c| c.kd);
                        let key = if h.msg_type == MsgType::AuthFail {
                            0
                        } else {
                            kd
                        };
                        let meta = ((kind as u32) << (D::SLOT_BITS + CIB))
                            | ((chunk as u32 & CMASK) << D::SLOT_BITS)
                            | u32::from(h.slot);
                        jobs.push_back(Job {
                            hdr: h.to_bytes().map_err(|e| fail(format!("{e}")))?,
                            tag,
                            key,
                            meta,
                        });
                        accepted_hdr = Some((h.clone(), kind, chunk));
                    }
                }
                if h.chunk_len != 0 {
                    new_route = Some(matches!(v, Verdict::Accept(..)));
                }
                hdr_cur = None;
            } else {
                // Ready depends only on room: the job register and the route FIFO.
                prop_assert!(!(route_room && job_room), "header refused with room");
            }
        }
        // Payload routing.
        if let Some(last) = d.pay {
            match pay_route.front().copied() {
                None => {
                    prop_assert!(!out.pay_ready, "payload taken before its header");
                    prop_assert!(!out.opay_valid);
                }
                Some(pass) => {
                    // The opener takes a payload beat only after its job: the newest passed
                    // frame waits while its job is still offered.
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
        // The decision enters the route FIFO at the edge.
        if let Some(r) = new_route {
            pay_route.push_back(r);
        }
        if accepted_hdr.is_some() {
            unjob = new_route == Some(true);
        } else if d.job_ready {
            unjob = false;
        }
        // Opener jobs.
        if let Some(j) = &out.job {
            let want = jobs
                .front()
                .ok_or_else(|| fail("opener job without an accepted header"))?;
            prop_assert_eq!(j, want, "opener job");
            if d.job_ready {
                let ok = rng.random_range(0..100) < 85;
                results.push(cycle + rng.random_range(1..12), (ok, j.meta));
                jobs.pop_front();
                st.jobs += 1;
            }
        } else {
            // Registered: an accepted header shows up the next cycle.
            prop_assert!(
                jobs.len() <= usize::from(accepted_hdr.is_some()),
                "job missing"
            );
        }
        // Tag results.
        let mut res_ev: Option<(bool, Kind, usize, usize)> = None;
        if let Some((ok, meta)) = d.res
            && out.res_ready
        {
            results.pop();
            let slot = (meta & slot_mask) as usize;
            let chunk = ((meta >> D::SLOT_BITS) & CMASK) as usize;
            let kind = match meta >> (D::SLOT_BITS + CIB) {
                0 => Kind::Chunk,
                1 => Kind::Reply,
                2 => Kind::Rdreq,
                _ => Kind::Cmpl,
            };
            res_ev = Some((ok, kind, slot, chunk));
        }
        let mut exp_auth = false;
        if let Some((ok, kind, slot, _)) = res_ev {
            let o = &pre[slot];
            let rlive = o.ph == Ph::Service;
            exp_auth = !ok && rlive;
            if ok && kind != Kind::Chunk && !(rlive && !(kind == Kind::Reply && o.engaged)) {
                stale += 1;
            }
        }
        prop_assert_eq!(out.drop_stale, stale, "drop_stale");
        prop_assert_eq!(out.drop_hold, hold, "drop_hold");
        prop_assert_eq!(out.drop_dup, dup, "drop_dup");
        prop_assert_eq!(out.drop_auth, exp_auth, "drop_auth");
        // Unwinds and host writes.
        if let Some(u) = out.uw {
            prop_assert_eq!(Some(&u), uws.front(), "unwind");
            if d.uw_ready {
                uws.pop_front();
                uw_done.push(cycle + rng.random_range(1..8), (u.0, u.1));
                if u.2 {
                    let o = &pre[u.0];
                    let a = o
                        .acc
                        .as_ref()
                        .ok_or_else(|| fail("unwind of an empty slot"))?;
                    hws.push_back(Hw {
                        addr: a.local_addr.wrapping_add(u.1 as u64 * u64::from(CHUNK)),
                        len: u32::from(chunk_len(a.cmd.length, u.1 as u16)),
                        region: a.cmd.local_region,
                        gen_: a.local_gen,
                        tag: ((u.0 as u32) << CIB) | u.1 as u32,
                    });
                }
            }
        }
        if let Some(h) = &out.hw {
            prop_assert_eq!(Some(h), hws.front(), "host write");
            if d.hw_ready {
                let ok = rng.random_range(0..40) != 0;
                hw_rsp.push(cycle + rng.random_range(1..12), (h.tag, ok));
                hws.pop_front();
                st.hw += 1;
            }
        }
        // Timer writes: the arm pulse passes (priority); otherwise a finished re-arm.
        let mut rearm_written: Option<usize> = None;
        if let Some((s, dl)) = d.arm {
            prop_assert_eq!(out.tmr, Some((s, dl)), "arm write");
        } else if let Some((s, dl)) = out.tmr {
            let o = &pre[s];
            prop_assert!(o.armwait, "timer write for slot {} without a re-arm", s);
            let (_, _, t_rx, hold_ns) = o.cand;
            let want = t_rx.wrapping_add(rearm_cycles(hold_ns, CLK_PS) as u32);
            prop_assert_eq!(dl, want, "re-arm deadline");
            rearm_written = Some(s);
            st.rearms += 1;
        }
        if let Some((s, _)) = out.tmr {
            armed[s] = out.tmr.map(|(_, dl)| dl);
        }
        // WR_DATA start.
        let mut wds_taken: Option<usize> = None;
        if let Some((s, ctr, ctx)) = out.wds {
            let o = &pre[s];
            prop_assert!(o.rearm && !o.armwait, "WR_DATA start for slot {}", s);
            prop_assert_eq!((ctr, ctx), (o.rdreq_ctr, o.ctx), "WR_DATA start fields");
            if d.wds_ready {
                wds_taken = Some(s);
                let fail_first = rng.random_range(0..8) == 0;
                let t = cycle + rng.random_range(1..30);
                if fail_first {
                    wd_ev.push(t, (s, true));
                }
                wd_ev.push(t + 1, (s, false));
            }
        }
        if d.wd_fail.is_some() || d.wd_done.is_some() {
            wd_ev.pop();
        }
        // Records: a new one must be of an ENDING op with nothing in flight.
        if let Some(r) = &out.rec {
            if rec_shown.as_ref() != Some(r) {
                let o = &ops[r.slot];
                prop_assert_eq!(o.ph, Ph::Record, "record of slot {} not picked", r.slot);
                let a = o
                    .acc
                    .as_ref()
                    .ok_or_else(|| fail("record of an empty slot"))?;
                let want = Rec {
                    slot: r.slot,
                    status: o.status as u8,
                    op_type: a.cmd.op_type,
                    seq: a.seq,
                    t_sub: a.t_sub,
                    t_disp: o.t_disp,
                    cq_addr: a.cq_addr,
                    cq_region: a.cmd.cq_region,
                    cq_gen: a.cq_gen,
                };
                prop_assert_eq!(r, &want, "record");
                // A READ refunds its lines; a WRITE / REKEY reserved none (protocol §2.3).
                let lines = o.t_disp.map(|_| {
                    if a.cmd.op_type == OpType::Read as u8 {
                        u32::from(a.cmd.length.div_ceil(64))
                    } else {
                        0
                    }
                });
                prop_assert_eq!(refund_prev, lines, "refund with the record's pick");
                st.records += 1;
                match o.status {
                    Status::Ok => st.ok += 1,
                    Status::Timeout => st.timeouts += 1,
                    _ => {}
                }
            }
            if d.rec_ready {
                recd.push(cycle + rng.random_range(1..8), r.slot);
                rec_shown = None;
            } else {
                rec_shown = Some(r.clone());
            }
        } else {
            rec_shown = None;
        }
        // The record's pick (this cycle): the reference moves the slot to RECORD; the DUT's
        // record register shows it next cycle.
        refund_prev = out.refund;
        if let Some(s) = d.recd {
            prop_assert_eq!(out.free, Some(s), "free pulse");
            recd.pop();
        } else {
            prop_assert_eq!(out.free, None);
        }
        if d.uw_done.is_some() {
            uw_done.pop();
        }
        if d.hw_rsp.is_some() {
            hw_rsp.pop();
        }

        // ---------------- apply the cycle's events to the reference ----------------
        let mut end: Vec<Option<Status>> = vec![None; n];
        let mut end_prio: Vec<u8> = vec![u8::MAX; n];
        let mut set_end = |s: usize, prio: u8, status: Status| {
            if prio < end_prio[s] {
                end_prio[s] = prio;
                end[s] = Some(status);
            }
        };
        if let Some(a) = &d.acc {
            st.accepted += 1;
            let o = &mut ops[a.slot];
            *o = Op::new();
            o.busy = true;
            o.ph = if a.status == Status::Ok {
                Ph::Queued
            } else {
                Ph::Ending
            };
            o.status = a.status;
            o.acc = Some(a.clone());
        }
        if let Some(s) = d.exp
            && pre[s].ph == Ph::Queued
        {
            ops[s].ph = Ph::Ending;
            ops[s].status = Status::DispatchTimeout;
        }
        if let Some((s, dl)) = d.arm
            && pre[s].ph == Ph::Queued
        {
            ops[s].ph = Ph::Service;
            ops[s].t_disp = Some(dl.wrapping_sub(op_timeout));
            ops[s].req_fly = true;
        }
        if let Some((s, dl)) = out.tmr {
            ops[s].deadline = dl;
        }
        if let Some((s, c)) = d.asg {
            ops[s].req_fly = false;
            ops[s].ctr = Some(c);
        }
        if let Some(s) = d.req_drop {
            ops[s].req_fly = false;
        }
        if let Some((h, kind, chunk)) = &accepted_hdr {
            let s = usize::from(h.slot);
            let o = &mut ops[s];
            match kind {
                Kind::Chunk => {
                    o.cs[*chunk] = Cs::Pending;
                    o.engaged = true;
                }
                Kind::Reply => {
                    o.rep_pend = true;
                    o.rep_status = reply_status(h.msg_type, h.status);
                }
                Kind::Rdreq => {
                    o.ctl_pend = true;
                    o.cand = (h.counter, h.ctx, d.hdr.map_or(0, |x| x.2), h.hold_ns);
                }
                Kind::Cmpl => {
                    o.ctl_pend = true;
                    o.rep_status = h.status;
                }
            }
        }
        if let Some((ok, kind, s, chunk)) = res_ev {
            let rlive = pre[s].ph == Ph::Service;
            let o = &mut ops[s];
            match kind {
                Kind::Chunk => {
                    prop_assert_eq!(pre[s].cs[chunk], Cs::Pending);
                    let read = ok && rlive;
                    o.cs[chunk] = if read { Cs::Reading } else { Cs::Dropping };
                    uws.push_back((s, chunk, read));
                }
                Kind::Reply => {
                    o.rep_pend = false;
                    if ok && rlive && !pre[s].engaged {
                        set_end(s, 2, pre[s].rep_status);
                    }
                }
                Kind::Rdreq => {
                    o.ctl_pend = false;
                    if ok && rlive {
                        o.rdreq_ok = true;
                        o.engaged = true;
                        o.rearm = true;
                        o.armwait = true;
                        o.rdreq_ctr = pre[s].cand.0;
                        o.ctx = pre[s].cand.1;
                    }
                }
                Kind::Cmpl => {
                    o.ctl_pend = false;
                    if ok && rlive {
                        set_end(s, 2, pre[s].rep_status);
                    }
                }
            }
        }
        if let Some((s, c)) = d.uw_done {
            let o = &mut ops[s];
            o.cs[c] = match pre[s].cs[c] {
                Cs::Dropping => Cs::Missing,
                Cs::Reading => Cs::Writing,
                other => return Err(fail(format!("unwind done of a chunk in {other:?}"))),
            };
        }
        if let Some((tag, ok)) = d.hw_rsp {
            let s = (tag >> CIB) as usize;
            let c = (tag & CMASK) as usize;
            prop_assert_eq!(
                pre[s].cs[c],
                Cs::Writing,
                "host write answer of a chunk not written"
            );
            ops[s].cs[c] = if ok { Cs::Done } else { Cs::Missing };
            if !ok && pre[s].ph == Ph::Service {
                set_end(s, 0, Status::LocalAccessError);
            }
        }
        if let Some(s) = rearm_written {
            ops[s].armwait = false;
        }
        if let Some(s) = wds_taken {
            ops[s].rearm = false;
            ops[s].wd_busy = true;
        }
        if let Some(s) = d.wd_fail
            && pre[s].ph == Ph::Service
        {
            set_end(s, 3, Status::LocalAccessError);
        }
        if let Some(s) = d.wd_done {
            ops[s].wd_busy = false;
        }
        for s in 0..n {
            let o = &ops[s];
            if pre[s].ph == Ph::Service
                && o.is_read()
                && (0..o.n_chunks()).all(|c| o.cs[c] == Cs::Done)
            {
                set_end(s, 1, Status::Ok);
            }
        }
        // A frame accepted in time still in an engine holds the timer off (§6.1: judged at its
        // last beat).
        if let Some(s) = d.to
            && pre[s].ph == Ph::Service
            && !pre[s].armwait
            && !pre[s].rep_pend
            && !pre[s].ctl_pend
            && !pre[s].cs.contains(&Cs::Pending)
        {
            set_end(s, 4, Status::Timeout);
        }
        for s in 0..n {
            if let Some(status) = end[s]
                && pre[s].ph == Ph::Service
            {
                ops[s].ph = Ph::Ending;
                ops[s].status = status;
            }
        }
        if let Some(s) = d.recd {
            prop_assert_eq!(pre[s].ph, Ph::Record, "record answered for slot {}", s);
            ops[s].ph = Ph::Free;
            ops[s].busy = false;
        }

        dut.tick();
        // After the edge: a newly shown record names the slot picked in this cycle.
        dut.eval();
        let after = dut.sample();
        if let Some(r) = &after.rec
            && rec_shown.as_ref() != Some(r)
        {
            let o = &pre[r.slot];
            prop_assert_eq!(o.ph, Ph::Ending, "record of slot {} not ending", r.slot);
            prop_assert!(
                !o.inflight(),
                "record of slot {} with something in flight",
                r.slot
            );
            ops[r.slot].ph = Ph::Record;
        } else {
            prop_assert!(out.refund.is_none(), "refund without a pick");
        }
    }
    prop_assert!(
        ops.iter().all(|o| o.ph == Ph::Free),
        "slots not free at the end: {:?}",
        ops.iter().map(|o| o.ph).collect::<Vec<_>>()
    );
    prop_assert_eq!(st.records, st.accepted, "one record per accepted command");
    Ok(st)
}

fn busy() -> impl Strategy<Value = u32> {
    prop_oneof![Just(100u32), 40u32..100]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn small(seed in any::<u64>(), b in busy()) {
        let st = run::<onerma_rtl::ini_ops::Model>(seed, b, 20_000)?;
        prop_assert!(st.ok > 0 && st.timeouts > 0 && st.hw > 0, "coverage: {} ok, {} timeouts, {} host writes", st.ok, st.timeouts, st.hw);
    }

    #[test]
    fn default_config(seed in any::<u64>(), b in busy()) {
        run::<onerma_rtl::ini_ops_default::Model>(seed, b, 20_000)?;
    }
}

/// Enough of every path is exercised by one long run (reported with --nocapture).
#[test]
fn coverage_of_one_long_run() -> Result<(), TestCaseError> {
    let st = run::<onerma_rtl::ini_ops::Model>(7, 80, 60_000)?;
    println!(
        "ini_ops: {} accepted, {} records ({} OK, {} TIMEOUT), {} opener jobs, {} host writes, {} re-arms",
        st.accepted, st.records, st.ok, st.timeouts, st.jobs, st.hw, st.rearms
    );
    prop_assert!(st.rearms > 0 && st.ok > 0 && st.timeouts > 0 && st.hw > 0);
    Ok(())
}
