//! `onerma_seal` with a real engine pool (top `onerma_seal_sim`) on the Verilated tops `seal`
//! (128-bit data, 2 stages, 2 iterative engines, an 8-bit count so exhaustion is reachable) and
//! `seal_default` (512-bit data, 4 stages, 2 pipelined engines, the protocol's 48-bit count).
//!
//! The reference is the model's crypto (RustCrypto `aes-gcm` through `onerma_model::crypto`),
//! never the RTL: every output frame must be `hdr | ciphertext | tag` of `80 + chunk_len` bytes,
//! decrypt and authenticate under its job's key with iv `{nic_addr, counter}` and the 64 header
//! bytes as sent as AAD; its header is the job's with `src_nic = nic_addr` and the assigned
//! counter; its plaintext is the job's payload. Counters are computed here from protocol §10
//! (`{epoch, 1}` after `ctr_reset`, +1 per accepted job, nothing accepted at `2^CountW - 1`) and
//! compared with every `asg` pulse, which must come exactly in the acceptance cycle. Also checked
//! every cycle: the AXI4-Stream rule and `tkeep` (all ones but a prefix on the last beat), and
//! that a message's din beats, once the first is offered, come without a bubble (the pool's din
//! stream is observed at the top).
//!
//! Payload abort: a job with a payload beat carrying `pay_err_i` must never show a frame (nor a
//! descriptor); `drop_o` must pulse exactly in the handshake cycle of its last payload beat with
//! its meta, and never otherwise; its counter is spent (the next job gets the next count); every
//! other job's frame is intact and descriptors follow the acceptance order of the jobs that were
//! not dropped.
//!
//! Frame order: frames leave in staging order (docs/nic.md), the order the jobs were accepted
//! without the dropped ones, which is this test's submission order; a frame out of that order
//! fails even if it is otherwise correct.

use std::collections::{BTreeMap, VecDeque};

use onerma_layouts::MsgType;
use onerma_model::crypto::{Crypto, RESERVED_KEY, iv};
use onerma_rtl_tests::bits::be_to_words;
use onerma_rtl_tests::{RuleMonitor, Source, Throttle};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const HDR: usize = 64;
const TAG: usize = 16;
const CHUNK: usize = onerma_layouts::CHUNK_BYTES;
// Byte positions in the serialised hdr (spec/layouts.json): src_nic [479:448], counter
// [415:352], chunk_len [127:112].
const SRC_NIC: usize = 4;
const COUNTER: usize = 12;
const CHUNK_LEN: usize = 48;

trait Dut {
    /// Bytes per payload / AXI4-Stream beat.
    const BYTES: usize;
    /// Width of the message count (`2^COUNT_W - 2` is the last usable count).
    const COUNT_W: u32;
    /// 128-bit beats per word on the pool's din (the top's `Lanes`).
    const LANES: usize;
    fn fresh() -> Self;
    fn eval(&mut self);
    fn tick(&mut self);
    fn drive_cfg(&mut self, nic: u32, epoch: u16, ctr_reset: bool);
    fn drive_job(&mut self, job: Option<&Job>);
    /// `beat`: BYTES bytes, byte 0 first (big-endian on the port); `err`: `pay_err_i`.
    fn drive_pay(&mut self, beat: Option<&[u8]>, last: bool, err: bool);
    fn set_tready(&mut self, ready: bool);
    fn job_ready(&self) -> bool;
    fn pay_ready(&self) -> bool;
    fn exhausted(&self) -> bool;
    /// (meta, counter) while asg_valid_o.
    fn asg(&self) -> Option<(u8, u64)>;
    /// meta while drop_o.
    fn dropped(&self) -> Option<u8>;
    /// meta while sent_valid_o.
    fn sent(&self) -> Option<u8>;
    /// (bytes in lane order, tkeep, tlast) while tvalid.
    fn axis(&self) -> Option<(Vec<u8>, u64, bool)>;
    /// (descriptor handshake, din_valid, din_ready) between sealer and pool.
    fn obs(&self) -> (bool, bool, bool);
}

