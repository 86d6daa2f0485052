//! `onerma_fifo` against a `VecDeque` reference under random stalls, flushes and payloads.
//!
//! Every cycle checks the documented interface exactly (ready/valid/count from the reference
//! occupancy), every pop against the reference head, and the output stream rule.

use std::collections::VecDeque;

use onerma_rtl_tests::{RuleMonitor, Sink, Source, Throttle};
use proptest::prelude::*;

/// The ports every FIFO variant has, widened to u64 so one test body serves all of them.
trait Dut {
    const DEPTH: usize;
    const WIDTH: u32;
    fn fresh() -> Self;
    fn drive(&mut self, flush: bool, in_valid: bool, in_data: u64, out_ready: bool);
    fn eval(&mut self);
    fn tick(&mut self);
    fn in_ready(&self) -> bool;
    fn out_valid(&self) -> bool;
    fn out_data(&self) -> u64;
    fn count(&self) -> u64;
}

macro_rules! dut {
    ($m:ident, $depth:expr, $width:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const DEPTH: usize = $depth;
            const WIDTH: u32 = $width;
            fn fresh() -> Self {
                let mut m = Self::new();
                m.reset(2);
                m
            }
            fn drive(&mut self, flush: bool, in_valid: bool, in_data: u64, out_ready: bool) {
                self.set_flush_i(u8::from(flush));
                self.set_in_valid_i(u8::from(in_valid));
                self.set_in_data_i(in_data as _);
                self.set_out_ready_i(u8::from(out_ready));
            }
            fn eval(&mut self) {
                onerma_rtl::$m::Model::eval(self);
            }
            fn tick(&mut self) {
                onerma_rtl::$m::Model::tick(self);
            }
            fn in_ready(&self) -> bool {
                self.in_ready_o() != 0
            }
            fn out_valid(&self) -> bool {
                self.out_valid_o() != 0
            }
            fn out_data(&self) -> u64 {
                u64::from(self.out_data_o())
            }
            fn count(&self) -> u64 {
                u64::from(self.count_o())
            }
        }
    };
}

dut!(fifo, 5, 16);
dut!(fifo_d1, 1, 16);
dut!(fifo_d4, 4, 16);

