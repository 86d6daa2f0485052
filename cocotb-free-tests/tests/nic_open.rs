//! `onerma_open` with a real GCM pool (`onerma_open_sim`) against the model's crypto.
//!
//! Frames are sealed by the model (RustCrypto AES-GCM, protocol.md §3.2: key, IV {src_nic,
//! counter}, the 64 header bytes as AAD), then a quarter of them are damaged (a bit of the
//! header, the ciphertext or the tag flipped). Each goes to the opener as a job and its payload
//! beats, with random gaps and back-pressure on the pool's outputs. Checked: every genuine frame
//! authenticates and its plaintext equals the payload the model sealed; every damaged one fails
//! authentication; every job gets exactly one result, with its meta; a message's dout words
//! (beats of the pool's word, beat 0 in the top bits: `open` 1 per word, `open_default` 4) are
//! exactly ceil(chunk_len / word bytes), `last` on the final one, and every byte after the
//! payload is zero.

use onerma_layouts::{Hdr, MsgType, OpType, Status};
use onerma_model::crypto::{Crypto, iv, key_from_u128};
use onerma_rtl_tests::bits::{be_to_words, padded, to_words, words_to_be};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

trait Dut {
    /// Payload beat width in bits.
    const WIDTH: usize;
    /// 128-bit beats per dout word.
    const LANES: usize;
    fn fresh() -> Self;
    fn eval(&mut self);
    fn tick(&mut self);
    fn drive(&mut self, d: &Drive);
    fn sample(&self) -> Sample;
}

#[derive(Default)]
struct Drive {
    job: Option<([u32; 16], u128, u128, u8)>,
    pay: Option<(Vec<u32>, bool)>,
    dout_ready: bool,
    res_ready: bool,
}

struct Sample {
    job_ready: bool,
    pay_ready: bool,
    /// A dout word as bytes: beat 0 (the top bits) first, byte 0 of each beat first.
    dout: Option<(Vec<u8>, bool, u8)>,
    res: Option<(bool, u8)>,
    obs: u8,
}

macro_rules! dut {
    ($m:ident, $width:expr, $lanes:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const WIDTH: usize = $width;
            const LANES: usize = $lanes;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(&mut self, d: &Drive) {
                let (h, tag, key, meta) = d.job.unwrap_or(([0; 16], 0, 0, 0));
                self.set_job_valid_i(u8::from(d.job.is_some()));
                self.set_job_hdr_i(&h);
                self.set_job_tag_i(&to_words(&tag.to_be_bytes()));
                self.set_job_key_i(&to_words(&key.to_be_bytes()));
                self.set_job_meta_i(meta);
                let (p, last) = d.pay.clone().unwrap_or((Vec::new(), false));
                self.set_pay_valid_i(u8::from(d.pay.is_some()));
                self.set_pay_data_i(&padded(&p));
                self.set_pay_last_i(u8::from(last));
                self.set_dout_ready_i(u8::from(d.dout_ready));
                self.set_res_ready_i(u8::from(d.res_ready));
            }
            fn sample(&self) -> Sample {
                // The port's word 0 is bits 31:0; big-endian bytes of the whole word put the top
                // beat first, and within a beat its byte 0 (bits [127:120] of the beat) first.
                let mut word = vec![0u8; 16 * Self::LANES];
                words_to_be(&self.dout_data_o(), &mut word);
                Sample {
                    job_ready: self.job_ready_o() != 0,
                    pay_ready: self.pay_ready_o() != 0,
                    dout: (self.dout_valid_o() != 0)
                        .then(|| (word, self.dout_last_o() != 0, self.dout_meta_o())),
                    res: (self.res_valid_o() != 0)
                        .then(|| (self.res_auth_ok_o() != 0, self.res_meta_o())),
                    obs: self.obs_o(),
                }
            }
        }
    };
}

dut!(open, 128, 1);
dut!(open_default, 512, 4);

struct Msg {
    hdr: [u8; 64],
    tag: u128,
    key: u128,
    cipher: Vec<u8>,
    plain: Vec<u8>,
    genuine: bool,
}