macro_rules! dut {
    ($m:ident, $bytes:expr, $count_w:expr, $lanes:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const BYTES: usize = $bytes;
            const COUNT_W: u32 = $count_w;
            const LANES: usize = $lanes;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive_cfg(&mut self, nic: u32, epoch: u16, ctr_reset: bool) {
                self.set_nic_addr_i(nic);
                self.set_epoch_i(epoch);
                self.set_ctr_reset_i(u8::from(ctr_reset));
            }
            fn drive_job(&mut self, job: Option<&Job>) {
                self.set_job_valid_i(u8::from(job.is_some()));
                let (hdr, key, meta) =
                    job.map_or(([0u8; HDR], [0u8; 16], 0), |j| (j.hdr, j.key, j.meta));
                self.set_job_hdr_i(&be_to_words::<16>(&hdr));
                self.set_job_key_i(&be_to_words::<4>(&key));
                self.set_job_meta_i(meta);
            }
            fn drive_pay(&mut self, beat: Option<&[u8]>, last: bool, err: bool) {
                self.set_pay_valid_i(u8::from(beat.is_some()));
                let zero = [0u8; $bytes];
                // AXI lane order: byte 0 in bits 7:0.
                let b = beat.unwrap_or(&zero);
                let words: [u32; $bytes / 4] = std::array::from_fn(|i| {
                    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
                });
                self.set_pay_data_i(&words);
                self.set_pay_last_i(u8::from(last && beat.is_some()));
                self.set_pay_err_i(u8::from(err && beat.is_some()));
            }
            fn set_tready(&mut self, ready: bool) {
                self.set_m_axis_tready(u8::from(ready));
            }
            fn job_ready(&self) -> bool {
                self.job_ready_o() != 0
            }
            fn dropped(&self) -> Option<u8> {
                (self.drop_o() != 0).then(|| self.drop_meta_o())
            }
            fn sent(&self) -> Option<u8> {
                (self.sent_valid_o() != 0).then(|| self.sent_meta_o())
            }
            fn pay_ready(&self) -> bool {
                self.pay_ready_o() != 0
            }
            fn exhausted(&self) -> bool {
                self.exhausted_o() != 0
            }
            fn asg(&self) -> Option<(u8, u64)> {
                (self.asg_valid_o() != 0).then(|| (self.asg_meta_o(), self.asg_counter_o()))
            }
            fn axis(&self) -> Option<(Vec<u8>, u64, bool)> {
                if self.m_axis_tvalid() == 0 {
                    return None;
                }
                let w = self.m_axis_tdata();
                let bytes = (0..$bytes)
                    .map(|i| (w[i / 4] >> (8 * (i % 4))) as u8)
                    .collect();
                Some((
                    bytes,
                    u64::from(self.m_axis_tkeep()),
                    self.m_axis_tlast() != 0,
                ))
            }
            fn obs(&self) -> (bool, bool, bool) {
                (
                    self.obs_desc_fire_o() != 0,
                    self.obs_din_valid_o() != 0,
                    self.obs_din_ready_o() != 0,
                )
            }
        }
    };
}

dut!(seal, 16, 8, 1);
dut!(seal_default, 64, 48, 4);
// 1 and 4 pipelined engines: benchmark tops (group `bench`, built only with `--features bench`;
// the 4-engine pool alone takes about 10 minutes to build).
#[cfg(feature = "bench")]
dut!(seal_e1, 64, 48, 4);
#[cfg(feature = "bench")]
dut!(seal_e4, 64, 48, 4);

/// One message to seal.
#[derive(Debug, Clone)]
struct Job {
    /// Header as given (src_nic and counter are the sealer's to fill).
    hdr: [u8; HDR],
    key: [u8; 16],
    meta: u8,
    payload: Vec<u8>,
    /// Payload beats that carry `pay_err_i` (the job must be dropped iff not empty).
    err_beats: Vec<usize>,
}

/// A random job: any message type, random header bytes (reserved bits included: the sealer
/// sends them as given), a random or the reserved key, chunk_len 1..=CHUNK_BYTES or 0 on RD_RESP and
/// WR_DATA and 0 otherwise.
fn random_job(rng: &mut StdRng, meta: u8, max_len: usize) -> Job {
    let mut hdr = [0u8; HDR];
    rng.fill(&mut hdr[..]);
    let ty = MsgType::ALL[rng.random_range(0..MsgType::ALL.len())];
    hdr[0] = ty as u8;
    let len = if matches!(ty, MsgType::RdResp | MsgType::WrData) && rng.random_bool(0.85) {
        if rng.random_bool(0.3) {
            *[1, 15, 16, 17, 63, 64, 65, max_len]
                .get(rng.random_range(0..8))
                .unwrap_or(&1)
        } else {
            rng.random_range(1..=max_len)
        }
    } else {
        0
    };
    hdr[CHUNK_LEN..CHUNK_LEN + 2].copy_from_slice(&(len as u16).to_be_bytes());
    let key = if rng.random_bool(0.2) {
        RESERVED_KEY
    } else {
        rng.random()
    };
    let mut payload = vec![0u8; len];
    rng.fill(&mut payload[..]);
    Job {
        hdr,
        key,
        meta,
        payload,
        err_beats: Vec::new(),
    }
}

