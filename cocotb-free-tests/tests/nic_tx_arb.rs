//! `onerma_tx_arb` (the transmit edge) against a reference of its promises: random packets from
//! every source with random gaps (inside packets too) and output back-pressure.
//!
//! Checked: the output carries whole packets, never interleaved (from a first beat to its `tlast`
//! every beat comes from one source, as `m_axis_tx_src_o` says), each source's packets arrive
//! whole and in order, byte for byte with their `tkeep`; no bubble between packets (when no
//! packet is in progress and a source offers a first beat, the output is valid); round robin (a
//! source offering a first beat sees at most `NumSrc - 1` other packets start before its own).
//! A separate test measures beats per cycle with every source always valid and the output always
//! ready.

use std::collections::VecDeque;

use onerma_rtl_tests::bits::put_bits;
use onerma_rtl_tests::{Source, Throttle};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[derive(Clone, Debug, PartialEq)]
struct Beat {
    data: Vec<u8>,
    keep: u64,
    last: bool,
}

trait Dut {
    const N: usize;
    const BYTES: usize;
    fn fresh() -> Self;
    fn eval(&mut self);
    fn tick(&mut self);
    fn set_inputs(&mut self, beats: &[Option<Beat>], ready: bool);
    fn in_ready(&self) -> Vec<bool>;
    /// The output beat and its source.
    fn out(&self) -> Option<(Beat, usize)>;
}

fn lanes_to_u128(b: &[u8]) -> Vec<u128> {
    b.chunks(16)
        .map(|c| c.iter().rev().fold(0u128, |a, &x| (a << 8) | u128::from(x)))
        .collect()
}

macro_rules! dut {
    ($m:ident, $n:expr, $bytes:expr, $dwords:expr, $kwords:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const N: usize = $n;
            const BYTES: usize = $bytes;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn set_inputs(&mut self, beats: &[Option<Beat>], ready: bool) {
                let mut data = [0u32; $dwords];
                let mut keep = [0u32; $kwords];
                let (mut valid, mut last) = (0u8, 0u8);
                for (i, b) in beats.iter().enumerate() {
                    if let Some(b) = b {
                        valid |= 1 << i;
                        last |= u8::from(b.last) << i;
                        for (j, w) in lanes_to_u128(&b.data).into_iter().enumerate() {
                            put_bits(&mut data, i * $bytes * 8 + j * 128, 128, w);
                        }
                        put_bits(&mut keep, i * $bytes, $bytes, u128::from(b.keep));
                    }
                }
                self.set_s_axis_tvalid_i(valid);
                self.set_s_axis_tlast_i(last);
                self.set_s_axis_tdata_i(&data);
                keep_set(self, &keep);
                self.set_m_axis_tx_tready_i(u8::from(ready));
            }
            fn in_ready(&self) -> Vec<bool> {
                let r = self.s_axis_tready_o();
                (0..$n).map(|i| (r >> i) & 1 == 1).collect()
            }
            fn out(&self) -> Option<(Beat, usize)> {
                (self.m_axis_tx_tvalid_o() != 0).then(|| {
                    let d = self.m_axis_tx_tdata_o();
                    (
                        Beat {
                            data: d.iter().flat_map(|x| x.to_le_bytes()).collect(),
                            keep: u64::from(self.m_axis_tx_tkeep_o()),
                            last: self.m_axis_tx_tlast_o() != 0,
                        },
                        usize::from(self.m_axis_tx_src_o()),
                    )
                })
            }
        }
    };
}