fn fail(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

/// Offers `words` for as many cycles as there are words: input willing `p_in`/8 of the cycles,
/// output ready `p_out`/8, a flush in `p_flush`/64 of them (rare, so long fills still happen).
/// Returns the number of words that came out.
fn run<D: Dut>(
    seed: u64,
    p_in: u8,
    p_out: u8,
    p_flush: u8,
    words: &[u16],
) -> Result<usize, TestCaseError> {
    let mask = (1u64 << D::WIDTH) - 1;
    let mut m = D::fresh();
    let mut src = Source::new(Throttle::eighths(seed, p_in).map_err(fail)?);
    words.iter().for_each(|&w| src.push(u64::from(w) & mask));
    let mut sink = Sink::new(Throttle::eighths(seed ^ 0x9e37, p_out).map_err(fail)?);
    let mut flushes = Throttle::new(seed ^ 0x7f4a, f64::from(p_flush) / 64.0).map_err(fail)?;
    let mut rule = RuleMonitor::new("fifo out");
    let mut model: VecDeque<u64> = VecDeque::new();
    for cycle in 0..words.len() as u64 {
        let flush = flushes.go();
        let offer = src.offer().copied();
        let out_ready = sink.ready();
        m.drive(flush, offer.is_some(), offer.unwrap_or(0), out_ready);
        m.eval();

        let len = model.len();
        prop_assert_eq!(m.count(), len as u64, "count_o at cycle {}", cycle);
        prop_assert_eq!(m.out_valid(), len > 0, "out_valid_o at cycle {}", cycle);
        prop_assert_eq!(
            m.in_ready(),
            len < D::DEPTH && !flush,
            "in_ready_o at cycle {}",
            cycle
        );
        rule.check(cycle, m.out_valid(), out_ready, &m.out_data())
            .map_err(fail)?;
        if m.out_valid() {
            prop_assert_eq!(
                Some(m.out_data()),
                model.front().copied(),
                "head at cycle {}",
                cycle
            );
        }

        if sink.handshake(m.out_valid().then(|| m.out_data())) {
            model.pop_front();
        }
        if flush {
            model.clear();
            rule.clear();
            // The producer may withdraw after a flush; do so to exercise that path.
            src.withdraw();
        } else {
            model.extend(src.handshake(m.in_ready()));
        }
        m.tick();
    }
    Ok(sink.received().len())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn fifo_d5_matches_reference(seed in any::<u64>(), p_in in 0u8..=8, p_out in 0u8..=8,
                                 p_flush in 0u8..=2,
                                 words in prop::collection::vec(any::<u16>(), 1..400)) {
        run::<onerma_rtl::fifo::Model>(seed, p_in, p_out, p_flush, &words)?;
    }

    #[test]
    fn fifo_d1_matches_reference(seed in any::<u64>(), p_in in 0u8..=8, p_out in 0u8..=8,
                                 p_flush in 0u8..=2,
                                 words in prop::collection::vec(any::<u16>(), 1..400)) {
        run::<onerma_rtl::fifo_d1::Model>(seed, p_in, p_out, p_flush, &words)?;
    }

    #[test]
    fn fifo_d4_matches_reference(seed in any::<u64>(), p_in in 0u8..=8, p_out in 0u8..=8,
                                 p_flush in 0u8..=2,
                                 words in prop::collection::vec(any::<u16>(), 1..400)) {
        run::<onerma_rtl::fifo_d4::Model>(seed, p_in, p_out, p_flush, &words)?;
    }
}

/// Fill to full, check backpressure, drain: count_o walks 0..=Depth..=0 and order is kept.
fn fill_then_drain<D: Dut>() {
    let mut m = D::fresh();
    for i in 0..D::DEPTH as u64 {
        m.drive(false, true, 0x100 + i, false);
        m.eval();
        assert!(m.in_ready(), "not full yet at {i}");
        assert_eq!(m.count(), i);
        m.tick();
    }
    // Ready does not look at valid, so a full FIFO shows it without an offer (an offer here
    // would have to stay until taken: the stream rule, checked inside the model).
    m.drive(false, false, 0, false);
    m.eval();
    assert!(!m.in_ready(), "full FIFO must not accept");
    assert_eq!(m.count(), D::DEPTH as u64);
    m.tick();
    for i in 0..D::DEPTH as u64 {
        m.drive(false, false, 0, true);
        m.eval();
        assert!(m.out_valid());
        assert_eq!(m.out_data(), 0x100 + i, "FIFO order");
        m.tick();
    }
    m.eval();
    assert!(!m.out_valid(), "empty after draining");
    assert_eq!(m.count(), 0);
}

#[test]
fn fill_then_drain_all_depths() {
    fill_then_drain::<onerma_rtl::fifo::Model>();
    fill_then_drain::<onerma_rtl::fifo_d1::Model>();
    fill_then_drain::<onerma_rtl::fifo_d4::Model>();
}

/// With both sides always ready a Depth >= 2 FIFO moves one word per cycle once primed.
#[test]
fn full_throughput_when_never_stalled() {
    let words: Vec<u16> = (0..200).collect();
    let popped = run::<onerma_rtl::fifo::Model>(0, 8, 8, 0, &words);
    assert!(
        matches!(popped, Ok(199)),
        "expected 199 pops in 200 cycles, got {popped:?}"
    );
    // Depth 1 cannot push and pop in one cycle (ready does not look at out_ready): half rate.
    let popped = run::<onerma_rtl::fifo_d1::Model>(0, 8, 8, 0, &words);
    assert!(
        matches!(popped, Ok(100)),
        "expected 100 pops in 200 cycles, got {popped:?}"
    );
}