/// Marks one to three random payload beats of a job as erroneous (a job without payload first
/// becomes a WR_DATA of 1..=`max_len` bytes).
fn spoil(rng: &mut StdRng, job: &mut Job, bytes: usize, max_len: usize) {
    if job.payload.is_empty() {
        let len = rng.random_range(1..=max_len);
        job.hdr[0] = MsgType::WrData as u8;
        job.hdr[CHUNK_LEN..CHUNK_LEN + 2].copy_from_slice(&(len as u16).to_be_bytes());
        job.payload = vec![0u8; len];
        rng.fill(&mut job.payload[..]);
    }
    let beats = job.payload.len().div_ceil(bytes);
    let n = rng.random_range(1..=beats.min(3));
    job.err_beats = (0..n).map(|_| rng.random_range(0..beats)).collect();
}

/// Stall settings in eighths (8 = never stall).
#[derive(Debug, Clone, Copy)]
struct Gaps {
    job: u8,
    pay: u8,
    out: u8,
}

const NO_GAPS: Gaps = Gaps {
    job: 8,
    pay: 8,
    out: 8,
};

/// The bench: the reference counter and the checks that run every cycle.
struct Bench<D: Dut> {
    dut: D,
    rng: StdRng,
    nic: u32,
    epoch: u16,
    /// Next count to assign (protocol §10).
    count: u64,
    cycle: u64,
    axis_rule: RuleMonitor<(Vec<u8>, u64, bool)>,
    /// din words left of each descriptor taken, in descriptor order, and whether its first beat
    /// was offered.
    din: VecDeque<(usize, bool)>,
    /// Frame being received.
    frame: Vec<u8>,
}

/// What a run produced.
struct Outcome {
    /// Cycle of each frame's last beat.
    frame_ends: Vec<u64>,
    /// Jobs dropped (drop_o pulses).
    drops: usize,
}

impl<D: Dut> Bench<D> {
    fn new(seed: u64) -> Self {
        let mut b = Self {
            dut: D::fresh(),
            rng: StdRng::seed_from_u64(seed),
            nic: 0,
            epoch: 0,
            count: 1,
            cycle: 0,
            axis_rule: RuleMonitor::new("m_axis"),
            din: VecDeque::new(),
            frame: Vec::new(),
        };
        b.nic = b.rng.random();
        b.epoch = b.rng.random();
        b
    }

    fn last_count(&self) -> u64 {
        (1u64 << D::COUNT_W) - 2
    }

    /// New epoch and nic_addr, ctr_reset for one cycle (nothing may be accepted in it).
    fn ctr_reset(&mut self, offer: Option<&Job>) -> Result<(), TestCaseError> {
        self.nic = self.rng.random();
        self.epoch = self.rng.random();
        self.dut.drive_cfg(self.nic, self.epoch, true);
        self.dut.drive_job(offer);
        self.dut.drive_pay(None, false, false);
        self.dut.set_tready(true);
        self.dut.eval();
        prop_assert!(!self.dut.job_ready(), "job ready during ctr_reset");
        prop_assert!(self.dut.asg().is_none(), "asg during ctr_reset");
        self.dut.tick();
        self.cycle += 1;
        self.dut.drive_cfg(self.nic, self.epoch, false);
        self.count = 1;
        prop_assert!(!self.dut.exhausted(), "exhausted_o after ctr_reset");
        Ok(())
    }