// The keep port is a plain integer up to 64 bits and a word array above.
fn keep_set_small(m: &mut onerma_rtl::tx_arb::Model, k: &[u32; 2]) {
    m.set_s_axis_tkeep_i(u64::from(k[0]) | (u64::from(k[1]) << 32));
}
fn keep_set_big(m: &mut onerma_rtl::tx_arb_default::Model, k: &[u32; 4]) {
    m.set_s_axis_tkeep_i(k);
}
trait KeepSet<const W: usize> {
    fn keep_set(&mut self, k: &[u32; W]);
}
impl KeepSet<2> for onerma_rtl::tx_arb::Model {
    fn keep_set(&mut self, k: &[u32; 2]) {
        keep_set_small(self, k);
    }
}
impl KeepSet<4> for onerma_rtl::tx_arb_default::Model {
    fn keep_set(&mut self, k: &[u32; 4]) {
        keep_set_big(self, k);
    }
}
fn keep_set<const W: usize, M: KeepSet<W>>(m: &mut M, k: &[u32; W]) {
    m.keep_set(k);
}

dut!(tx_arb, 3, 16, 12, 2);
dut!(tx_arb_default, 2, 64, 32, 4);

fn packet(rng: &mut StdRng, bytes: usize, max_beats: usize) -> Vec<Beat> {
    let n = rng.random_range(1..=max_beats);
    (0..n)
        .map(|i| {
            let last = i + 1 == n;
            let k = if last {
                rng.random_range(1..=bytes)
            } else {
                bytes
            };
            let mut data: Vec<u8> = (0..k).map(|_| rng.random()).collect();
            data.resize(bytes, 0);
            Beat {
                data,
                keep: if k == 64 { u64::MAX } else { (1 << k) - 1 },
                last,
            }
        })
        .collect()
}

/// The kept bytes of a beat (what the network carries).
fn kept(b: &Beat) -> (Vec<u8>, u64, bool) {
    let n = b.keep.count_ones() as usize;
    (b.data[..n].to_vec(), b.keep, b.last)
}

