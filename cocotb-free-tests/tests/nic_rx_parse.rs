//! `onerma_rx_parse` (the receive edge) against the golden model's §3.3 reference.
//!
//! Streams of frames go in with random gaps while the four outputs apply random back-pressure:
//! valid frames of every message type (built from `onerma_layouts::Hdr` with random fields, legal
//! by `wire::well_formed`), frames that break one §3.3 rule each (short, length mismatch, unknown
//! enums, reserved bits, msg/op and status pairs, chunk rules, prev_counter on a hop-1 request,
//! ctx / hold_ns on the wrong types, header length, oversize), frames with a bad `tkeep` and
//! misaddressed frames. The expected verdict of each frame is `wire::parse` + the destination
//! check (the model, never the RTL; a bad `tkeep` is malformed by the receive edge's rule).
//! Checked: every forwarded descriptor (header, tag, `t_rx` = the cycle the bench saw the last
//! beat accepted) and every payload byte, beat count, `keep` and `last`, on the right destination
//! and in order; a descriptor is accepted before its frame's first payload beat is offered; each
//! drop pulse in the cycle after the dropped frame's last beat; nothing left over, nothing wedged.
//! A separate test measures input throughput (beats per cycle) with always-ready outputs.

use std::collections::VecDeque;

use onerma_layouts::{Hdr, MsgType, OpType, Status};
use onerma_model::wire;
use onerma_rtl_tests::bits::words_to_be;
use onerma_rtl_tests::{Source, Throttle};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const NIC: u32 = 0x0a00_0001;
/// Protocol CHUNK_BYTES: the largest payload of one frame.
const CHUNK: u16 = onerma_layouts::CHUNK_BYTES as u16;
const MAX_FRAME: usize = 64 + onerma_layouts::CHUNK_BYTES + 16;

/// One input beat: `BYTES` lanes (lane 0 = first byte), keep mask, last.
#[derive(Clone, Debug, PartialEq)]
struct Beat {
    data: Vec<u8>,
    keep: u64,
    last: bool,
}

/// A descriptor as it leaves the DUT: header bytes, tag bytes, t_rx.
type Desc = (Vec<u8>, [u8; 16], u32);

trait Dut {
    const BYTES: usize;
    fn fresh() -> Self;
    fn eval(&mut self);
    fn tick(&mut self);
    /// `enable`: `nic_enable` (low: the NIC is stopped and answers to no address).
    fn set_inputs(&mut self, now: u32, beat: Option<&Beat>, ready: [bool; 4], enable: bool);
    fn in_ready(&self) -> bool;
    /// Destination 0 = initiator, 1 = responder.
    fn desc(&self, d: usize) -> Option<Desc>;
    fn pay(&self, d: usize) -> Option<Beat>;
    /// (drop_malformed, drop_misaddressed).
    fn drops(&self) -> (bool, bool);
}

fn lanes_to_words<const N: usize>(b: &[u8]) -> [u32; N] {
    std::array::from_fn(|i| {
        u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    })
}

fn words_to_lanes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