    /// Runs `jobs` to completion (a job refused because the counter is used up stays offered
    /// until the run ends, then is withdrawn); checks every frame against the reference.
    fn run(&mut self, jobs: &[Job], gaps: Gaps) -> Result<Outcome, TestCaseError> {
        let seed: u64 = self.rng.random();
        let mut job_src = Source::new(Throttle::eighths(seed, gaps.job)?);
        for i in 0..jobs.len() {
            job_src.push(i);
        }
        // Payload beats: (bytes, last, err, job).
        let mut pay_src: Source<(Vec<u8>, bool, bool, usize)> =
            Source::new(Throttle::eighths(seed ^ 1, gaps.pay)?);
        let mut out_thr = Throttle::eighths(seed ^ 2, gaps.out)?;
        // Accepted jobs by counter (= acceptance order) and the same in a list.
        let mut accepted: BTreeMap<u64, usize> = BTreeMap::new();
        let mut order: Vec<usize> = Vec::new();
        let mut descs = 0usize;
        let mut frames: Vec<Vec<u8>> = Vec::new();
        let mut frame_ends = Vec::new();
        // The meta `sent_*` named at each frame's last beat.
        let mut sent_metas = Vec::new();
        let mut drops = 0usize;
        let start = self.cycle;
        let mut idle = 0u64;
        let limit = 4000 + 3000 * jobs.len() as u64;
        loop {
            let offer = job_src.offer().copied();
            let job = offer.map(|i| &jobs[i]);
            let beat = pay_src.offer().cloned();
            let tready = out_thr.go();
            self.dut.drive_job(job);
            self.dut.drive_pay(
                beat.as_ref().map(|b| b.0.as_slice()),
                beat.as_ref().is_some_and(|b| b.1),
                beat.as_ref().is_some_and(|b| b.2),
            );
            self.dut.set_tready(tready);
            self.dut.eval();

            // Exhaustion (protocol §10): exhausted_o iff the next count is beyond the last usable
            // one, and then nothing is accepted.
            prop_assert_eq!(
                self.dut.exhausted(),
                self.count > self.last_count(),
                "cycle {}: exhausted_o at count {}",
                self.cycle,
                self.count
            );
            if self.dut.exhausted() {
                prop_assert!(
                    !self.dut.job_ready(),
                    "cycle {}: job_ready_o while exhausted",
                    self.cycle
                );
            }

            // Job handshake and the asg pulse in the same cycle.
            let job_fire = job.is_some() && self.dut.job_ready();
            match (offer.filter(|_| job_fire), self.dut.asg()) {
                (Some(j), Some((meta, counter))) => {
                    let want = (u64::from(self.epoch) << 48) | self.count;
                    prop_assert_eq!(counter, want, "cycle {}: assigned counter", self.cycle);
                    prop_assert_eq!(meta, jobs[j].meta, "cycle {}: asg meta", self.cycle);
                    self.count += 1;
                    accepted.insert(counter, j);
                    order.push(j);
                    let p = &jobs[j].payload;
                    for (k, c) in p.chunks(D::BYTES).enumerate() {
                        let mut b = vec![0u8; D::BYTES];
                        b[..c.len()].copy_from_slice(c);
                        // Bytes after chunk_len are ignored: fill them with noise.
                        self.rng.fill(&mut b[c.len()..]);
                        pay_src.push((
                            b,
                            (k + 1) * D::BYTES >= p.len(),
                            jobs[j].err_beats.contains(&k),
                            j,
                        ));
                    }
                }
                (None, None) => {}
                (j, asg) => {
                    return Err(TestCaseError::fail(format!(
                        "cycle {}: job handshake of {j:?} but asg {asg:?}",
                        self.cycle
                    )));
                }
            }
            let pay_fire = beat.is_some() && self.dut.pay_ready();

            // Abort: drop_o exactly at the last beat of a job with an erroneous beat.
            let want_drop = beat
                .as_ref()
                .filter(|b| pay_fire && b.1 && !jobs[b.3].err_beats.is_empty())
                .map(|b| b.3);
            match (want_drop, self.dut.dropped()) {
                (Some(j), Some(meta)) => {
                    prop_assert_eq!(meta, jobs[j].meta, "cycle {}: drop meta", self.cycle);
                    // The newest accepted job (the next is taken after the last beat).
                    prop_assert_eq!(order.pop(), Some(j), "cycle {}: dropped job", self.cycle);
                    accepted.retain(|_, v| *v != j);
                    drops += 1;
                }
                (None, None) => {}
                (w, got) => {
                    return Err(TestCaseError::fail(format!(
                        "cycle {}: drop of job {w:?} expected, drop_o meta {got:?}",
                        self.cycle
                    )));
                }
            }

            // din continuity: once a message's first beat is offered, din_valid stays high until
            // its last beat is taken.
            let (desc_fire, din_valid, din_ready) = self.dut.obs();
            if let Some((left, started)) = self.din.front_mut() {
                if *started {
                    prop_assert!(
                        din_valid,
                        "cycle {}: din bubble inside a message ({} words left)",
                        self.cycle,
                        left
                    );
                }
                *started |= din_valid;
                if din_valid && din_ready {
                    *left -= 1;
                    if *left == 0 {
                        self.din.pop_front();
                    }
                }
            } else {
                prop_assert!(
                    !din_valid,
                    "cycle {}: din beat without a descriptor",
                    self.cycle
                );
            }
            if desc_fire {
                // Messages are staged and issued in acceptance order.
                let j = *order.get(descs).ok_or_else(|| {
                    TestCaseError::fail(format!("cycle {}: descriptor without a job", self.cycle))
                })?;
                // The pool's words: the header's, then the payload's (each part starts a new
                // word of LANES 16-byte beats).
                let words = 4 / D::LANES + jobs[j].payload.len().div_ceil(16 * D::LANES);
                self.din.push_back((words, false));
                descs += 1;
            }

            // Output.
            let ax = self.dut.axis();
            let data = ax.clone().unwrap_or_default();
            self.axis_rule
                .check(self.cycle, ax.is_some(), tready, &data)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let sent = self.dut.sent();
            prop_assert_eq!(
                sent.is_some(),
                ax.as_ref().is_some_and(|a| a.2) && tready,
                "cycle {}: sent_valid_o not exactly at a frame's last beat",
                self.cycle
            );
            if let Some(m) = sent {
                sent_metas.push(m);
            }
            if let Some((bytes, keep, last)) = ax.filter(|_| tready) {
                let all = if D::BYTES == 64 {
                    u64::MAX
                } else {
                    (1u64 << D::BYTES) - 1
                };
                if last {
                    prop_assert!(
                        keep != 0 && (keep & keep.wrapping_add(1)) == 0 && keep <= all,
                        "cycle {}: last tkeep {:#x} not a prefix",
                        self.cycle,
                        keep
                    );
                    let n = keep.count_ones() as usize;
                    self.frame.extend_from_slice(&bytes[..n]);
                    frames.push(std::mem::take(&mut self.frame));
                    frame_ends.push(self.cycle);
                } else {
                    prop_assert_eq!(
                        keep,
                        all,
                        "cycle {}: tkeep before the last beat",
                        self.cycle
                    );
                    self.frame.extend_from_slice(&bytes);
                }
            }

            job_src.handshake(job_fire);
            pay_src.handshake(pay_fire);
            self.dut.tick();
            self.cycle += 1;

            let jobs_done = job_src.is_idle() || self.dut.exhausted();
            if jobs_done && pay_src.is_idle() && frames.len() == accepted.len() {
                idle += 1;
                if idle > 300 {
                    break;
                }
            } else {
                idle = 0;
            }
            prop_assert!(
                self.cycle - start < limit,
                "no progress: {} of {} frames after {} cycles",
                frames.len(),
                accepted.len(),
                self.cycle - start
            );
        }
        // A job refused for good is taken back (the next ctr_reset makes it acceptable again).
        let _ = job_src.withdraw();
        self.dut.drive_job(None);
        prop_assert!(self.din.is_empty(), "din beats missing at the end");
        prop_assert_eq!(descs, order.len(), "one descriptor per job not dropped");
        self.check_frames(jobs, accepted, &order, &frames, &sent_metas)?;
        Ok(Outcome { frame_ends, drops })
    }

