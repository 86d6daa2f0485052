//! `onerma_gcm_mux` between clients and a behavioural engine pool.
//!
//! The pool stand-in keeps the pool's contract (docs/crypto.md): descriptors in, beats on one
//! shared stream in descriptor order, outputs per message with its meta, dout beats of different
//! messages interleaved at random, results in any order. It does no crypto (the mux never looks
//! at data): each message's dout beats are its payload beats as received and its result tag is
//! the XOR of all its beats, so a beat routed to the wrong message or client, lost, duplicated or
//! reordered changes what a client receives.
//!
//! Checked: every descriptor reaches the pool unchanged with meta `{client, meta}`; the pool
//! receives exactly each message's beats after its descriptor; each client receives exactly its
//! own messages' dout beats (in order) and results, with its meta; every message completes; the
//! stream rules on every output of the mux (held valid, stable payload).

use onerma_rtl_tests::bits::{get_bits, padded, put_bits};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

const LEN_W: usize = 16;

trait Dut {
    const CLIENTS: usize;
    const META_W: usize;
    fn fresh() -> Self;
    fn eval(&mut self);
    fn tick(&mut self);
    fn drive(&mut self, p: &Drive);
    fn sample(&self) -> Sample;
}

/// Mux inputs, as words (word 0 = bits 31:0).
#[derive(Default)]
struct Drive {
    c_desc_valid: u32,
    c_desc: Vec<u32>,
    c_din_valid: u32,
    c_din: Vec<u32>,
    c_dout_ready: u32,
    c_res_ready: u32,
    p_desc_ready: bool,
    p_din_ready: bool,
    p_dout: Option<Vec<u32>>,
    p_res: Option<Vec<u32>>,
}

/// Mux outputs.
#[derive(Clone, PartialEq, Eq)]
struct Sample {
    c_desc_ready: u32,
    c_din_ready: u32,
    c_dout_valid: u32,
    c_dout: Vec<u32>,
    c_res_valid: u32,
    c_res: Vec<u32>,
    p_desc_valid: bool,
    p_desc: Vec<u32>,
    p_din_valid: bool,
    p_din: Vec<u32>,
    p_dout_ready: bool,
    p_res_ready: bool,
}

macro_rules! dut {
    ($m:ident, $clients:expr, $meta:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const CLIENTS: usize = $clients;
            const META_W: usize = $meta;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(&mut self, p: &Drive) {
                self.set_c_desc_valid_i(p.c_desc_valid as _);
                self.set_c_desc_data_i(&padded(&p.c_desc));
                self.set_c_din_valid_i(p.c_din_valid as _);
                self.set_c_din_data_i(&padded(&p.c_din));
                self.set_c_dout_ready_i(p.c_dout_ready as _);
                self.set_c_res_ready_i(p.c_res_ready as _);
                self.set_p_desc_ready_i(u8::from(p.p_desc_ready));
                self.set_p_din_ready_i(u8::from(p.p_din_ready));
                self.set_p_dout_valid_i(u8::from(p.p_dout.is_some()));
                self.set_p_dout_data_i(&padded(p.p_dout.as_deref().unwrap_or(&[])));
                self.set_p_res_valid_i(u8::from(p.p_res.is_some()));
                self.set_p_res_data_i(&padded(p.p_res.as_deref().unwrap_or(&[])));
            }
            fn sample(&self) -> Sample {
                Sample {
                    c_desc_ready: u32::from(self.c_desc_ready_o()),
                    c_din_ready: u32::from(self.c_din_ready_o()),
                    c_dout_valid: u32::from(self.c_dout_valid_o()),
                    c_dout: self.c_dout_data_o().to_vec(),
                    c_res_valid: u32::from(self.c_res_valid_o()),
                    c_res: self.c_res_data_o().to_vec(),
                    p_desc_valid: self.p_desc_valid_o() != 0,
                    p_desc: self.p_desc_data_o().to_vec(),
                    p_din_valid: self.p_din_valid_o() != 0,
                    p_din: self.p_din_data_o().to_vec(),
                    p_dout_ready: self.p_dout_ready_o() != 0,
                    p_res_ready: self.p_res_ready_o() != 0,
                }
            }
        }
    };
}

dut!(gcm_mux, 3, 8);
dut!(gcm_mux_default, 2, 10);

/// A descriptor's fields (the pool's desc_t, first field most significant).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Desc {
    key: u128,
    iv: u128,
    aad_len: u16,
    pt_len: u16,
    decrypt: bool,
    tag: u128,
    meta: u32,
}

fn desc_bits(meta_w: usize) -> usize {
    128 + 96 + 2 * LEN_W + 1 + 128 + meta_w
}