macro_rules! dut {
    ($m:ident, $bytes:expr, $words:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const BYTES: usize = $bytes;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn set_inputs(
                &mut self,
                now: u32,
                beat: Option<&Beat>,
                ready: [bool; 4],
                enable: bool,
            ) {
                self.set_nic_addr_i(NIC);
                self.set_enable_i(u8::from(enable));
                self.set_now_i(now);
                self.set_s_axis_rx_tvalid_i(u8::from(beat.is_some()));
                let zero = vec![0u8; $bytes];
                let data = beat.map_or(&zero[..], |b| &b.data[..]);
                self.set_s_axis_rx_tdata_i(&lanes_to_words::<$words>(data));
                self.set_s_axis_rx_tkeep_i(beat.map_or(0, |b| b.keep) as _);
                self.set_s_axis_rx_tlast_i(u8::from(beat.is_some_and(|b| b.last)));
                self.set_ini_desc_ready_i(u8::from(ready[0]));
                self.set_ini_pay_ready_i(u8::from(ready[1]));
                self.set_rsp_desc_ready_i(u8::from(ready[2]));
                self.set_rsp_pay_ready_i(u8::from(ready[3]));
            }
            fn in_ready(&self) -> bool {
                self.s_axis_rx_tready_o() != 0
            }
            fn desc(&self, d: usize) -> Option<Desc> {
                let (v, h, t, r) = if d == 0 {
                    (
                        self.ini_desc_valid_o(),
                        self.ini_desc_hdr_o(),
                        self.ini_desc_tag_o(),
                        self.ini_desc_t_rx_o(),
                    )
                } else {
                    (
                        self.rsp_desc_valid_o(),
                        self.rsp_desc_hdr_o(),
                        self.rsp_desc_tag_o(),
                        self.rsp_desc_t_rx_o(),
                    )
                };
                (v != 0).then(|| {
                    let mut hb = vec![0u8; 64];
                    words_to_be(&h, &mut hb);
                    let mut tb = [0u8; 16];
                    words_to_be(&t, &mut tb);
                    (hb, tb, r)
                })
            }
            fn pay(&self, d: usize) -> Option<Beat> {
                let (v, data, keep, last) = if d == 0 {
                    (
                        self.ini_pay_valid_o(),
                        self.ini_pay_data_o(),
                        self.ini_pay_keep_o(),
                        self.ini_pay_last_o(),
                    )
                } else {
                    (
                        self.rsp_pay_valid_o(),
                        self.rsp_pay_data_o(),
                        self.rsp_pay_keep_o(),
                        self.rsp_pay_last_o(),
                    )
                };
                (v != 0).then(|| Beat {
                    data: words_to_lanes(&data),
                    keep: u64::from(keep),
                    last: last != 0,
                })
            }
            fn drops(&self) -> (bool, bool) {
                (
                    self.drop_malformed_o() != 0,
                    self.drop_misaddressed_o() != 0,
                )
            }
        }
    };
}

dut!(rx_parse, 16, 4);
dut!(rx_parse_default, 64, 16);

// ---- Frames.

/// How a frame is presented at the edge besides its bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Keep {
    Good,
    /// A lane cleared on a beat before the last.
    HoleBefore,
    /// The last beat's keep is not a prefix (a hole, or lane 0 clear).
    BadLast,
}

#[derive(Clone, Debug)]
struct Frame {
    bytes: Vec<u8>,
    keep: Keep,
    what: &'static str,
}

#[derive(Clone, Debug, PartialEq)]
enum Verdict {
    Malformed,
    Misaddressed,
    /// Forwarded to destination 0 (initiator) or 1 (responder).
    Fwd(usize),
}

/// The expected verdict, from the model (`wire::parse` and the destination check) and the edge's
/// tkeep rule; a NIC stopped at the frame's last beat answers to no address (protocol §1.1).
fn expect(f: &Frame, stopped: bool) -> Verdict {
    if f.keep != Keep::Good {
        return Verdict::Malformed;
    }
    match wire::parse(&f.bytes) {
        None => Verdict::Malformed,
        Some(h) if h.dst_nic != NIC || stopped => Verdict::Misaddressed,
        Some(h) => Verdict::Fwd(usize::from(!matches!(
            h.msg_type,
            MsgType::RdResp
                | MsgType::WrRdreq
                | MsgType::WrCmpl
                | MsgType::Nack
                | MsgType::AuthFail
                | MsgType::AccessErr
        ))),
    }
}

fn op_for(rng: &mut StdRng, m: MsgType) -> OpType {
    use MsgType as M;
    match m {
        M::RdReq | M::RdResp => OpType::Read,
        M::WrReq => OpType::Write,
        M::RekeyReq => OpType::Rekey,
        M::WrRdreq | M::WrData | M::WrCmpl => {
            if rng.random_bool(0.5) {
                OpType::Write
            } else {
                OpType::Rekey
            }
        }
        M::Nack | M::AuthFail | M::AccessErr => OpType::ALL[rng.random_range(0..3)],
    }
}

fn status_for(rng: &mut StdRng, m: MsgType) -> Status {
    match m {
        MsgType::WrCmpl => {
            if rng.random_bool(0.5) {
                Status::Ok
            } else {
                Status::RemoteAccessError
            }
        }
        MsgType::Nack => Status::Nack,
        MsgType::AuthFail => Status::RemoteAuthenticationFailure,
        MsgType::AccessErr => Status::RemoteAccessError,
        _ => Status::Ok,
    }
}

fn is_payload(m: MsgType) -> bool {
    matches!(m, MsgType::RdResp | MsgType::WrData)
}

