//! Driver for the AES-GCM engine and pool tops (`gcm_*` of onerma-rtl): feeds messages through
//! the valid/ready ports with seeded random stalls, checks the output stream rule and collects
//! the results. Used by `tests/gcm.rs` and by the `onerma` CLI (`bench`, `gcm-vectors`). Port
//! formats: docs/crypto.md, section "Data formats".
//!
//! The descriptor and data-in ports are [`Source`]s, dout and res are [`Sink`]s, each output
//! watched by a [`RuleMonitor`]; every port has its own [`Throttle`], seeded from the run seed.

use crate::bits::{self, Block, get_bits, put_bits};
use crate::stream::{RuleMonitor, Sink, Source, StreamError, Throttle};

/// Widest lengths the tops take (`LenW` = 16).
pub const MAX_LEN: usize = 0xffff;

/// Errors from a driver run.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum GcmError {
    #[error("message {index}: {what} length {len} exceeds {MAX_LEN} bytes")]
    TooLong {
        index: usize,
        what: &'static str,
        len: usize,
    },
    #[error("message {index}: meta {meta} is already used by another message of the run")]
    DuplicateMeta { index: usize, meta: u8 },
    #[error("no progress: {done} of {total} messages finished after {cycles} cycles")]
    Timeout {
        done: usize,
        total: usize,
        cycles: u64,
    },
    /// An output broke the stream rule (the error names the port and the cycle), or a stall
    /// probability is not in 0..=1.
    #[error(transparent)]
    Stream(#[from] StreamError),
    #[error("cycle {cycle}: {port} carried meta {meta}, which no unfinished message has")]
    UnknownMeta {
        port: &'static str,
        meta: u8,
        cycle: u64,
    },
    #[error("message with meta {meta}: {what}")]
    Malformed { meta: u8, what: String },
}

/// One message to encrypt or decrypt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GcmMsg {
    pub key: [u8; 16],
    pub iv: [u8; 12],
    pub aad: Vec<u8>,
    /// Plaintext when encrypting, ciphertext when decrypting.
    pub data: Vec<u8>,
    pub decrypt: bool,
    /// Expected tag when decrypting (ignored by the engine when encrypting).
    pub tag: [u8; 16],
    /// Must be unique within one [`run`].
    pub meta: u8,
}

/// What the RTL returned for one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GcmOutcome {
    pub meta: u8,
    /// Ciphertext or plaintext, trimmed to the message length.
    pub data: Vec<u8>,
    pub tag: [u8; 16],
    pub auth_ok: bool,
    /// Cycle of the descriptor handshake and of the result handshake.
    pub desc_cycle: u64,
    pub result_cycle: u64,
}

/// Probability (0..=1) that a port is active in a cycle: a source offers a new item, a sink is
/// ready. 1.0 everywhere means no stalls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stalls {
    pub desc: f64,
    pub din: f64,
    pub dout: f64,
    pub res: f64,
}

impl Stalls {
    pub const NONE: Stalls = Stalls {
        desc: 1.0,
        din: 1.0,
        dout: 1.0,
        res: 1.0,
    };
}

/// Result of [`run`]: outcomes in submission order plus timing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GcmRun {
    pub outcomes: Vec<GcmOutcome>,
    /// Cycles from the start of the run to the last output handshake.
    pub cycles: u64,
}

/// Words of the tops' packed-struct ports (LenW = 16, 8-bit meta): desc_t is 393 bits, dout_t
/// and res_t 137 bits each (onerma_gcm_engine).
pub const DESC_WORDS: usize = 13;
pub const BEAT_WORDS: usize = 5;