    /// Every frame against the reference, exactly one per accepted job, in staging order: the
    /// order this test's jobs were accepted, without the dropped ones (`order`, from the job
    /// handshakes, never from the frames).
    fn check_frames(
        &self,
        jobs: &[Job],
        mut accepted: BTreeMap<u64, usize>,
        order: &[usize],
        frames: &[Vec<u8>],
        sent_metas: &[u8],
    ) -> Result<(), TestCaseError> {
        prop_assert_eq!(sent_metas.len(), frames.len(), "one sent pulse per frame");
        let mut crypto = Crypto::new(false);
        for (n, f) in frames.iter().enumerate() {
            prop_assert!(f.len() >= HDR + TAG, "frame {}: {} bytes", n, f.len());
            let mut c = [0u8; 8];
            c.copy_from_slice(&f[COUNTER..COUNTER + 8]);
            let counter = u64::from_be_bytes(c);
            let j = accepted.remove(&counter).ok_or_else(|| {
                TestCaseError::fail(format!(
                    "frame {n}: counter {counter:#x} of no accepted job (or a second frame)"
                ))
            })?;
            prop_assert_eq!(
                order.get(n).copied(),
                Some(j),
                "frame {}: job {} out of staging order {:?}",
                n,
                j,
                order
            );
            let job = &jobs[j];
            prop_assert_eq!(sent_metas[n], job.meta, "frame {}: sent_meta_o", n);
            let len = job.payload.len();
            prop_assert_eq!(f.len(), HDR + len + TAG, "frame {}: length", n);
            let mut hdr = job.hdr;
            hdr[SRC_NIC..SRC_NIC + 4].copy_from_slice(&self.nic.to_be_bytes());
            hdr[COUNTER..COUNTER + 8].copy_from_slice(&counter.to_be_bytes());
            prop_assert_eq!(&f[..HDR], &hdr[..], "frame {}: header", n);
            let iv = iv(self.nic, counter).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut body = f[HDR..HDR + len].to_vec();
            let ok = crypto.open(&job.key, &iv, &f[..HDR], &mut body, &f[HDR + len..]);
            prop_assert!(ok, "frame {} (job {}): does not authenticate", n, j);
            prop_assert_eq!(&body, &job.payload, "frame {}: plaintext", n);
        }
        prop_assert!(
            accepted.is_empty(),
            "no frame for accepted counters {:x?}",
            accepted.keys().collect::<Vec<_>>()
        );
        Ok(())
    }
}