fn is_hop1(m: MsgType) -> bool {
    matches!(m, MsgType::RdReq | MsgType::WrReq | MsgType::RekeyReq)
}

/// A random header legal by `wire::well_formed`, addressed to this NIC.
fn legal_hdr(rng: &mut StdRng, m: MsgType, big: bool) -> Hdr {
    let length: u16 = if big {
        rng.random_range(CHUNK..=4096)
    } else if rng.random_bool(0.3) {
        rng.random_range(1..=64)
    } else {
        rng.random_range(1..=4096)
    };
    let (chunk_offset, chunk_len) = if is_payload(m) {
        let n = wire::n_chunks(u32::from(length));
        let i = if big { 0 } else { rng.random_range(0..n) };
        (
            (i * wire::CHUNK) as u16,
            wire::chunk_len(u32::from(length), i) as u16,
        )
    } else {
        (0, 0)
    };
    let wctx = matches!(m, MsgType::WrRdreq | MsgType::WrData | MsgType::WrCmpl);
    let h = Hdr {
        msg_type: m,
        op_type: op_for(rng, m),
        status: status_for(rng, m),
        src_nic: rng.random(),
        dst_nic: NIC,
        counter: rng.random(),
        prev_counter: if is_hop1(m) { 0 } else { rng.random() },
        pid: rng.random(),
        region: rng.random(),
        slot: rng.random(),
        offset: rng.random(),
        length,
        chunk_offset,
        chunk_len,
        ctx: if wctx { rng.random() } else { 0 },
        hold_ns: if m == MsgType::WrRdreq {
            rng.random()
        } else {
            0
        },
    };
    debug_assert!(wire::well_formed(&h));
    h
}

fn frame_of(rng: &mut StdRng, h: &Hdr) -> Vec<u8> {
    let mut b = h.to_bytes().map(|a| a.to_vec()).unwrap_or_default();
    let n = usize::from(h.chunk_len) + 16;
    b.extend((0..n).map(|_| rng.random::<u8>()));
    b
}

/// Sets a big-endian field of `w` bytes at byte `at` of a serialised header.
fn put(b: &mut [u8], at: usize, w: usize, v: u64) {
    for i in 0..w {
        b[at + i] = (v >> (8 * (w - 1 - i))) as u8;
    }
}

/// Resizes the payload so the frame length matches the header's (new) chunk_len.
fn refit(rng: &mut StdRng, b: &mut Vec<u8>) {
    let cl = usize::from(u16::from_be_bytes([b[48], b[49]]));
    b.resize(64 + cl + 16, 0);
    for x in b.iter_mut().skip(64) {
        *x = rng.random();
    }
}