const TYPES: [(MsgType, OpType, Status); 6] = [
    (MsgType::RdResp, OpType::Read, Status::Ok),
    (MsgType::WrData, OpType::Write, Status::Ok),
    (MsgType::RdReq, OpType::Read, Status::Ok),
    (MsgType::WrCmpl, OpType::Rekey, Status::RemoteAccessError),
    (MsgType::Nack, OpType::Write, Status::Nack),
    (
        MsgType::AuthFail,
        OpType::Read,
        Status::RemoteAuthenticationFailure,
    ),
];

/// Protocol CHUNK_BYTES: the largest payload of one message.
const CHUNK: u16 = onerma_layouts::CHUNK_BYTES as u16;

fn message(rng: &mut StdRng, crypto: &mut Crypto) -> Result<Msg, TestCaseError> {
    let (msg_type, op_type, status) = TYPES[rng.random_range(0..TYPES.len())];
    let payload = matches!(msg_type, MsgType::RdResp | MsgType::WrData);
    let chunk_len: u16 = if payload {
        if rng.random_bool(0.3) {
            CHUNK
        } else {
            rng.random_range(1..=CHUNK)
        }
    } else {
        0
    };
    let h = Hdr {
        msg_type,
        op_type,
        status,
        src_nic: rng.random(),
        dst_nic: rng.random(),
        counter: rng.random(),
        prev_counter: rng.random(),
        pid: rng.random(),
        region: rng.random(),
        slot: rng.random(),
        offset: rng.random(),
        length: rng.random_range(1..=4096),
        chunk_offset: 0,
        chunk_len,
        ctx: rng.random(),
        hold_ns: 0,
    };
    let hb = h
        .to_bytes()
        .map_err(|e| TestCaseError::fail(format!("hdr: {e}")))?;
    let key: u128 = if rng.random_bool(0.1) {
        0
    } else {
        rng.random()
    };
    let plain: Vec<u8> = (0..chunk_len).map(|_| rng.random()).collect();
    let mut frame = hb.to_vec();
    frame.extend_from_slice(&plain);
    frame.extend_from_slice(&[0; 16]);
    let nonce = iv(h.src_nic, h.counter).map_err(|e| TestCaseError::fail(format!("iv: {e}")))?;
    crypto.seal(&key_from_u128(key), &nonce, &mut frame);
    let genuine = rng.random_range(0..4) != 0;
    if !genuine {
        // Damage one bit of the header, the ciphertext or the tag. The header keeps src_nic
        // and counter (bytes 4..20, the IV) and chunk_len (bytes 48..50): the receive edge has
        // already matched the frame's length to chunk_len, which the opener relies on.
        let n = frame.len();
        let at = match rng.random_range(0..3) {
            0 => *[20, 28, 32, 36, 44, 50, 55, 63]
                .get(rng.random_range(0..8))
                .unwrap_or(&20),
            1 if chunk_len > 0 => 64 + rng.random_range(0..usize::from(chunk_len)),
            _ => n - 16 + rng.random_range(0..16),
        };
        frame[at] ^= 1 << rng.random_range(0..8);
    }
    let n = frame.len();
    let mut hdr = [0u8; 64];
    hdr.copy_from_slice(&frame[..64]);
    let mut t = [0u8; 16];
    t.copy_from_slice(&frame[n - 16..]);
    Ok(Msg {
        hdr,
        tag: u128::from_be_bytes(t),
        key,
        cipher: frame[64..n - 16].to_vec(),
        plain,
        genuine,
    })
}