fn run<D: Dut>(seed: u64, packets: usize, offer: u8, ready: u8) -> Result<u64, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = D::fresh();
    let mut srcs: Vec<Source<Beat>> = Vec::new();
    let mut want: Vec<VecDeque<Vec<Beat>>> = vec![VecDeque::new(); D::N];
    for w in &mut want {
        let th = Throttle::eighths(rng.random(), offer)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut src = Source::new(th);
        for _ in 0..rng.random_range(0..=packets) {
            let p = packet(&mut rng, D::BYTES, 6);
            for b in &p {
                src.push(b.clone());
            }
            w.push_back(p);
        }
        srcs.push(src);
    }
    let mut sink =
        Throttle::eighths(rng.random(), ready).map_err(|e| TestCaseError::fail(e.to_string()))?;
    // Output side: the packet in progress (source, beats so far).
    let mut cur: Option<(usize, Vec<Beat>)> = None;
    // Per source: at the start of which packet it began offering a first beat, and the number
    // of other packets started since.
    let mut at_start = vec![true; D::N];
    let mut waited = vec![0usize; D::N];
    let mut cycle = 0u64;
    let total: usize = want
        .iter()
        .map(|q| q.iter().map(Vec::len).sum::<usize>())
        .sum();
    let limit = 100 * total as u64 + 1000;
    while srcs.iter().any(|s| !s.is_idle()) || cur.is_some() {
        let offers: Vec<Option<Beat>> = srcs.iter_mut().map(|s| s.offer().cloned()).collect();
        let rdy = sink.go();
        dut.set_inputs(&offers, rdy);
        dut.eval();
        let out = dut.out();
        let in_ready = dut.in_ready();
        // No bubble between packets.
        if cur.is_none() && offers.iter().any(Option::is_some) {
            prop_assert!(out.is_some(), "cycle {}: bubble between packets", cycle);
        }
        // Only the granted source sees ready, and only on a transfer.
        for s in 0..D::N {
            if in_ready[s] && offers[s].is_some() {
                prop_assert!(
                    rdy,
                    "cycle {}: source {} ready without output ready",
                    cycle,
                    s
                );
                prop_assert_eq!(
                    out.as_ref().map(|o| o.1),
                    Some(s),
                    "cycle {}: ready to a source not on the output",
                    cycle
                );
            }
        }
        if let Some((b, s)) = out.as_ref() {
            prop_assert!(*s < D::N);
            prop_assert!(
                offers[*s].as_ref() == Some(b),
                "cycle {}: output beat is not source {}'s offer",
                cycle,
                s
            );
            if let Some((cs, _)) = &cur {
                prop_assert_eq!(*cs, *s, "cycle {}: packets interleave", cycle);
            }
            if rdy {
                prop_assert!(
                    in_ready[*s],
                    "cycle {}: transfer without source ready",
                    cycle
                );
                if cur.is_none() {
                    // A packet starts: every other source that waited at a first beat saw one more.
                    for o in 0..D::N {
                        if o != *s && at_start[o] && offers[o].is_some() {
                            waited[o] += 1;
                            prop_assert!(
                                waited[o] < D::N,
                                "cycle {}: source {} passed over {} times",
                                cycle,
                                o,
                                waited[o]
                            );
                        }
                    }
                    waited[*s] = 0;
                    at_start[*s] = false;
                    cur = Some((*s, Vec::new()));
                }
                if let Some((_, beats)) = cur.as_mut() {
                    beats.push(b.clone());
                }
                if b.last {
                    if let Some((cs, beats)) = cur.take() {
                        let exp = want[cs].pop_front();
                        prop_assert!(exp.is_some(), "source {}: packet beyond those sent", cs);
                        if let Some(exp) = exp {
                            let got: Vec<_> = beats.iter().map(kept).collect();
                            let exp: Vec<_> = exp.iter().map(kept).collect();
                            prop_assert_eq!(got, exp, "source {}: packet content or order", cs);
                        }
                    }
                    at_start[*s] = true;
                }
            }
        }
        for (s, src) in srcs.iter_mut().enumerate() {
            src.handshake(in_ready[s]);
        }
        dut.tick();
        cycle += 1;
        prop_assert!(cycle < limit, "wedged");
    }
    for (s, q) in want.iter().enumerate() {
        prop_assert!(q.is_empty(), "source {}: {} packets never sent", s, q.len());
    }
    Ok(cycle)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn small_packets_whole_and_in_order(seed in any::<u64>(), packets in 0usize..30, offer in 1u8..=8, ready in 1u8..=8) {
        run::<onerma_rtl::tx_arb::Model>(seed, packets, offer, ready)?;
    }

    #[test]
    fn default_packets_whole_and_in_order(seed in any::<u64>(), packets in 0usize..30, offer in 1u8..=8, ready in 1u8..=8) {
        run::<onerma_rtl::tx_arb_default::Model>(seed, packets, offer, ready)?;
    }
}

/// Every source always valid, output always ready: one beat per cycle, no bubble.
fn full_rate<D: Dut>() -> f64 {
    let mut rng = StdRng::seed_from_u64(3);
    let mut srcs: Vec<Source<Beat>> = (0..D::N).map(|_| Source::new(Throttle::always())).collect();
    let mut total = 0usize;
    for src in &mut srcs {
        for _ in 0..50 {
            for b in packet(&mut rng, D::BYTES, 4) {
                src.push(b);
                total += 1;
            }
        }
    }
    let mut dut = D::fresh();
    let mut cycles = 0usize;
    while srcs.iter().any(|s| !s.is_idle()) {
        let offers: Vec<Option<Beat>> = srcs.iter_mut().map(|s| s.offer().cloned()).collect();
        dut.set_inputs(&offers, true);
        dut.eval();
        let r = dut.in_ready();
        for (s, src) in srcs.iter_mut().enumerate() {
            src.handshake(r[s]);
        }
        dut.tick();
        cycles += 1;
        assert!(cycles < 10 * total, "wedged");
    }
    total as f64 / cycles as f64
}

#[test]
fn one_beat_per_cycle() {
    let small = full_rate::<onerma_rtl::tx_arb::Model>();
    let big = full_rate::<onerma_rtl::tx_arb_default::Model>();
    println!("tx_arb throughput: 3 x 128 bits {small:.3}, 2 x 512 bits {big:.3} beats/cycle");
    assert!(small == 1.0 && big == 1.0);
}
