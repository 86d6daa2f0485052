//! `onerma_skid` against a two-slot queue reference under random stalls and payloads.
//!
//! Checks order and payload of every transfer, the output stream rule, that `in_ready_o` is
//! low only with two words inside (full throughput), and that neither handshake output reacts
//! combinationally to the other side.

use std::collections::VecDeque;

use onerma_rtl::skid::Model;
use proptest::prelude::*;

const CAPACITY: usize = 2;

#[derive(Clone, Copy, Debug)]
struct Step {
    valid: u8,
    ready: u8,
    data: u16,
}

fn step() -> impl Strategy<Value = Step> {
    (any::<u8>(), any::<u8>(), any::<u16>()).prop_map(|(valid, ready, data)| Step {
        valid,
        ready,
        data,
    })
}

/// `p` in 0..=8 eighths; 0 = never, 8 = always.
fn hit(raw: u8, p: u8) -> bool {
    (raw % 8) < p
}

fn fresh() -> Model {
    let mut m = Model::new();
    m.reset(2);
    m
}

/// Returns the number of transfers out.
fn run(p_in: u8, p_out: u8, steps: &[Step]) -> Result<usize, TestCaseError> {
    let mut m = fresh();
    let mut model: VecDeque<u16> = VecDeque::new();
    let mut offer: Option<u16> = None;
    let mut prev_stall: Option<u16> = None;
    let mut out = 0usize;
    for (cycle, s) in steps.iter().enumerate() {
        if offer.is_none() && hit(s.valid, p_in) {
            offer = Some(s.data);
        }
        let out_ready = hit(s.ready, p_out);
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
        if let Some(held) = prev_stall {
            prop_assert!(out_valid, "valid dropped without ready at cycle {}", cycle);
            prop_assert_eq!(
                m.out_data_o(),
                held,
                "payload changed while stalled, cycle {}",
                cycle
            );
        }
        if out_valid {
            prop_assert_eq!(
                Some(m.out_data_o()),
                model.front().copied(),
                "order at cycle {}",
                cycle
            );
        }
        if out_valid && out_ready {
            model.pop_front();
            out += 1;
        }
        if in_ready {
            model.extend(offer.take());
        }
        prev_stall = (out_valid && !out_ready).then(|| m.out_data_o());
        m.tick();
    }
    Ok(out)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn skid_matches_reference(p_in in 0u8..=8, p_out in 0u8..=8,
                              steps in prop::collection::vec(step(), 1..400)) {
        run(p_in, p_out, &steps)?;
    }
}

#[test]
fn full_throughput_when_never_stalled() {
    let steps: Vec<Step> = (0..300u16)
        .map(|data| Step {
            valid: 0,
            ready: 0,
            data,
        })
        .collect();
    // One cycle of latency through the output register, then one word per cycle.
    let out = run(8, 8, &steps);
    assert!(
        matches!(out, Ok(299)),
        "expected 299 transfers in 300 cycles, got {out:?}"
    );
}