/// One random frame: mostly legal, else one rule broken.
fn random_frame(rng: &mut StdRng) -> Frame {
    let m = MsgType::ALL[rng.random_range(0..10)];
    let big = rng.random_bool(0.1);
    let h = legal_hdr(rng, m, big);
    let mut b = frame_of(rng, &h);
    let mut keep = Keep::Good;
    let kind = rng.random_range(0..40u32);
    let what = match kind {
        0 => {
            b.truncate(rng.random_range(1..80));
            "short"
        }
        1 => {
            // Payload longer or shorter than chunk_len claims.
            if rng.random_bool(0.5) {
                let k = rng.random_range(1..=40);
                b.extend((0..k).map(|_| rng.random::<u8>()));
            } else {
                let k = rng.random_range(1..=(b.len() - 64).min(40));
                b.truncate(b.len() - k);
            }
            "length mismatch"
        }
        2 => {
            b[0] = if rng.random_bool(0.2) {
                0
            } else {
                rng.random_range(11..=255)
            };
            "unknown msg_type"
        }
        3 => {
            b[1] = if rng.random_bool(0.2) {
                0
            } else {
                rng.random_range(4..=255)
            };
            "unknown op_type"
        }
        4 => {
            b[2] = rng.random_range(8..=255);
            "unknown status"
        }
        5 => {
            let at = if rng.random_bool(0.2) {
                3
            } else {
                rng.random_range(56..64)
            };
            b[at] |= 1 << rng.random_range(0..8);
            "reserved bits"
        }
        6 => {
            // op_type that msg_type does not allow (no such op for NACK/AUTH_FAIL/ACCESS_ERR).
            let bad: Vec<OpType> = OpType::ALL
                .iter()
                .copied()
                .filter(|o| {
                    let mut t = h.clone();
                    t.op_type = *o;
                    !wire::well_formed(&t)
                })
                .collect();
            if let Some(o) = bad.get(rng.random_range(0..bad.len().max(1))) {
                b[1] = *o as u8;
            }
            "msg/op mismatch"
        }
        7 => {
            let st = Status::ALL[rng.random_range(0..Status::ALL.len())];
            b[2] = st as u8;
            "status"
        }
        8 => {
            if is_payload(m) {
                if rng.random_bool(0.5) {
                    let off = u16::from_be_bytes([b[46], b[47]]);
                    put(&mut b, 46, 2, u64::from(off | rng.random_range(1..CHUNK)));
                } else {
                    let cl = u16::from_be_bytes([b[48], b[49]]);
                    let new = if cl > 1 && rng.random_bool(0.5) {
                        cl - 1
                    } else {
                        cl + 1
                    };
                    put(&mut b, 48, 2, u64::from(new));
                    refit(rng, &mut b);
                }
            } else if rng.random_bool(0.5) {
                put(&mut b, 48, 2, rng.random_range(1..=64));
                refit(rng, &mut b);
            } else {
                put(&mut b, 46, 2, u64::from(rng.random_range(1..=4u16) * CHUNK));
            }
            "chunk rule"
        }
        9 => {
            if is_hop1(m) {
                put(&mut b, 20, 8, rng.random_range(1..=u64::MAX));
            }
            "prev_counter"
        }
        10 => {
            put(&mut b, 50, 2, rng.random_range(1..=0xffff));
            "ctx"
        }
        11 => {
            put(&mut b, 52, 4, rng.random_range(1..=u64::from(u32::MAX)));
            "hold_ns"
        }
        12 => {
            put(
                &mut b,
                44,
                2,
                if rng.random_bool(0.5) {
                    0
                } else {
                    rng.random_range(4097..=0xffff)
                },
            );
            "length field"
        }
        13 => {
            // Oversize: past the longest legal frame, either by extra bytes or by a chunk_len
            // beyond CHUNK_BYTES with the frame length to match.
            if rng.random_bool(0.5) {
                let n = rng.random_range(MAX_FRAME + 1..=MAX_FRAME + 200);
                b.resize(n, 0xa5);
            } else {
                put(
                    &mut b,
                    48,
                    2,
                    u64::from(rng.random_range(CHUNK + 1..=CHUNK + 276)),
                );
                refit(rng, &mut b);
            }
            "oversize"
        }
        14 => {
            keep = if b.len() > 64 && rng.random_bool(0.5) {
                Keep::HoleBefore
            } else {
                Keep::BadLast
            };
            "tkeep"
        }
        15 | 16 => {
            put(
                &mut b,
                8,
                4,
                u64::from(NIC ^ rng.random_range(1..=u32::MAX)),
            );
            "misaddressed"
        }
        18 => {
            // A payload message naming a chunk at or beyond the op's end (size 0).
            if is_payload(m) {
                let len = rng.random_range(1..=3072u16);
                let first_missing = len.div_ceil(CHUNK);
                put(&mut b, 44, 2, u64::from(len));
                put(
                    &mut b,
                    46,
                    2,
                    u64::from(CHUNK * rng.random_range(first_missing..=4)),
                );
                put(&mut b, 48, 2, 0);
                refit(rng, &mut b);
            }
            "chunk beyond the op"
        }
        17 => {
            // Both: malformed wins.
            put(&mut b, 8, 4, u64::from(!NIC));
            b[3] = 1;
            "misaddressed and malformed"
        }
        _ => "legal",
    };
    Frame {
        bytes: b,
        keep,
        what,
    }
}