fn random_gaps(rng: &mut StdRng) -> Gaps {
    Gaps {
        job: rng.random_range(1..=8),
        pay: rng.random_range(1..=8),
        out: rng.random_range(1..=8),
    }
}

/// `runs` batches of random jobs, a ctr_reset (new epoch and nic_addr) before each; a job with
/// a payload gets erroneous beats with `p_abort` percent. Returns the jobs dropped.
fn random_runs<D: Dut>(
    seed: u64,
    runs: usize,
    max_jobs: usize,
    p_abort: u8,
) -> Result<usize, TestCaseError> {
    let mut b = Bench::<D>::new(seed);
    let mut drops = 0;
    for _ in 0..runs {
        let n = b.rng.random_range(1..=max_jobs);
        let mut jobs: Vec<Job> = (0..n)
            .map(|i| random_job(&mut b.rng, i as u8, CHUNK))
            .collect();
        for j in &mut jobs {
            if b.rng.random_range(0u8..100) < p_abort {
                spoil(&mut b.rng, j, D::BYTES, CHUNK);
            }
        }
        let gaps = random_gaps(&mut b.rng);
        b.ctr_reset(None)?;
        drops += b.run(&jobs, gaps)?.drops;
    }
    Ok(drops)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn small_frames_match_reference(seed in any::<u64>(), runs in 1usize..=3) {
        random_runs::<onerma_rtl::seal::Model>(seed, runs, 10, 0)?;
    }

    /// Jobs whose payload carries an error never leave; the rest are intact (both tops).
    #[test]
    fn aborted_jobs_never_leave(seed in any::<u64>(), runs in 1usize..=3) {
        random_runs::<onerma_rtl::seal::Model>(seed, runs, 12, 40)?;
    }

    #[test]
    fn default_aborted_jobs_never_leave(seed in any::<u64>()) {
        random_runs::<onerma_rtl::seal_default::Model>(seed, 1, 12, 40)?;
    }

    #[test]
    fn default_frames_match_reference(seed in any::<u64>(), runs in 1usize..=2) {
        random_runs::<onerma_rtl::seal_default::Model>(seed, runs, 10, 0)?;
    }
}

/// Every other job with a payload dropped, 2 stages: dropped stages are reused (no wedge), at
/// least one drop happens, counters skip the dropped jobs' values.
#[test]
fn aborts_free_their_stage() -> Result<(), TestCaseError> {
    let mut b = Bench::<onerma_rtl::seal::Model>::new(3);
    let mut jobs: Vec<Job> = (0..40)
        .map(|i| random_job(&mut b.rng, i as u8, 200))
        .collect();
    for (i, j) in jobs.iter_mut().enumerate() {
        if i % 2 == 0 {
            spoil(&mut b.rng, j, 16, 200);
        }
    }
    b.ctr_reset(None)?;
    let o = b.run(&jobs, NO_GAPS)?;
    prop_assert_eq!(o.drops, 20, "drops");
    prop_assert_eq!(b.count, 41, "every accepted job spent a counter");
    Ok(())
}