/// The ports every GCM top has (engine and pool share them), as port words. A top with
/// `LANES` > 1 (a pool of onerma_gcm_lane) carries `LANES` beats per din and dout word: din is
/// `4 * LANES` port words, dout `{data, last, meta}` with `LANES * 128` data bits.
pub trait GcmPorts {
    /// 128-bit beats per din / dout word.
    const LANES: usize = 1;
    fn eval(&mut self);
    fn tick(&mut self);
    fn reset(&mut self, cycles: u32);
    fn cycle(&self) -> u64;
    /// Drives desc_valid_i and desc_data_i (see [`pack_desc`]); `None`: valid low, data zero.
    fn set_desc(&mut self, desc: Option<&[u32; DESC_WORDS]>);
    fn desc_ready(&self) -> bool;
    /// Drives din_valid_i and din_data_i (`4 * LANES` port words: see [`din_word`]); `None`:
    /// valid low, data zero.
    fn set_din(&mut self, word: Option<&[u32]>);
    fn din_ready(&self) -> bool;
    fn set_dout_ready(&mut self, ready: bool);
    /// dout_data_o while dout_valid_o is high (see [`unpack_word`]).
    fn dout(&self) -> Option<Vec<u32>>;
    fn set_res_ready(&mut self, ready: bool);
    /// res_data_o while res_valid_o is high (see [`unpack_beat`]).
    fn res(&self) -> Option<[u32; BEAT_WORDS]>;
}

// Bit offsets (lsb) of the fields in the packed structs, whose first field is the most
// significant: desc_t {key, iv, aad_len, pt_len, decrypt, tag, meta}.
const DESC_META: usize = 0;
const DESC_TAG: usize = 8;
const DESC_DECRYPT: usize = 136;
const DESC_PT_LEN: usize = 137;
const DESC_AAD_LEN: usize = 153;
const DESC_IV: usize = 169;
const DESC_KEY: usize = 265;
// dout_t {data, last, meta} and res_t {tag, auth_ok, meta} share one shape.
const BEAT_META: usize = 0;
const BEAT_FLAG: usize = 8;
const BEAT_DATA: usize = 9;

fn words_to_u128(w: &[u32]) -> u128 {
    w.iter()
        .enumerate()
        .fold(0u128, |acc, (i, &x)| acc | (u128::from(x) << (32 * i)))
}

fn u128_to_words(v: u128) -> [u32; 4] {
    std::array::from_fn(|i| (v >> (32 * i)) as u32)
}

/// The desc_data_i port value of one descriptor (key, tag as port words, see
/// [`bits::to_words`]).
#[allow(clippy::too_many_arguments)]
pub fn pack_desc(
    key: &[u32; 4],
    iv: &[u32; 3],
    aad_len: u16,
    pt_len: u16,
    decrypt: bool,
    tag: &[u32; 4],
    meta: u8,
) -> [u32; DESC_WORDS] {
    let mut w = [0u32; DESC_WORDS];
    put_bits(&mut w, DESC_KEY, 128, words_to_u128(key));
    put_bits(&mut w, DESC_IV, 96, words_to_u128(iv));
    put_bits(&mut w, DESC_AAD_LEN, 16, u128::from(aad_len));
    put_bits(&mut w, DESC_PT_LEN, 16, u128::from(pt_len));
    put_bits(&mut w, DESC_DECRYPT, 1, u128::from(decrypt));
    put_bits(&mut w, DESC_TAG, 128, words_to_u128(tag));
    put_bits(&mut w, DESC_META, 8, u128::from(meta));
    w
}

/// One dout (flag = last) or res (data = tag, flag = auth_ok) transfer, unpacked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Beat {
    pub data: [u32; 4],
    pub flag: bool,
    pub meta: u8,
}

/// The fields of a dout_data_o or res_data_o value.
pub fn unpack_beat(w: &[u32; BEAT_WORDS]) -> Beat {
    Beat {
        data: u128_to_words(get_bits(w, BEAT_DATA, 128)),
        flag: get_bits(w, BEAT_FLAG, 1) != 0,
        meta: get_bits(w, BEAT_META, 8) as u8,
    }
}

/// A dout word `{data (lanes x 128 bits), last, meta}` as its beats (beat 0 first), last and
/// meta.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub beats: Vec<[u32; 4]>,
    pub last: bool,
    pub meta: u8,
}

/// Splits a dout word of `lanes` beats (beat j in data bits `[(lanes - j) * 128 - 1 -: 128]`).
pub fn unpack_word(w: &[u32], lanes: usize) -> Word {
    Word {
        beats: (0..lanes)
            .map(|j| u128_to_words(get_bits(w, BEAT_DATA + (lanes - 1 - j) * 128, 128)))
            .collect(),
        last: get_bits(w, BEAT_FLAG, 1) != 0,
        meta: get_bits(w, BEAT_META, 8) as u8,
    }
}

