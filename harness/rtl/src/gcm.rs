//! Driver for the AES-GCM engine and pool tops (`gcm_*`): feeds messages through the
//! valid/ready ports with optional random stalls, checks the output stream rule and collects
//! the results. Port formats: docs/crypto.md, section "GCM engine".

use std::collections::{BTreeMap, VecDeque};

/// Widest lengths the tops take (`LenW` = 16).
pub const MAX_LEN: usize = 0xffff;

/// Errors from a driver run.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
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
    #[error("cycle {cycle}: {port} dropped valid or changed its payload before ready")]
    StreamRule { port: &'static str, cycle: u64 },
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

/// The ports every GCM top has (engine and pool share them).
pub trait GcmPorts {
    fn eval(&mut self);
    fn tick(&mut self);
    fn reset(&mut self, cycles: u32);
    fn cycle(&self) -> u64;
    #[allow(clippy::too_many_arguments)]
    fn set_desc(
        &mut self,
        valid: bool,
        key: &[u32; 4],
        iv: &[u32; 3],
        aad_len: u16,
        pt_len: u16,
        decrypt: bool,
        tag: &[u32; 4],
        meta: u8,
    );
    fn desc_ready(&self) -> bool;
    fn set_din(&mut self, valid: bool, data: &[u32; 4]);
    fn din_ready(&self) -> bool;
    fn set_dout_ready(&mut self, ready: bool);
    /// (valid, data, last, meta)
    fn dout(&self) -> (bool, [u32; 4], bool, u8);
    fn set_res_ready(&mut self, ready: bool);
    /// (valid, tag, auth_ok, meta)
    fn res(&self) -> (bool, [u32; 4], bool, u8);
}

/// Words of the tops' packed-struct ports (LenW = 16, 8-bit meta): desc_t is 393 bits, dout_t
/// and res_t 137 bits each (onerma_gcm_engine).
pub const DESC_WORDS: usize = 13;
pub const BEAT_WORDS: usize = 5;

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

/// Writes the low `width` bits of `v` at bit `lsb` of a port value (word 0 = bits 31:0).
fn put_bits(dst: &mut [u32], lsb: usize, width: usize, v: u128) {
    let mut i = 0;
    while i < width {
        let (w, b) = ((lsb + i) / 32, (lsb + i) % 32);
        let n = (32 - b).min(width - i);
        let mask = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        dst[w] = (dst[w] & !(mask << b)) | ((((v >> i) as u32) & mask) << b);
        i += n;
    }
}

/// Reads `width` bits at bit `lsb` of a port value.
fn get_bits(src: &[u32], lsb: usize, width: usize) -> u128 {
    let mut v = 0u128;
    let mut i = 0;
    while i < width {
        let (w, b) = ((lsb + i) / 32, (lsb + i) % 32);
        let n = (32 - b).min(width - i);
        let mask = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        v |= u128::from((src[w] >> b) & mask) << i;
        i += n;
    }
    v
}

/// The desc_data_i port value of one descriptor (key, tag as port words, see
/// [`block_to_words`]).
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

/// (data, flag, meta) of a dout_data_o (flag = last) or res_data_o (flag = auth_ok) value.
pub fn unpack_beat(w: &[u32; BEAT_WORDS]) -> ([u32; 4], bool, u8) {
    (
        u128_to_words(get_bits(w, BEAT_DATA, 128)),
        get_bits(w, BEAT_FLAG, 1) != 0,
        get_bits(w, BEAT_META, 8) as u8,
    )
}

/// Implements [`GcmPorts`] for a generated model module with the engine's port names.
#[macro_export]
macro_rules! impl_gcm_ports {
    ($m:path) => {
        impl $crate::gcm::GcmPorts for $m {
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
            fn set_desc(
                &mut self,
                valid: bool,
                key: &[u32; 4],
                iv: &[u32; 3],
                aad_len: u16,
                pt_len: u16,
                decrypt: bool,
                tag: &[u32; 4],
                meta: u8,
            ) {
                self.set_desc_valid_i(u8::from(valid));
                self.set_desc_data_i(&$crate::gcm::pack_desc(
                    key, iv, aad_len, pt_len, decrypt, tag, meta,
                ));
            }
            fn desc_ready(&self) -> bool {
                self.desc_ready_o() != 0
            }
            fn set_din(&mut self, valid: bool, data: &[u32; 4]) {
                self.set_din_valid_i(u8::from(valid));
                // din_t is one 128-bit field: the port is the beat itself.
                self.set_din_data_i(data);
            }
            fn din_ready(&self) -> bool {
                self.din_ready_o() != 0
            }
            fn set_dout_ready(&mut self, ready: bool) {
                self.set_dout_ready_i(u8::from(ready));
            }
            fn dout(&self) -> (bool, [u32; 4], bool, u8) {
                let (data, last, meta) = $crate::gcm::unpack_beat(&self.dout_data_o());
                (self.dout_valid_o() != 0, data, last, meta)
            }
            fn set_res_ready(&mut self, ready: bool) {
                self.set_res_ready_i(u8::from(ready));
            }
            fn res(&self) -> (bool, [u32; 4], bool, u8) {
                let (tag, auth_ok, meta) = $crate::gcm::unpack_beat(&self.res_data_o());
                (self.res_valid_o() != 0, tag, auth_ok, meta)
            }
        }
    };
}

impl_gcm_ports!(crate::gcm_pipe::Model);
impl_gcm_ports!(crate::gcm_iter::Model);
impl_gcm_ports!(crate::gcm_pool::Model);
impl_gcm_ports!(crate::gcm_pool_iter::Model);

/// 16 bytes (byte 0 first) as port words (word 0 = bits 31:0 = bytes 12..15).
pub fn block_to_words(b: &[u8; 16]) -> [u32; 4] {
    std::array::from_fn(|i| {
        let o = 12 - 4 * i;
        u32::from_be_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
    })
}

/// Inverse of [`block_to_words`].
pub fn words_to_block(w: &[u32; 4]) -> [u8; 16] {
    let mut b = [0u8; 16];
    for (i, word) in w.iter().enumerate() {
        let o = 12 - 4 * i;
        b[o..o + 4].copy_from_slice(&word.to_be_bytes());
    }
    b
}

fn iv_to_words(iv: &[u8; 12]) -> [u32; 3] {
    std::array::from_fn(|i| {
        let o = 8 - 4 * i;
        u32::from_be_bytes([iv[o], iv[o + 1], iv[o + 2], iv[o + 3]])
    })
}

/// The 16-byte beats of a message part, the last one zero-padded.
pub fn beats(part: &[u8]) -> impl Iterator<Item = [u8; 16]> + '_ {
    part.chunks(16).map(|c| {
        let mut b = [0u8; 16];
        b[..c.len()].copy_from_slice(c);
        b
    })
}