/// Payload beats of a ciphertext in AXI lane order (byte 0 in bits 7:0).
fn lane_beats(c: &[u8], bytes: usize) -> Vec<Vec<u32>> {
    c.chunks(bytes)
        .map(|b| {
            let mut x = b.to_vec();
            x.resize(bytes, 0);
            x.chunks(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect()
        })
        .collect()
}

/// Bytes of the dout words of a payload of `len` bytes: whole words of `lanes` 16-byte beats.
fn dout_bytes(len: usize, lanes: usize) -> usize {
    len.div_ceil(16 * lanes) * 16 * lanes
}

fn run<D: Dut>(seed: u64, n: usize, p_in: u32, p_out: u32) -> Result<u64, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut crypto = Crypto::new(false);
    let msgs: Vec<Msg> = (0..n)
        .map(|_| message(&mut rng, &mut crypto))
        .collect::<Result<_, _>>()?;
    let bw = D::WIDTH / 8;
    let mut dut = D::fresh();
    let mut next_job = 0usize;
    let mut job_held = false;
    let mut pay_queue: VecDeque<(Vec<u32>, bool)> = VecDeque::new();
    let mut pay_held = false;
    let mut got: Vec<Vec<u8>> = vec![Vec::new(); n];
    let mut results: Vec<Option<bool>> = vec![None; n];
    let mut done = 0usize;
    let mut cycle = 0u64;
    while done < n {
        cycle += 1;
        if cycle >= 400_000 {
            let s = dut.sample();
            return Err(TestCaseError::fail(format!(
                "no progress: {done} of {n} results; jobs taken {next_job}, payload beats \
                 waiting {}, job_ready {}, pay_ready {}, desc v/r din v/r {:04b}, results missing {:?}",
                pay_queue.len(),
                s.job_ready,
                s.pay_ready,
                s.obs,
                (0..next_job)
                    .filter(|&i| results[i].is_none())
                    .map(|i| (i, msgs[i].cipher.len(), got[i].len()))
                    .collect::<Vec<_>>()
            )));
        }
        let mut d = Drive {
            dout_ready: rng.random_range(0..100) < p_out,
            res_ready: rng.random_range(0..100) < p_out,
            ..Drive::default()
        };
        if next_job < n && (job_held || rng.random_range(0..100) < p_in) {
            job_held = true;
            let m = &msgs[next_job];
            d.job = Some((be_to_words::<16>(&m.hdr), m.tag, m.key, next_job as u8));
        }
        if let Some(p) = pay_queue.front()
            && (pay_held || rng.random_range(0..100) < p_in)
        {
            pay_held = true;
            d.pay = Some(p.clone());
        }
        dut.drive(&d);
        dut.eval();
        let s = dut.sample();
        if d.job.is_some() && s.job_ready {
            let m = &msgs[next_job];
            let beats = lane_beats(&m.cipher, bw);
            let k = beats.len();
            pay_queue.extend(beats.into_iter().enumerate().map(|(i, b)| (b, i + 1 == k)));
            next_job += 1;
            job_held = false;
        }
        if d.pay.is_some() && s.pay_ready {
            pay_queue.pop_front();
            pay_held = false;
        }
        if let Some((beat, last, meta)) = s.dout
            && d.dout_ready
        {
            let i = usize::from(meta);
            prop_assert!(i < next_job && results[i].is_none(), "dout for message {i}");
            got[i].extend_from_slice(&beat);
            let want = dout_bytes(msgs[i].cipher.len(), D::LANES);
            prop_assert_eq!(last, got[i].len() == want, "message {}: last", i);
        }
        if let Some((ok, meta)) = s.res
            && d.res_ready
        {
            let i = usize::from(meta);
            prop_assert!(
                i < next_job && results[i].is_none(),
                "second result for {i}"
            );
            let m = &msgs[i];
            prop_assert_eq!(ok, m.genuine, "message {}: auth_ok", i);
            prop_assert_eq!(got[i].len(), dout_bytes(m.cipher.len(), D::LANES));
            prop_assert!(
                got[i][m.cipher.len()..].iter().all(|&b| b == 0),
                "message {}: bytes after the payload not zero",
                i
            );
            if m.genuine {
                prop_assert_eq!(
                    &got[i][..m.plain.len()],
                    &m.plain[..],
                    "message {}: plaintext",
                    i
                );
            }
            results[i] = Some(ok);
            done += 1;
        }
        dut.tick();
    }
    Ok(cycle)
}

fn pct() -> impl Strategy<Value = u32> {
    prop_oneof![Just(100u32), 30u32..100]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn small(seed in any::<u64>(), pi in pct(), po in pct()) {
        run::<onerma_rtl::open::Model>(seed, 40, pi, po)?;
    }

    #[test]
    fn default_config(seed in any::<u64>(), pi in pct(), po in pct()) {
        run::<onerma_rtl::open_default::Model>(seed, 60, pi, po)?;
    }
}