/// The din port words of a word of `lanes` beats: beat j (as [`bits::to_words`] gives it) in
/// data bits `[(lanes - j) * 128 - 1 -: 128]`; missing beats are zero.
pub fn din_word(beats: &[Block], lanes: usize) -> Vec<u32> {
    let mut w = vec![0u32; 4 * lanes];
    for (j, b) in beats.iter().enumerate().take(lanes) {
        let at = 4 * (lanes - 1 - j);
        w[at..at + 4].copy_from_slice(&bits::to_words(b));
    }
    w
}

/// Implements [`GcmPorts`] for generated model modules with the engine's port names and `lanes`
/// beats per word.
macro_rules! impl_gcm_ports {
    ($lanes:literal: $($m:path),* $(,)?) => {$(
        impl GcmPorts for $m {
            const LANES: usize = $lanes;
            fn eval(&mut self) {
                <$m>::eval(self)
            }
            fn tick(&mut self) {
                <$m>::tick(self)
            }
            fn reset(&mut self, cycles: u32) {
                <$m>::reset(self, cycles)
            }
            fn cycle(&self) -> u64 {
                <$m>::cycle(self)
            }
            fn set_desc(&mut self, desc: Option<&[u32; DESC_WORDS]>) {
                self.set_desc_valid_i(u8::from(desc.is_some()));
                self.set_desc_data_i(desc.unwrap_or(&[0; DESC_WORDS]));
            }
            fn desc_ready(&self) -> bool {
                self.desc_ready_o() != 0
            }
            fn set_din(&mut self, word: Option<&[u32]>) {
                let mut w = [0u32; 4 * $lanes];
                if let Some(x) = word {
                    w.copy_from_slice(x);
                }
                self.set_din_valid_i(u8::from(word.is_some()));
                self.set_din_data_i(&w);
            }
            fn din_ready(&self) -> bool {
                self.din_ready_o() != 0
            }
            fn set_dout_ready(&mut self, ready: bool) {
                self.set_dout_ready_i(u8::from(ready));
            }
            fn dout(&self) -> Option<Vec<u32>> {
                (self.dout_valid_o() != 0).then(|| self.dout_data_o().to_vec())
            }
            fn set_res_ready(&mut self, ready: bool) {
                self.set_res_ready_i(u8::from(ready));
            }
            fn res(&self) -> Option<[u32; BEAT_WORDS]> {
                (self.res_valid_o() != 0).then(|| self.res_data_o())
            }
        }
    )*};
}

impl_gcm_ports!(1:
    onerma_rtl::gcm_pipe::Model,
    onerma_rtl::gcm_iter::Model,
    onerma_rtl::gcm_pool_iter::Model,
);
#[cfg(feature = "crypto-bench")]
impl_gcm_ports!(1: onerma_rtl::gcm_pool::Model);
impl_gcm_ports!(4: onerma_rtl::gcm_pool_wide::Model);

fn iv_to_words(iv: &[u8; 12]) -> [u32; 3] {
    std::array::from_fn(|i| {
        let o = 8 - 4 * i;
        u32::from_be_bytes([iv[o], iv[o + 1], iv[o + 2], iv[o + 3]])
    })
}

/// The 16-byte beats of a message part, the last one zero-padded.
fn beats(part: &[u8]) -> impl Iterator<Item = Block> + '_ {
    part.chunks(16).map(|c| {
        let mut b = [0u8; 16];
        b[..c.len()].copy_from_slice(c);
        b
    })
}

/// A descriptor waiting in the source: the message it belongs to and its port value.
#[derive(Clone)]
struct Desc {
    index: usize,
    port: [u32; DESC_WORDS],
}

/// A message whose descriptor the DUT took and whose outputs are not all in yet.
struct Pending {
    index: usize,
    desc_cycle: u64,
    data: Vec<u8>,
    beats_seen: usize,
    beats_total: usize,
    result: Option<(Block, bool, u64)>,
}

/// Multiplier that spreads the run seed into one seed per port (the 64-bit golden ratio).
const PORT_SEED_STEP: u64 = 0x9e37_79b9_7f4a_7c15;