/// Small deterministic PRNG (splitmix64) for stall decisions: reproducible from a seed
/// without pulling a dependency into the model crate.
#[derive(Debug, Clone)]
pub struct StallRng(u64);

impl StallRng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// True with probability p.
    pub fn chance(&mut self, p: f64) -> bool {
        if p >= 1.0 {
            return true;
        }
        ((self.next_u64() >> 11) as f64) < p * (1u64 << 53) as f64
    }
}

struct Pending {
    index: usize,
    desc_cycle: u64,
    data: Vec<u8>,
    beats_seen: usize,
    beats_total: usize,
    result: Option<([u8; 16], bool, u64)>,
}

/// Watches one output stream for the AXI-Stream rule: once valid, stay valid with a stable
/// payload until ready.
#[derive(Default)]
struct RuleCheck<T: PartialEq + Clone> {
    held: Option<T>,
}

impl<T: PartialEq + Clone> RuleCheck<T> {
    fn check(
        &mut self,
        valid: bool,
        payload: T,
        fire: bool,
        port: &'static str,
        cycle: u64,
    ) -> Result<(), GcmError> {
        if let Some(h) = &self.held
            && (!valid || *h != payload)
        {
            return Err(GcmError::StreamRule { port, cycle });
        }
        self.held = (valid && !fire).then_some(payload);
        Ok(())
    }
}

