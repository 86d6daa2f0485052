//! The fabric between NICs (protocol.md §10): per-link latency and bandwidth, truncated
//! exponential jitter, and independent drop / duplicate / corrupt / reorder / partition knobs,
//! plus an adversary that replays recorded frames and injects forged ones. Deterministic given
//! the seed.

use onerma_layouts::{FieldKind, Hdr, Layout, MsgType, Status, bits};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::crypto::{self, Crypto, RESERVED_KEY, TAG_LEN};

/// A set of directed links that drops everything in `[from, until)`. `None` = any NIC.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partition {
    pub src: Option<usize>,
    pub dst: Option<usize>,
    pub from: u64,
    pub until: u64,
}

/// Fabric knobs. Probabilities are per message and independent; times in cycles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FabricConfig {
    pub seed: u64,
    /// Fixed one-way latency.
    pub latency: u64,
    /// Per-link bandwidth; 0 = unlimited (no serialisation delay).
    pub bytes_per_cycle: u32,
    /// Mean of the exponential jitter (truncated at 8x the mean); 0 = none.
    pub jitter_mean: f64,
    pub drop: f64,
    pub duplicate: f64,
    /// Flip one random bit of the frame.
    pub corrupt: f64,
    /// Extra delay, uniform in `[0, reorder_window]`, with this probability.
    pub reorder: f64,
    pub reorder_window: u64,
    pub partitions: Vec<Partition>,
    /// Adversary: record the frame and re-inject a copy later (within `replay_window`).
    pub replay: f64,
    pub replay_window: u64,
    /// Adversary: inject a forged frame derived from this one (a header mutation of the frame, or
    /// an AUTH_FAIL under the public reserved key answering a request).
    pub forge: f64,
    /// Adversary: inject, ahead of the frame, a copy with one bit of its payload or tag flipped
    /// (the body under the tag; `forge` only touches the header). Separate from `forge` so runs
    /// that set only `forge` keep their random stream.
    pub forge_body: f64,
}

impl Default for FabricConfig {
    fn default() -> Self {
        // 5 us RTT at 250 MHz = 625 cycles each way; 100 Gbps = 50 bytes per cycle.
        Self {
            seed: 1,
            latency: 625,
            bytes_per_cycle: 50,
            jitter_mean: 0.0,
            drop: 0.0,
            duplicate: 0.0,
            corrupt: 0.0,
            reorder: 0.0,
            reorder_window: 0,
            partitions: Vec::new(),
            replay: 0.0,
            replay_window: 0,
            forge: 0.0,
            forge_body: 0.0,
        }
    }
}

/// What the fabric did, for statistics.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FabricCounters {
    pub sent: u64,
    pub delivered: u64,
    pub dropped: u64,
    pub partitioned: u64,
    pub unroutable: u64,
    pub duplicated: u64,
    pub corrupted: u64,
    pub replayed: u64,
    pub forged: u64,
}

/// The fabric: computes when and where each frame arrives.
#[derive(Debug)]
pub struct Fabric {
    cfg: FabricConfig,
    n: usize,
    rng: ChaCha8Rng,
    link_free_at: Vec<u64>,
    dst_field: (usize, u32),
    forger: Crypto,
    forge_counter: u64,
    /// No fault knob is on (every probability and the jitter zero, no partition): a frame
    /// only waits for its link and crosses it, and no random number is drawn for it.
    clean: bool,
    pub counters: FabricCounters,
}

/// One arrival: `(cycle, destination NIC index, frame)`.
pub type Arrival = (u64, usize, Vec<u8>);

impl Fabric {
    #[must_use]
    pub fn new(cfg: FabricConfig, nics: usize) -> Self {
        let dst_field = Hdr::FIELDS
            .iter()
            .find(|f| f.name == "dst_nic")
            .map_or((64, 32), |f| (f.offset, f.bits));
        let c = &cfg;
        // The exact conditions under which `chance` and `jitter` draw nothing.
        let clean = [
            c.forge,
            c.forge_body,
            c.replay,
            c.drop,
            c.duplicate,
            c.corrupt,
            c.reorder,
        ]
        .iter()
        .all(|&p| p <= 0.0 || p.is_nan())
            && c.jitter_mean <= 0.0
            && c.partitions.is_empty();
        Self {
            clean,
            rng: ChaCha8Rng::seed_from_u64(cfg.seed),
            link_free_at: vec![0; nics * nics],
            n: nics,
            dst_field,
            forger: Crypto::new(false),
            forge_counter: 1,
            cfg,
            counters: FabricCounters::default(),
        }
    }

    #[must_use]
    pub fn config(&self) -> &FabricConfig {
        &self.cfg
    }

    /// The `dst_nic` field of a frame, read through the layout's field table.
    #[must_use]
    pub fn dst_of(&self, frame: &[u8]) -> Option<u32> {
        let (off, b) = self.dst_field;
        (frame.len() * 8 >= off + b as usize).then(|| bits::get(frame, off, b) as u32)
    }

    fn jitter(&mut self) -> u64 {
        let m = self.cfg.jitter_mean;
        if m <= 0.0 {
            return 0;
        }
        // Inverse CDF of the exponential truncated at 8 m: one uniform draw, no rejection loop.
        let u: f64 = self.rng.random();
        let x = -m * (1.0 - u * (1.0 - (-8.0f64).exp())).ln();
        x.round() as u64
    }

    fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.rng.random::<f64>() < p
    }

    fn partitioned(&self, now: u64, src: usize, dst: usize) -> bool {
        self.cfg.partitions.iter().any(|p| {
            p.src.is_none_or(|s| s == src)
                && p.dst.is_none_or(|d| d == dst)
                && (p.from..p.until).contains(&now)
        })
    }

    /// Sends `frame` from NIC `src` at `now`; `route` maps a fabric address to a NIC index.
    /// Pushes every resulting arrival (none, one, or several) to `arrivals`.
    pub fn send(
        &mut self,
        now: u64,
        src: usize,
        mut frame: Vec<u8>,
        route: impl Fn(u32) -> Option<usize>,
        arrivals: &mut Vec<Arrival>,
    ) {
        self.counters.sent += 1;
        let Some(dst) = self.dst_of(&frame).and_then(&route) else {
            self.counters.unroutable += 1;
            return;
        };
        let li = src * self.n + dst;
        let ser = if self.cfg.bytes_per_cycle == 0 {
            0
        } else {
            (frame.len() as u64).div_ceil(u64::from(self.cfg.bytes_per_cycle))
        };
        if self.clean {
            // What the general path below does with every knob off, without its checks.
            let start = now.max(self.link_free_at[li]);
            self.link_free_at[li] = start + ser;
            self.counters.delivered += 1;
            arrivals.push((start + ser + self.cfg.latency, dst, frame));
            return;
        }
        if self.partitioned(now, src, dst) {
            self.counters.partitioned += 1;
            return;
        }
        if self.chance(self.cfg.forge) {
            self.forge(now, dst, &frame, &route, arrivals);
        }
        if self.chance(self.cfg.forge_body) {
            self.forge_body(now, dst, &frame, arrivals);
        }
        if self.chance(self.cfg.replay) {
            let w = self.cfg.replay_window.max(1);
            let t = now + self.rng.random_range(0..=w);
            self.counters.replayed += 1;
            arrivals.push((t, dst, frame.clone()));
        }
        if self.chance(self.cfg.drop) {
            self.counters.dropped += 1;
            return;
        }
        let copies = if self.chance(self.cfg.duplicate) {
            self.counters.duplicated += 1;
            2
        } else {
            1
        };
        let start = now.max(self.link_free_at[li]);
        self.link_free_at[li] = start + ser;
        for i in 0..copies {
            let mut f = if i + 1 < copies {
                frame.clone()
            } else {
                std::mem::take(&mut frame)
            };
            if self.chance(self.cfg.corrupt) {
                self.counters.corrupted += 1;
                let bit = self.rng.random_range(0..f.len() * 8);
                f[bit / 8] ^= 0x80 >> (bit % 8);
            }
            let mut t = start + ser + self.cfg.latency + self.jitter();
            if self.chance(self.cfg.reorder) {
                t += self.rng.random_range(0..=self.cfg.reorder_window);
            }
            self.counters.delivered += 1;
            arrivals.push((t, dst, f));
        }
    }

    /// Adversary A2 on the encrypted part: a copy of `frame` with one random bit after the
    /// header flipped (payload or tag), arriving first. The tag no longer verifies, so it must
    /// change nothing, and the genuine frame must still be accepted after it.
    fn forge_body(&mut self, now: u64, dst: usize, frame: &[u8], arrivals: &mut Vec<Arrival>) {
        if frame.len() <= Hdr::BYTES {
            return;
        }
        self.counters.forged += 1;
        let mut f = frame.to_vec();
        let bit = self.rng.random_range(Hdr::BYTES * 8..f.len() * 8);
        f[bit / 8] ^= 0x80 >> (bit % 8);
        arrivals.push((now + self.cfg.latency / 2, dst, f));
    }

    /// Adversary A2: a frame that must change nothing. Either a copy of `frame` with one header
    /// field bit flipped (the tag no longer matches), or, for a hop-1 request, an AUTH_FAIL
    /// answering it under the public reserved key, which the initiator will accept: the paper's
    /// accepted denial of service (protocol.md §4.4).
    fn forge(
        &mut self,
        now: u64,
        dst: usize,
        frame: &[u8],
        route: &impl Fn(u32) -> Option<usize>,
        arrivals: &mut Vec<Arrival>,
    ) {
        self.counters.forged += 1;
        let t = now + self.cfg.latency / 2;
        let req = Hdr::from_bytes(&frame[..frame.len().min(Hdr::BYTES)]).ok();
        if let Some(h) = req.filter(|h| {
            matches!(
                h.msg_type,
                MsgType::RdReq | MsgType::WrReq | MsgType::RekeyReq
            )
        }) && self.rng.random::<bool>()
        {
            let fake = Hdr {
                msg_type: MsgType::AuthFail,
                status: Status::RemoteAuthenticationFailure,
                src_nic: h.dst_nic,
                dst_nic: h.src_nic,
                counter: self.forge_counter,
                prev_counter: h.counter,
                ..h
            };
            self.forge_counter += 1;
            if let (Ok(hb), Ok(iv), Some(back)) = (
                fake.to_bytes(),
                crypto::iv(fake.src_nic, fake.counter),
                route(h.src_nic),
            ) {
                let mut f = hb.to_vec();
                f.extend_from_slice(&[0; TAG_LEN]);
                self.forger.seal(&RESERVED_KEY, &iv, &mut f);
                arrivals.push((t, back, f));
            }
            return;
        }
        // Mutate a data field of the header (not a reserved bit, which would only test parsing).
        let data: Vec<_> = Hdr::FIELDS
            .iter()
            .filter(|f| f.kind == FieldKind::Value)
            .collect();
        let mut f = frame.to_vec();
        if let Some(fi) = data.get(self.rng.random_range(0..data.len().max(1)))
            && f.len() * 8 >= fi.offset + fi.bits as usize
        {
            let b = fi.offset + self.rng.random_range(0..fi.bits as usize);
            f[b / 8] ^= 0x80 >> (b % 8);
        }
        arrivals.push((t, dst, f));
    }
}