impl Desc {
    fn put(&self, dst: &mut [u32], base: usize, meta_w: usize) {
        let mut at = base;
        let mut field = |w: usize, v: u128| {
            put_bits(dst, at, w, v);
            at += w;
        };
        field(meta_w, u128::from(self.meta));
        field(128, self.tag);
        field(1, u128::from(self.decrypt));
        field(LEN_W, u128::from(self.pt_len));
        field(LEN_W, u128::from(self.aad_len));
        field(96, self.iv);
        field(128, self.key);
    }

    fn get(src: &[u32], meta_w: usize) -> Self {
        let mut at = 0;
        let mut field = |w: usize| {
            let v = get_bits(src, at, w);
            at += w;
            v
        };
        let meta = field(meta_w) as u32;
        let tag = field(128);
        let decrypt = field(1) != 0;
        let pt_len = field(LEN_W) as u16;
        let aad_len = field(LEN_W) as u16;
        let iv = field(96);
        let key = field(128);
        Self {
            key,
            iv,
            aad_len,
            pt_len,
            decrypt,
            tag,
            meta,
        }
    }

    fn aad_beats(&self) -> usize {
        usize::from(self.aad_len).div_ceil(16)
    }

    fn beats(&self) -> usize {
        self.aad_beats() + usize::from(self.pt_len).div_ceil(16)
    }
}

/// One client message: its descriptor and its beats (AAD beats, then payload beats).
#[derive(Clone, Debug)]
struct Msg {
    desc: Desc,
    beats: Vec<u128>,
}

impl Msg {
    /// What the stand-in pool returns: the payload beats, and the XOR of every beat as the tag.
    fn expected_dout(&self) -> &[u128] {
        &self.beats[self.desc.aad_beats()..]
    }

    fn expected_tag(&self) -> u128 {
        self.beats.iter().fold(0, |a, b| a ^ b)
    }
}

/// A message inside the stand-in pool.
struct PoolMsg {
    meta: u32,
    beats: Vec<u128>,
    want: usize,
    aad_beats: usize,
    auth_ok: bool,
    sent_dout: usize,
    res_sent: bool,
}

struct Client {
    msgs: Vec<Msg>,
    next_desc: usize,
    desc_held: bool,
    /// Messages whose descriptor was taken: their beats go out in this order.
    din_queue: VecDeque<(usize, usize)>,
    din_held: bool,
    /// Per message: dout beats received, result received.
    got_dout: Vec<Vec<u128>>,
    got_res: Vec<bool>,
}

fn random_msg(rng: &mut StdRng, meta: u32) -> Msg {
    let aad_len = *[0u16, 5, 16, 64, 48]
        .get(rng.random_range(0..5))
        .unwrap_or(&64);
    let pt_len = if rng.random_range(0..4) == 0 {
        0
    } else {
        rng.random_range(1..=160)
    };
    let desc = Desc {
        key: rng.random(),
        iv: rng.random::<u128>() >> 32,
        aad_len,
        pt_len,
        decrypt: rng.random(),
        tag: rng.random(),
        meta,
    };
    let beats = (0..desc.beats()).map(|_| rng.random()).collect();
    Msg { desc, beats }
}