/// The beats of a frame at `bytes` lanes per beat.
fn beats(rng: &mut StdRng, f: &Frame, bytes: usize) -> Vec<Beat> {
    let n = f.bytes.len().div_ceil(bytes);
    let full: u64 = if bytes == 64 {
        u64::MAX
    } else {
        (1 << bytes) - 1
    };
    let mut out: Vec<Beat> = (0..n)
        .map(|i| {
            let chunk = &f.bytes[i * bytes..((i + 1) * bytes).min(f.bytes.len())];
            let mut data = chunk.to_vec();
            data.resize(bytes, 0);
            let k = chunk.len();
            Beat {
                data,
                keep: if k == bytes { full } else { (1 << k) - 1 },
                last: i + 1 == n,
            }
        })
        .collect();
    match f.keep {
        Keep::Good => {}
        Keep::HoleBefore if n > 1 => {
            let i = rng.random_range(0..n - 1);
            out[i].keep &= !(1 << rng.random_range(0..bytes));
        }
        _ => {
            let last = out.len() - 1;
            let k = out[last].keep;
            let m = k.count_ones();
            out[last].keep = match rng.random_range(0..3) {
                0 => 0,
                // A hole inside the prefix (or lane 0 clear).
                1 if m >= 2 => k & !(1 << rng.random_range(0..m - 1)),
                // Not starting at lane 0.
                _ if (m as usize) < bytes => k << 1,
                _ => k & !1,
            };
        }
    }
    out
}

// ---- The run.

struct Expected {
    frame: usize,
    hdr: Vec<u8>,
    tag: [u8; 16],
    payload: Vec<u8>,
    t_rx: u32,
}