/// Sends `msgs` through a reset model and returns what came out. The model is not reset here.
/// Fails on a stream-rule violation, an unexpected output, or if nothing moves for
/// `idle_limit` cycles.
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
    let mut rng = StallRng::new(seed);
    let start = m.cycle();
    let mut next_desc = 0usize;
    let mut desc_valid = false;
    let mut din: VecDeque<[u32; 4]> = VecDeque::new();
    let mut din_valid = false;
    let mut pending: BTreeMap<u8, Pending> = BTreeMap::new();
    let mut done: Vec<Option<GcmOutcome>> = vec![None; msgs.len()];
    let mut finished = 0usize;
    let mut last_progress = m.cycle();
    let mut last_output = m.cycle();
    let mut dout_rule = RuleCheck::default();
    let mut res_rule = RuleCheck::default();
    let zero = [0u32; 4];

    while finished < msgs.len() {
        let cycle = m.cycle();
        if cycle - last_progress > idle_limit {
            return Err(GcmError::Timeout {
                done: finished,
                total: msgs.len(),
                cycles: cycle - start,
            });
        }
        if !desc_valid && next_desc < msgs.len() {
            desc_valid = rng.chance(stalls.desc);
        }
        match (desc_valid, msgs.get(next_desc)) {
            (true, Some(msg)) => m.set_desc(
                true,
                &block_to_words(&msg.key),
                &iv_to_words(&msg.iv),
                msg.aad.len() as u16,
                msg.data.len() as u16,
                msg.decrypt,
                &block_to_words(&msg.tag),
                msg.meta,
            ),
            _ => m.set_desc(false, &zero, &[0; 3], 0, 0, false, &zero, 0),
        }
        if !din_valid && !din.is_empty() {
            din_valid = rng.chance(stalls.din);
        }
        m.set_din(din_valid, din.front().unwrap_or(&zero));
        let dout_ready = rng.chance(stalls.dout);
        let res_ready = rng.chance(stalls.res);
        m.set_dout_ready(dout_ready);
        m.set_res_ready(res_ready);
        m.eval();

        if desc_valid && m.desc_ready() {
            if let Some(msg) = msgs.get(next_desc) {
                pending.insert(
                    msg.meta,
                    Pending {
                        index: next_desc,
                        desc_cycle: cycle,
                        data: Vec::with_capacity(msg.data.len()),
                        beats_seen: 0,
                        beats_total: msg.data.len().div_ceil(16),
                        result: None,
                    },
                );
                din.extend(beats(&msg.aad).map(|b| block_to_words(&b)));
                din.extend(beats(&msg.data).map(|b| block_to_words(&b)));
            }
            next_desc += 1;
            desc_valid = false;
            last_progress = cycle;
        }
        if din_valid && m.din_ready() {
            din.pop_front();
            din_valid = false;
            last_progress = cycle;
        }

        let (dv, dd, dl, dm) = m.dout();
        dout_rule.check(dv, (dd, dl, dm), dv && dout_ready, "dout", cycle)?;
        if dv && dout_ready {
            let p = pending.get_mut(&dm).ok_or(GcmError::UnknownMeta {
                port: "dout",
                meta: dm,
                cycle,
            })?;
            if p.beats_seen >= p.beats_total {
                return Err(GcmError::Malformed {
                    meta: dm,
                    what: "more payload beats than the message has".into(),
                });
            }
            p.beats_seen += 1;
            let expect_last = p.beats_seen == p.beats_total;
            if dl != expect_last {
                return Err(GcmError::Malformed {
                    meta: dm,
                    what: format!("last = {dl} on payload beat {}", p.beats_seen),
                });
            }
            let len = msgs[p.index].data.len();
            let beat = words_to_block(&dd);
            let keep = (len - p.data.len()).min(16);
            if beat[keep..].iter().any(|&b| b != 0) {
                return Err(GcmError::Malformed {
                    meta: dm,
                    what: "bytes past the end of the payload are not zero".into(),
                });
            }
            p.data.extend_from_slice(&beat[..keep]);
            last_progress = cycle;
            last_output = cycle;
        }

        let (rv, rt, ro, rm) = m.res();
        res_rule.check(rv, (rt, ro, rm), rv && res_ready, "res", cycle)?;
        if rv && res_ready {
            let p = pending.get_mut(&rm).ok_or(GcmError::UnknownMeta {
                port: "res",
                meta: rm,
                cycle,
            })?;
            if p.result.is_some() {
                return Err(GcmError::Malformed {
                    meta: rm,
                    what: "second result".into(),
                });
            }
            p.result = Some((words_to_block(&rt), ro, cycle));
            last_progress = cycle;
            last_output = cycle;
        }

        // A message is complete with its result and all its payload beats.
        let complete: Vec<u8> = pending
            .iter()
            .filter(|(_, p)| p.result.is_some() && p.beats_seen == p.beats_total)
            .map(|(k, _)| *k)
            .collect();
        for meta in complete {
            if let Some(p) = pending.remove(&meta)
                && let Some((tag, auth_ok, result_cycle)) = p.result
            {
                done[p.index] = Some(GcmOutcome {
                    meta,
                    data: p.data,
                    tag,
                    auth_ok,
                    desc_cycle: p.desc_cycle,
                    result_cycle,
                });
                finished += 1;
            }
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
        assert_eq!(unpack_beat(&w), (data, true, 0xc3));
        // Port bits 136:128 are data bits 127:119.
        assert_eq!(w[4], 0x100f_0e0d >> 23);
    }
}