/// `p_*`: percent of cycles each side is willing.
#[allow(clippy::too_many_lines)]
fn run<D: Dut>(
    seed: u64,
    msgs_per_client: usize,
    p_client: u32,
    p_pool: u32,
) -> Result<u64, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let n = D::CLIENTS;
    let meta_w = D::META_W;
    let cid_w = if n > 1 {
        (n - 1).ilog2() as usize + 1
    } else {
        1
    };
    let pmeta_w = meta_w + cid_w;
    let cdesc_w = desc_bits(meta_w);
    let mut clients: Vec<Client> = (0..n)
        .map(|_| {
            let msgs: Vec<Msg> = (0..msgs_per_client)
                .map(|i| random_msg(&mut rng, i as u32))
                .collect();
            Client {
                got_dout: vec![Vec::new(); msgs.len()],
                got_res: vec![false; msgs.len()],
                msgs,
                next_desc: 0,
                desc_held: false,
                din_queue: VecDeque::new(),
                din_held: false,
            }
        })
        .collect();
    // Stand-in pool state.
    let mut route: VecDeque<usize> = VecDeque::new();
    let mut pool: Vec<PoolMsg> = Vec::new();
    let mut dout_held: Option<usize> = None;
    let mut res_held: Option<usize> = None;
    let mut prev: Option<(Sample, bool, bool)> = None;
    let total = n * msgs_per_client;
    let mut done = 0usize;
    let mut cycle = 0u64;
    let mut dut = D::fresh();
    while done < total {
        cycle += 1;
        prop_assert!(
            cycle < 200_000,
            "no progress: {done} of {total} messages done"
        );
        let mut d = Drive {
            c_desc: vec![0; (n * cdesc_w).div_ceil(32)],
            c_din: vec![0; (n * 128).div_ceil(32)],
            ..Drive::default()
        };
        for (i, c) in clients.iter_mut().enumerate() {
            if c.next_desc < c.msgs.len() && (c.desc_held || rng.random_range(0..100) < p_client) {
                c.desc_held = true;
                d.c_desc_valid |= 1 << i;
                c.msgs[c.next_desc]
                    .desc
                    .put(&mut d.c_desc, i * cdesc_w, meta_w);
            }
            if let Some(&(m, b)) = c.din_queue.front()
                && (c.din_held || rng.random_range(0..100) < p_client)
            {
                c.din_held = true;
                d.c_din_valid |= 1 << i;
                put_bits(&mut d.c_din, i * 128, 128, c.msgs[m].beats[b]);
            }
            if rng.random_range(0..100) < p_client {
                d.c_dout_ready |= 1 << i;
            }
            if rng.random_range(0..100) < p_client {
                d.c_res_ready |= 1 << i;
            }
        }
        d.p_desc_ready = rng.random_range(0..100) < p_pool;
        d.p_din_ready = !route.is_empty() && rng.random_range(0..100) < p_pool;
        // Pool outputs: dout of a message whose beats are all in; its result after its dout.
        if dout_held.is_none() && rng.random_range(0..100) < p_pool {
            let ready: Vec<usize> = (0..pool.len())
                .filter(|&k| {
                    let p = &pool[k];
                    p.beats.len() == p.want && p.sent_dout < p.want - p.aad_beats
                })
                .collect();
            if !ready.is_empty() {
                dout_held = Some(ready[rng.random_range(0..ready.len())]);
            }
        }
        if let Some(k) = dout_held {
            let p = &pool[k];
            let mut w = vec![0u32; (128 + 1 + pmeta_w).div_ceil(32)];
            put_bits(&mut w, 0, pmeta_w, u128::from(p.meta));
            put_bits(
                &mut w,
                pmeta_w,
                1,
                u128::from(p.sent_dout + 1 == p.want - p.aad_beats),
            );
            put_bits(&mut w, pmeta_w + 1, 128, p.beats[p.aad_beats + p.sent_dout]);
            d.p_dout = Some(w);
        }
        if res_held.is_none() && rng.random_range(0..100) < p_pool {
            let ready: Vec<usize> = (0..pool.len())
                .filter(|&k| {
                    let p = &pool[k];
                    p.beats.len() == p.want && p.sent_dout == p.want - p.aad_beats && !p.res_sent
                })
                .collect();
            if !ready.is_empty() {
                res_held = Some(ready[rng.random_range(0..ready.len())]);
            }
        }
        if let Some(k) = res_held {
            let p = &pool[k];
            let mut w = vec![0u32; (128 + 1 + pmeta_w).div_ceil(32)];
            put_bits(&mut w, 0, pmeta_w, u128::from(p.meta));
            put_bits(&mut w, pmeta_w, 1, u128::from(p.auth_ok));
            put_bits(
                &mut w,
                pmeta_w + 1,
                128,
                p.beats.iter().fold(0, |a, b| a ^ b),
            );
            d.p_res = Some(w);
        }
        dut.drive(&d);
        dut.eval();
        let s = dut.sample();
        // Stream rules on the mux's outputs: an output stalled in the previous cycle holds.
        if let Some((p, desc_stalled, din_stalled)) = &prev {
            if *desc_stalled {
                prop_assert!(s.p_desc_valid, "pool desc dropped while stalled");
                prop_assert_eq!(&p.p_desc, &s.p_desc, "pool desc changed while stalled");
            }
            if *din_stalled {
                prop_assert!(s.p_din_valid, "pool din dropped while stalled");
                prop_assert_eq!(&p.p_din, &s.p_din, "pool din changed while stalled");
            }
        }
        // Client side of the transfers.
        for (i, c) in clients.iter_mut().enumerate() {
            let bit = 1 << i;
            if d.c_desc_valid & bit != 0 && s.c_desc_ready & bit != 0 {
                let m = c.next_desc;
                c.din_queue
                    .extend((0..c.msgs[m].beats.len()).map(|b| (m, b)));
                c.next_desc += 1;
                c.desc_held = false;
            }
            if d.c_din_valid & bit != 0 && s.c_din_ready & bit != 0 {
                c.din_queue.pop_front();
                c.din_held = false;
            }
            let cmeta = |w: &[u32]| get_bits(w, 0, meta_w) as usize;
            if s.c_dout_valid & bit != 0 {
                prop_assert!(d.p_dout.is_some(), "client dout valid without pool dout");
                if d.c_dout_ready & bit != 0 {
                    let m = cmeta(&s.c_dout);
                    prop_assert!(m < c.msgs.len(), "client {i}: dout meta {m} unknown");
                    c.got_dout[m].push(get_bits(&s.c_dout, meta_w + 1, 128));
                    let last = get_bits(&s.c_dout, meta_w, 1) != 0;
                    prop_assert_eq!(
                        last,
                        c.got_dout[m].len() == c.msgs[m].expected_dout().len(),
                        "client {} message {}: last flag",
                        i,
                        m
                    );
                }
            }
            if s.c_res_valid & bit != 0 && d.c_res_ready & bit != 0 {
                let m = cmeta(&s.c_res);
                prop_assert!(m < c.msgs.len(), "client {i}: res meta {m} unknown");
                prop_assert!(!c.got_res[m], "client {i} message {m}: second result");
                prop_assert_eq!(
                    &c.got_dout[m][..],
                    c.msgs[m].expected_dout(),
                    "client {} message {}: dout beats",
                    i,
                    m
                );
                prop_assert_eq!(
                    get_bits(&s.c_res, meta_w + 1, 128),
                    c.msgs[m].expected_tag(),
                    "client {} message {}: result tag",
                    i,
                    m
                );
                c.got_res[m] = true;
                done += 1;
            }
        }
        prop_assert!((s.c_dout_valid.count_ones()) <= 1 && s.c_res_valid.count_ones() <= 1);
        // Pool side of the transfers.
        if s.p_desc_valid && d.p_desc_ready {
            let pd = Desc::get(&s.p_desc, pmeta_w);
            let cid = (pd.meta >> meta_w) as usize;
            let meta = pd.meta & ((1 << meta_w) - 1);
            prop_assert!(cid < n, "pool desc from client {cid}");
            let c = &clients[cid];
            prop_assert!(c.next_desc > 0);
            let want = &c.msgs[c.next_desc - 1].desc;
            prop_assert_eq!(
                &Desc { meta, ..pd.clone() },
                want,
                "pool desc is not client {}'s next",
                cid
            );
            let k = pool.len();
            pool.push(PoolMsg {
                meta: pd.meta,
                beats: Vec::new(),
                want: pd.beats(),
                aad_beats: pd.aad_beats(),
                auth_ok: rng.random(),
                sent_dout: 0,
                res_sent: false,
            });
            if pd.beats() > 0 {
                route.push_back(k);
            }
        }
        if s.p_din_valid && d.p_din_ready {
            let k = *route
                .front()
                .ok_or_else(|| TestCaseError::fail("din without route"))?;
            let p = &mut pool[k];
            let cid = (p.meta >> meta_w) as usize;
            let m = (p.meta & ((1 << meta_w) - 1)) as usize;
            let b = p.beats.len();
            let beat = get_bits(&s.p_din, 0, 128);
            prop_assert_eq!(
                beat,
                clients[cid].msgs[m].beats[b],
                "pool din beat {} of client {} message {}",
                b,
                cid,
                m
            );
            p.beats.push(beat);
            if p.beats.len() == p.want {
                route.pop_front();
            }
        }
        if let Some(k) = dout_held
            && s.p_dout_ready
        {
            pool[k].sent_dout += 1;
            dout_held = None;
        }
        if let Some(k) = res_held
            && s.p_res_ready
        {
            pool[k].res_sent = true;
            res_held = None;
        }
        let stalls = (
            s.p_desc_valid && !d.p_desc_ready,
            s.p_din_valid && !d.p_din_ready,
        );
        prev = Some((s, stalls.0, stalls.1));
        dut.tick();
    }
    Ok(cycle)
}

fn strength() -> impl Strategy<Value = u32> {
    prop_oneof![Just(100u32), 20u32..100]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn small_routes_every_beat(seed in any::<u64>(), pc in strength(), pp in strength()) {
        run::<onerma_rtl::gcm_mux::Model>(seed, 40, pc, pp)?;
    }

    #[test]
    fn default_routes_every_beat(seed in any::<u64>(), pc in strength(), pp in strength()) {
        run::<onerma_rtl::gcm_mux_default::Model>(seed, 40, pc, pp)?;
    }
}

/// Every side always willing: the same checks, and the cycle count printed for the record (a
/// figure, not an assertion; the stand-in pool's output order adds its own cycles).
#[test]
fn nobody_stalls() -> Result<(), TestCaseError> {
    let cycles = run::<onerma_rtl::gcm_mux_default::Model>(7, 200, 100, 100)?;
    println!("gcm_mux: 400 messages in {cycles} cycles");
    Ok(())
}