#[allow(clippy::too_many_lines)]
fn run<D: Dut>(
    seed: u64,
    n_frames: usize,
    offer: u8,
    ready: [u8; 4],
) -> Result<(usize, usize, usize), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = D::fresh();
    let frames: Vec<Frame> = (0..n_frames).map(|_| random_frame(&mut rng)).collect();
    // One frame in ten arrives while the NIC is stopped (nic_enable held low over its beats).
    let stopped: Vec<bool> = frames.iter().map(|_| rng.random_bool(0.1)).collect();
    let verdicts: Vec<Verdict> = frames
        .iter()
        .zip(&stopped)
        .map(|(f, &s)| expect(f, s))
        .collect();
    let mut src: Source<(usize, Beat)> = Source::new(
        Throttle::eighths(rng.random(), offer).map_err(|e| TestCaseError::fail(e.to_string()))?,
    );
    for (i, f) in frames.iter().enumerate() {
        for b in beats(&mut rng, f, D::BYTES) {
            src.push((i, b));
        }
    }
    let mut thr: Vec<Throttle> = ready
        .iter()
        .map(|&p| Throttle::eighths(rng.random(), p))
        .collect::<Result<_, _>>()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let base: u32 = rng.random();
    // Per destination: forwarded frames whose descriptor is due, then whose payload is due.
    let mut desc_due: [VecDeque<Expected>; 2] = [VecDeque::new(), VecDeque::new()];
    let mut pay_due: [VecDeque<Expected>; 2] = [VecDeque::new(), VecDeque::new()];
    let mut pay_acc: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    let mut pay_beats: [usize; 2] = [0, 0];
    let mut pulse_due: VecDeque<(u64, Verdict)> = VecDeque::new();
    let (mut n_fwd, mut n_mal, mut n_mis) = (0, 0, 0);
    let mut cycle: u64 = 0;
    let mut idle = 0;
    let limit = 1000 * n_frames as u64 + 20_000;
    loop {
        let now = base.wrapping_add(cycle as u32);
        let offered = src.offer().cloned();
        let rdy: [bool; 4] = std::array::from_fn(|i| thr[i].go());
        let enable = offered
            .as_ref()
            .map_or_else(|| rng.random(), |(i, _)| !stopped[*i]);
        dut.set_inputs(now, offered.as_ref().map(|(_, b)| b), rdy, enable);
        dut.eval();

        // Drop pulses: exactly in the cycle after the dropped frame's last beat.
        let (mal, mis) = dut.drops();
        let due = pulse_due
            .front()
            .filter(|(c, _)| *c == cycle)
            .map(|(_, v)| v.clone());
        if due.is_some() {
            pulse_due.pop_front();
        }
        prop_assert_eq!(
            mal,
            due == Some(Verdict::Malformed),
            "cycle {}: drop_malformed_o",
            cycle
        );
        prop_assert_eq!(
            mis,
            due == Some(Verdict::Misaddressed),
            "cycle {}: drop_misaddressed_o",
            cycle
        );
        n_mal += usize::from(mal);
        n_mis += usize::from(mis);

        for d in 0..2 {
            if let Some((h, t, r)) = dut.desc(d) {
                let e = desc_due[d].front();
                prop_assert!(
                    e.is_some(),
                    "cycle {}: descriptor on {} with none due",
                    cycle,
                    d
                );
                if let Some(e) = e {
                    prop_assert_eq!(&h, &e.hdr, "cycle {}: frame {} header", cycle, e.frame);
                    prop_assert_eq!(t, e.tag, "cycle {}: frame {} tag", cycle, e.frame);
                    prop_assert_eq!(r, e.t_rx, "cycle {}: frame {} t_rx", cycle, e.frame);
                }
                if rdy[2 * d]
                    && let Some(e) = desc_due[d].pop_front()
                {
                    n_fwd += 1;
                    if !e.payload.is_empty() {
                        pay_due[d].push_back(e);
                    }
                }
            }
            if let Some(b) = dut.pay(d) {
                // Only after its descriptor was accepted (an earlier cycle).
                let e = pay_due[d].front();
                prop_assert!(
                    e.is_some(),
                    "cycle {}: payload on {} before its descriptor",
                    cycle,
                    d
                );
                if rdy[2 * d + 1]
                    && let Some(e) = e
                {
                    let off = pay_beats[d] * D::BYTES;
                    let rest = e.payload.len() - off.min(e.payload.len());
                    prop_assert!(rest > 0, "frame {}: payload beat beyond chunk_len", e.frame);
                    let n = rest.min(D::BYTES);
                    let full: u64 = if D::BYTES == 64 {
                        u64::MAX
                    } else {
                        (1 << D::BYTES) - 1
                    };
                    let keep = if n == D::BYTES { full } else { (1u64 << n) - 1 };
                    prop_assert_eq!(
                        b.keep,
                        keep,
                        "frame {}: keep of beat {}",
                        e.frame,
                        pay_beats[d]
                    );
                    prop_assert_eq!(b.last, rest <= D::BYTES, "frame {}: last", e.frame);
                    pay_acc[d].extend_from_slice(&b.data[..n]);
                    pay_beats[d] += 1;
                    if b.last {
                        prop_assert_eq!(
                            &pay_acc[d],
                            &e.payload,
                            "frame {}: payload bytes",
                            e.frame
                        );
                        pay_acc[d].clear();
                        pay_beats[d] = 0;
                        pay_due[d].pop_front();
                    }
                }
            }
        }

        let in_ready = dut.in_ready();
        if let Some((i, b)) = src.handshake(in_ready)
            && b.last
        {
            let f = &frames[i];
            match &verdicts[i] {
                Verdict::Fwd(d) => {
                    let n = f.bytes.len();
                    desc_due[*d].push_back(Expected {
                        frame: i,
                        hdr: f.bytes[..64].to_vec(),
                        tag: f.bytes[n - 16..].try_into().unwrap_or([0; 16]),
                        payload: f.bytes[64..n - 16].to_vec(),
                        t_rx: now,
                    });
                }
                v => pulse_due.push_back((cycle + 1, v.clone())),
            }
        }
        dut.tick();
        cycle += 1;
        let quiet = src.is_idle()
            && pulse_due.is_empty()
            && desc_due.iter().all(VecDeque::is_empty)
            && pay_due.iter().all(VecDeque::is_empty);
        if quiet {
            idle += 1;
            if idle > 8 {
                break;
            }
        }
        prop_assert!(
            cycle < limit,
            "wedged: {} frames, {} beats sent",
            n_frames,
            src.sent()
        );
    }
    let want_fwd = verdicts
        .iter()
        .filter(|v| matches!(v, Verdict::Fwd(_)))
        .count();
    let want_mal = verdicts
        .iter()
        .filter(|v| **v == Verdict::Malformed)
        .count();
    let want_mis = verdicts
        .iter()
        .filter(|v| **v == Verdict::Misaddressed)
        .count();
    prop_assert_eq!((n_fwd, n_mal, n_mis), (want_fwd, want_mal, want_mis));
    Ok((n_fwd, n_mal, n_mis))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn small_frames_match_model(
        seed in any::<u64>(), n in 1usize..120, offer in 1u8..=8,
        ready in proptest::array::uniform4(1u8..=8),
    ) {
        run::<onerma_rtl::rx_parse::Model>(seed, n, offer, ready)?;
    }

    #[test]
    fn default_frames_match_model(
        seed in any::<u64>(), n in 1usize..120, offer in 1u8..=8,
        ready in proptest::array::uniform4(1u8..=8),
    ) {
        run::<onerma_rtl::rx_parse_default::Model>(seed, n, offer, ready)?;
    }
}

