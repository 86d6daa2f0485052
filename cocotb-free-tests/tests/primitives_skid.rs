//! `onerma_skid` against a two-slot queue reference under random stalls and payloads.
//!
//! Checks order and payload of every transfer, the output stream rule, that `in_ready_o` is
//! low only with two words inside (full throughput), and that neither handshake output reacts
//! combinationally to the other side.

use std::collections::VecDeque;

use onerma_rtl::skid::Model;
use onerma_rtl_tests::{RuleMonitor, Sink, Source, Throttle};
use proptest::prelude::*;

const CAPACITY: usize = 2;

fn fresh() -> Model {
    let mut m = Model::new();
    m.reset(2);
    m
}

fn throttle(seed: u64, eighths: u8) -> Result<Throttle, TestCaseError> {
    Throttle::eighths(seed, eighths).map_err(|e| TestCaseError::fail(e.to_string()))
}

/// Offers `words` (input willing `p_in`/8 of the cycles, output ready `p_out`/8) for as many
/// cycles as there are words. Returns the number of transfers out.
fn run(seed: u64, p_in: u8, p_out: u8, words: &[u16]) -> Result<usize, TestCaseError> {
    let mut m = fresh();
    let mut src = Source::new(throttle(seed, p_in)?);
    words.iter().for_each(|&w| src.push(w));
    let mut sink = Sink::new(throttle(seed ^ 0x9e37, p_out)?);
    let mut rule = RuleMonitor::new("skid out");
    let mut model: VecDeque<u16> = VecDeque::new();
    for cycle in 0..words.len() as u64 {
        let offer = src.offer().copied();
        let out_ready = sink.ready();
        m.set_in_valid_i(u8::from(offer.is_some()));
        m.set_in_data_i(offer.unwrap_or(0));
        m.set_out_ready_i(u8::from(out_ready));
        m.eval();

        // Registered outputs: toggling the opposite side's input must not move them.
        let (in_ready, out_valid, out_data) = (m.in_ready_o(), m.out_valid_o(), m.out_data_o());
        m.set_out_ready_i(u8::from(!out_ready));
        m.set_in_valid_i(u8::from(offer.is_none()));
        m.set_in_data_i(!offer.unwrap_or(0));
        m.eval();
        prop_assert_eq!(
            m.in_ready_o(),
            in_ready,
            "in_ready_o follows out_ready_i, cycle {}",
            cycle
        );
        prop_assert_eq!(
            m.out_valid_o(),
            out_valid,
            "out_valid_o follows in_valid_i, cycle {}",
            cycle
        );
        prop_assert_eq!(
            m.out_data_o(),
            out_data,
            "out_data_o follows in_data_i, cycle {}",
            cycle
        );
        m.set_out_ready_i(u8::from(out_ready));
        m.set_in_valid_i(u8::from(offer.is_some()));
        m.set_in_data_i(offer.unwrap_or(0));
        m.eval();

        let in_ready = m.in_ready_o() != 0;
        let out_valid = m.out_valid_o() != 0;
        prop_assert_eq!(
            in_ready,
            model.len() < CAPACITY,
            "in_ready_o at cycle {}",
            cycle
        );
        prop_assert_eq!(
            out_valid,
            !model.is_empty(),
            "out_valid_o at cycle {}",
            cycle
        );
        rule.check(cycle, out_valid, out_ready, &m.out_data_o())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        if out_valid {
            prop_assert_eq!(
                Some(m.out_data_o()),
                model.front().copied(),
                "order at cycle {}",
                cycle
            );
        }
        if sink.handshake(out_valid.then(|| m.out_data_o())) {
            model.pop_front();
        }
        model.extend(src.handshake(in_ready));
        m.tick();
    }
    // Everything that came out, in order, is what went in.
    let out = sink.received();
    prop_assert_eq!(out, &words[..out.len()], "words out");
    Ok(out.len())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn skid_matches_reference(seed in any::<u64>(), p_in in 0u8..=8, p_out in 0u8..=8,
                              words in prop::collection::vec(any::<u16>(), 1..400)) {
        run(seed, p_in, p_out, &words)?;
    }
}

#[test]
fn full_throughput_when_never_stalled() {
    let words: Vec<u16> = (0..300).collect();
    // One cycle of latency through the output register, then one word per cycle.
    let out = run(0, 8, 8, &words);
    assert!(
        matches!(out, Ok(299)),
        "expected 299 transfers in 300 cycles, got {out:?}"
    );
}