fn throttle(seed: u64, port: u64, p: f64) -> Result<Throttle, StreamError> {
    Throttle::new(seed ^ port.wrapping_mul(PORT_SEED_STEP), p)
}

/// Moves the message of `slot` to `done` once it has its result and all its payload beats;
/// returns whether it did.
fn complete(slot: &mut Option<Pending>, meta: u8, done: &mut [Option<GcmOutcome>]) -> bool {
    let ready = slot
        .as_ref()
        .is_some_and(|p| p.result.is_some() && p.beats_seen == p.beats_total);
    if !ready {
        return false;
    }
    match slot.take() {
        Some(Pending {
            index,
            desc_cycle,
            data,
            result: Some((tag, auth_ok, result_cycle)),
            ..
        }) => {
            done[index] = Some(GcmOutcome {
                meta,
                data,
                tag,
                auth_ok,
                desc_cycle,
                result_cycle,
            });
            true
        }
        _ => false,
    }
}

/// Sends `msgs` through a reset model and returns what came out. The model is not reset here.
/// Fails on a stall probability outside 0..=1, a stream-rule violation, an unexpected output,
/// or if nothing moves for `idle_limit` cycles.
pub fn run<M: GcmPorts>(
    m: &mut M,
    msgs: &[GcmMsg],
    stalls: Stalls,
    seed: u64,
    idle_limit: u64,
) -> Result<GcmRun, GcmError> {
    let mut metas = [false; 256];
    for (index, msg) in msgs.iter().enumerate() {
        for (what, len) in [("AAD", msg.aad.len()), ("payload", msg.data.len())] {
            if len > MAX_LEN {
                return Err(GcmError::TooLong { index, what, len });
            }
        }
        if std::mem::replace(&mut metas[usize::from(msg.meta)], true) {
            return Err(GcmError::DuplicateMeta {
                index,
                meta: msg.meta,
            });
        }
    }
    let mut desc = Source::new(throttle(seed, 1, stalls.desc)?);
    let mut din = Source::new(throttle(seed, 2, stalls.din)?);
    let mut dout = Sink::new(throttle(seed, 3, stalls.dout)?);
    let mut res = Sink::new(throttle(seed, 4, stalls.res)?);
    let mut dout_rule = RuleMonitor::new("dout");
    let mut res_rule = RuleMonitor::new("res");
    for (index, msg) in msgs.iter().enumerate() {
        desc.push(Desc {
            index,
            // Lengths fit in 16 bits: checked above.
            port: pack_desc(
                &bits::to_words(&msg.key),
                &iv_to_words(&msg.iv),
                msg.aad.len() as u16,
                msg.data.len() as u16,
                msg.decrypt,
                &bits::to_words(&msg.tag),
                msg.meta,
            ),
        });
    }
    // Unfinished messages by meta.
    let mut pending: Vec<Option<Pending>> = (0..256).map(|_| None).collect();
    let mut done: Vec<Option<GcmOutcome>> = vec![None; msgs.len()];
    let mut finished = 0usize;
    let start = m.cycle();
    let mut last_progress = start;
    let mut last_output = start;

    while finished < msgs.len() {
        let cycle = m.cycle();
        if cycle - last_progress > idle_limit {
            return Err(GcmError::Timeout {
                done: finished,
                total: msgs.len(),
                cycles: cycle - start,
            });
        }
        m.set_desc(desc.offer().map(|d| &d.port));
        m.set_din(din.offer().map(Vec::as_slice));
        let dout_ready = dout.ready();
        let res_ready = res.ready();
        m.set_dout_ready(dout_ready);
        m.set_res_ready(res_ready);
        m.eval();

        if let Some(d) = desc.handshake(m.desc_ready()) {
            let msg = &msgs[d.index];
            pending[usize::from(msg.meta)] = Some(Pending {
                index: d.index,
                desc_cycle: cycle,
                data: Vec::with_capacity(msg.data.len()),
                beats_seen: 0,
                beats_total: msg.data.len().div_ceil(16),
                result: None,
            });
            // Each part starts in a new word.
            for part in [&msg.aad, &msg.data] {
                let part: Vec<Block> = beats(part).collect();
                for w in part.chunks(M::LANES) {
                    din.push(din_word(w, M::LANES));
                }
            }
            last_progress = cycle;
        }
        if din.handshake(m.din_ready()).is_some() {
            last_progress = cycle;
        }

        let out = m.dout().map(|w| unpack_word(&w, M::LANES));
        dout_rule.check(cycle, out.is_some(), dout_ready, &out)?;
        if let (true, Some(word)) = (dout.handshake(out.clone()), out) {
            let slot = &mut pending[usize::from(word.meta)];
            let p = slot.as_mut().ok_or(GcmError::UnknownMeta {
                port: "dout",
                meta: word.meta,
                cycle,
            })?;
            let left = p.beats_total.saturating_sub(p.beats_seen);
            if left == 0 {
                return Err(GcmError::Malformed {
                    meta: word.meta,
                    what: "more payload beats than the message has".into(),
                });
            }
            // Only the word with the message's last beat may be short.
            let n = left.min(M::LANES);
            p.beats_seen += n;
            let expect_last = p.beats_seen == p.beats_total;
            if word.last != expect_last {
                return Err(GcmError::Malformed {
                    meta: word.meta,
                    what: format!("last = {} on payload beat {}", word.last, p.beats_seen),
                });
            }
            let len = msgs[p.index].data.len();
            for (j, beat) in word.beats.iter().enumerate() {
                let bytes = bits::from_words(beat);
                let keep = if j < n {
                    (len - p.data.len()).min(16)
                } else {
                    0
                };
                if bytes[keep..].iter().any(|&b| b != 0) {
                    return Err(GcmError::Malformed {
                        meta: word.meta,
                        what: "bytes past the end of the payload are not zero".into(),
                    });
                }
                p.data.extend_from_slice(&bytes[..keep]);
            }
            finished += usize::from(complete(slot, word.meta, &mut done));
            last_progress = cycle;
            last_output = cycle;
        }

        let out = m.res().map(|w| unpack_beat(&w));
        res_rule.check(cycle, out.is_some(), res_ready, &out)?;
        if let (true, Some(beat)) = (res.handshake(out), out) {
            let slot = &mut pending[usize::from(beat.meta)];
            let p = slot.as_mut().ok_or(GcmError::UnknownMeta {
                port: "res",
                meta: beat.meta,
                cycle,
            })?;
            if p.result.is_some() {
                return Err(GcmError::Malformed {
                    meta: beat.meta,
                    what: "second result".into(),
                });
            }
            p.result = Some((bits::from_words(&beat.data), beat.flag, cycle));
            finished += usize::from(complete(slot, beat.meta, &mut done));
            last_progress = cycle;
            last_output = cycle;
        }
        m.tick();
    }
    Ok(GcmRun {
        outcomes: done.into_iter().flatten().collect(),
        cycles: last_output + 1 - start,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn desc_fields_tile_the_port() {
        // Every field at its offset, nothing overlapping: all-ones fields fill exactly 393 bits.
        let w = pack_desc(
            &[u32::MAX; 4],
            &[u32::MAX; 3],
            0xffff,
            0xffff,
            true,
            &[u32::MAX; 4],
            0xff,
        );
        let ones: u32 = w.iter().map(|x| x.count_ones()).sum();
        assert_eq!(ones, 393);
        assert_eq!(w[DESC_WORDS - 1], (1 << (393 - 32 * 12)) - 1);
    }

    #[test]
    fn desc_fields_land_where_the_struct_puts_them() {
        let key = [0x0302_0100, 0x0706_0504, 0x0b0a_0908, 0x0f0e_0d0c];
        let tag = [0x1312_1110, 0x1716_1514, 0x1b1a_1918, 0x1f1e_1d1c];
        let iv = [0x2322_2120, 0x2726_2524, 0x2b2a_2928];
        let w = pack_desc(&key, &iv, 0x1234, 0xabcd, true, &tag, 0x5a);
        assert_eq!(get_bits(&w, DESC_META, 8), 0x5a);
        assert_eq!(get_bits(&w, DESC_TAG, 128), words_to_u128(&tag));
        assert_eq!(get_bits(&w, DESC_DECRYPT, 1), 1);
        assert_eq!(get_bits(&w, DESC_PT_LEN, 16), 0xabcd);
        assert_eq!(get_bits(&w, DESC_AAD_LEN, 16), 0x1234);
        assert_eq!(get_bits(&w, DESC_IV, 96), words_to_u128(&iv));
        assert_eq!(get_bits(&w, DESC_KEY, 128), words_to_u128(&key));
    }

    #[test]
    fn beat_unpacks_data_flag_meta() {
        let mut w = [0u32; BEAT_WORDS];
        let data = [0x0403_0201, 0x0807_0605, 0x0c0b_0a09, 0x100f_0e0d];
        put_bits(&mut w, BEAT_DATA, 128, words_to_u128(&data));
        put_bits(&mut w, BEAT_FLAG, 1, 1);
        put_bits(&mut w, BEAT_META, 8, 0xc3);
        assert_eq!(
            unpack_beat(&w),
            Beat {
                data,
                flag: true,
                meta: 0xc3
            }
        );
        // Port bits 136:128 are data bits 127:119.
        assert_eq!(w[4], 0x100f_0e0d >> 23);
    }

    fn msg(meta: u8, aad: usize, data: usize) -> GcmMsg {
        GcmMsg {
            key: [1; 16],
            iv: [2; 12],
            aad: vec![3; aad],
            data: vec![4; data],
            decrypt: false,
            tag: [0; 16],
            meta,
        }
    }

    #[test]
    fn bad_runs_are_refused_before_the_first_cycle() {
        let mut m = onerma_rtl::gcm_iter::Model::new();
        let mut try_run = |msgs: &[GcmMsg], stalls| run(&mut m, msgs, stalls, 0, 100);
        assert_eq!(
            try_run(&[msg(0, 0, MAX_LEN + 1)], Stalls::NONE),
            Err(GcmError::TooLong {
                index: 0,
                what: "payload",
                len: MAX_LEN + 1
            })
        );
        assert_eq!(
            try_run(&[msg(5, 0, 0), msg(5, 16, 0)], Stalls::NONE),
            Err(GcmError::DuplicateMeta { index: 1, meta: 5 })
        );
        let stalls = Stalls {
            din: 1.5,
            ..Stalls::NONE
        };
        assert_eq!(
            try_run(&[msg(0, 0, 0)], stalls),
            Err(GcmError::Stream(StreamError::Probability(1.5)))
        );
        assert_eq!(m.cycle(), 0, "the model was not touched");
    }

    #[test]
    fn stalls_cost_cycles_not_results() {
        let msgs: Vec<GcmMsg> = (0..3).map(|i| msg(i, 20, 50 + usize::from(i))).collect();
        let mut m = onerma_rtl::gcm_iter::Model::new();
        m.reset(2);
        let free = run(&mut m, &msgs, Stalls::NONE, 1, 1_000).expect("run without stalls");
        let stalls = Stalls {
            desc: 0.3,
            din: 0.3,
            dout: 0.3,
            res: 0.3,
        };
        m.reset(2);
        let slow = run(&mut m, &msgs, stalls, 1, 1_000).expect("run with stalls");
        let strip = |r: &GcmRun| {
            r.outcomes
                .iter()
                .map(|o| (o.meta, o.data.clone(), o.tag, o.auth_ok))
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&free), strip(&slow));
        assert_eq!(free.outcomes.len(), 3);
        assert!(
            slow.cycles > free.cycles,
            "{} vs {}",
            slow.cycles,
            free.cycles
        );
    }

    #[test]
    fn a_stuck_model_times_out() {
        // Outputs never taken: once the inputs are in, nothing moves.
        let mut m = onerma_rtl::gcm_iter::Model::new();
        m.reset(2);
        let stalls = Stalls {
            dout: 0.0,
            res: 0.0,
            ..Stalls::NONE
        };
        let got = run(&mut m, &[msg(0, 16, 16)], stalls, 0, 50);
        assert!(
            matches!(
                got,
                Err(GcmError::Timeout {
                    done: 0,
                    total: 1,
                    ..
                })
            ),
            "{got:?}"
        );
    }
}