/// Every kind of frame shows up and every verdict is reached, at both widths, with fixed seeds.
#[test]
fn every_rule_every_width() {
    for seed in 0..4u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut kinds = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            kinds.insert(random_frame(&mut rng).what);
        }
        assert_eq!(kinds.len(), 19, "generator covers every rule: {kinds:?}");
        let small = run::<onerma_rtl::rx_parse::Model>(seed, 400, 6, [5, 6, 7, 4]);
        let (f, m, a) = small.unwrap_or_else(|e| panic!("small, seed {seed}: {e}"));
        println!("seed {seed}, 128-bit: {f} forwarded, {m} malformed, {a} misaddressed");
        assert!(
            f > 0 && m > 0 && a > 0,
            "small: {f} forwarded, {m} malformed, {a} misaddressed"
        );
        let big = run::<onerma_rtl::rx_parse_default::Model>(seed, 400, 8, [8, 8, 8, 8]);
        let (f, m, a) = big.unwrap_or_else(|e| panic!("default, seed {seed}: {e}"));
        println!("seed {seed}, 512-bit: {f} forwarded, {m} malformed, {a} misaddressed");
        assert!(
            f > 0 && m > 0 && a > 0,
            "default: {f} forwarded, {m} malformed, {a} misaddressed"
        );
    }
}

/// Input beats per cycle with always-ready outputs and no gaps, for a stream of frames built by
/// `make`: from the first offered beat to the last accepted one.
fn throughput<D: Dut>(make: impl Fn(&mut StdRng) -> Hdr, n: usize) -> f64 {
    let mut rng = StdRng::seed_from_u64(7);
    let mut dut = D::fresh();
    let mut src: Source<Beat> = Source::new(Throttle::always());
    let mut total = 0usize;
    for _ in 0..n {
        let h = make(&mut rng);
        let f = Frame {
            bytes: frame_of(&mut rng, &h),
            keep: Keep::Good,
            what: "legal",
        };
        assert!(matches!(expect(&f, false), Verdict::Fwd(_)));
        for b in beats(&mut rng, &f, D::BYTES) {
            src.push(b);
            total += 1;
        }
    }
    let mut cycles = 0u64;
    while !src.is_idle() {
        let b = src.offer().cloned();
        dut.set_inputs(cycles as u32, b.as_ref(), [true; 4], true);
        dut.eval();
        src.handshake(dut.in_ready());
        dut.tick();
        cycles += 1;
        assert!(cycles < 100 * total as u64, "wedged");
    }
    total as f64 / cycles as f64
}

fn chunk_full(rng: &mut StdRng) -> Hdr {
    let mut h = legal_hdr(rng, MsgType::RdResp, true);
    h.length = 4096;
    h.chunk_offset = CHUNK * rng.random_range(0..onerma_layouts::MAX_CHUNKS as u16);
    h.chunk_len = CHUNK;
    h
}

fn no_payload(rng: &mut StdRng) -> Hdr {
    let m = [
        MsgType::RdReq,
        MsgType::WrCmpl,
        MsgType::Nack,
        MsgType::WrReq,
    ][rng.random_range(0..4)];
    legal_hdr(rng, m, false)
}

#[test]
fn full_rate_back_to_back() {
    let figures = [
        (
            "128-bit, whole chunks",
            throughput::<onerma_rtl::rx_parse::Model>(chunk_full, 50),
        ),
        (
            "128-bit, 80-byte frames",
            throughput::<onerma_rtl::rx_parse::Model>(no_payload, 200),
        ),
        (
            "512-bit, whole chunks",
            throughput::<onerma_rtl::rx_parse_default::Model>(chunk_full, 50),
        ),
        (
            "512-bit, 80-byte frames",
            throughput::<onerma_rtl::rx_parse_default::Model>(no_payload, 200),
        ),
    ];
    for (name, bpc) in figures {
        println!("rx_parse throughput, {name}: {bpc:.3} beats/cycle");
        assert!(bpc == 1.0, "{name}: {bpc} beats/cycle, want 1");
    }
}