/// The counter is used up (small top: 8-bit count, last usable 254): exactly the jobs up to it
/// are accepted, then exhausted_o and nothing more, even a job offered during ctr_reset; a
/// ctr_reset makes the sealer usable again from count 1.
#[test]
fn counter_exhaustion() -> Result<(), TestCaseError> {
    let mut b = Bench::<onerma_rtl::seal::Model>::new(7);
    let jobs: Vec<Job> = (0..260)
        .map(|i| random_job(&mut b.rng, i as u8, 40))
        .collect();
    b.ctr_reset(None)?;
    b.run(&jobs, NO_GAPS)?;
    assert_eq!(b.count, 255, "count after the run");
    assert!(b.dut.exhausted());
    // ctr_reset with a job offered: not taken in that cycle, then taken with {epoch, 1}.
    b.ctr_reset(Some(&jobs[0]))?;
    assert!(!b.dut.exhausted());
    b.run(&jobs[..3], NO_GAPS)?;
    assert_eq!(b.count, 4);
    Ok(())
}

/// Back-to-back frames without stalls on the default top (2 pipelined engines): frames per
/// cycle of 80-byte frames (no payload) and payload bytes per cycle of whole (CHUNK_BYTES) chunks, measured
/// between the 8th and the last frame. Printed for docs/nic.md (`-- --nocapture`).
fn throughput<D: Dut>(name: &str) -> Result<(f64, f64), TestCaseError> {
    let mut b = Bench::<D>::new(11);
    let mut rate = |len: usize, n: usize| -> Result<f64, TestCaseError> {
        let jobs: Vec<Job> = (0..n)
            .map(|i| {
                let mut j = random_job(&mut b.rng, i as u8, CHUNK);
                j.hdr[0] = if len == 0 {
                    MsgType::RdReq
                } else {
                    MsgType::RdResp
                } as u8;
                j.hdr[CHUNK_LEN..CHUNK_LEN + 2].copy_from_slice(&(len as u16).to_be_bytes());
                j.payload = vec![0x5a; len];
                j
            })
            .collect();
        b.ctr_reset(None)?;
        let o = b.run(&jobs, NO_GAPS)?;
        let (k, e) = (8, o.frame_ends.len() - 1);
        Ok((e - k) as f64 / (o.frame_ends[e] - o.frame_ends[k]) as f64)
    };
    let frames = rate(0, 48)?;
    let bytes = rate(CHUNK, 24)? * CHUNK as f64;
    println!("{name}: 80-byte frames {frames:.4} frames/cycle, whole chunks {bytes:.2} B/cycle");
    Ok((frames, bytes))
}

// Floors well under the measured figures (docs/nic.md), to catch a lost pipeline: with
// NumStage = 4 short frames are bound by the frames in flight (4 per engine latency), 1 KB
// chunks by the stages too (about 24 B/cycle with the pool's 512-bit words; 16 B/cycle at most
// with 128-bit beats), so the floor holds for either.
fn check_floor(frames: f64, bytes: f64) -> Result<(), TestCaseError> {
    prop_assert!(frames > 0.04, "80-byte frames/cycle {}", frames);
    prop_assert!(bytes > 12.0, "whole-chunk bytes/cycle {}", bytes);
    Ok(())
}

#[test]
fn throughput_default() -> Result<(), TestCaseError> {
    let (f, b) = throughput::<onerma_rtl::seal_default::Model>("seal_default (2 engines)")?;
    check_floor(f, b)
}

#[cfg(feature = "bench")]
#[test]
fn throughput_one_engine() -> Result<(), TestCaseError> {
    let (f, b) = throughput::<onerma_rtl::seal_e1::Model>("seal_e1 (1 engine)")?;
    check_floor(f, b)
}

#[cfg(feature = "bench")]
#[test]
fn throughput_four_engines() -> Result<(), TestCaseError> {
    let (f, b) = throughput::<onerma_rtl::seal_e4::Model>("seal_e4 (4 engines)")?;
    check_floor(f, b)
}
