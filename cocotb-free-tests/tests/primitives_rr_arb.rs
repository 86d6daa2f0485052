//! `onerma_rr_arb` against a reference round-robin pointer under random stalls and payloads.

mod primitives_arb;

use primitives_arb::{MAX_N, Policy, first_from, run};
use proptest::prelude::*;

arb_dut!(rr_arb, 4, 16);
arb_dut!(rr_arb_n3, 3, 8);

/// Round robin: first valid input at or after the pointer, which moves past every winner.
struct RoundRobin {
    n: usize,
    ptr: usize,
}

impl RoundRobin {
    fn new(n: usize) -> Self {
        Self { n, ptr: 0 }
    }
}

impl Policy for RoundRobin {
    fn pick(&self, valid: &[bool]) -> usize {
        first_from(valid, self.ptr).unwrap_or(0)
    }
    fn end_cycle(&mut self, _valid: &[bool], xfer: Option<usize>) {
        if let Some(w) = xfer {
            self.ptr = (w + 1) % self.n;
        }
    }
    fn bound(&self) -> Option<usize> {
        Some(self.n - 1)
    }
    fn counts_frozen_grant(&self) -> bool {
        false
    }
}

fn probs() -> impl Strategy<Value = [u8; MAX_N]> {
    prop::array::uniform4(0u8..=8)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn rr_arb_n4_matches_reference(p_in in probs(), p_out in 0u8..=8,
                                   seed in any::<u64>(), cycles in 1usize..400) {
        run::<onerma_rtl::rr_arb::Model, _>(&mut RoundRobin::new(4), seed, &p_in, p_out, cycles)?;
    }

    #[test]
    fn rr_arb_n3_matches_reference(p_in in probs(), p_out in 0u8..=8,
                                   seed in any::<u64>(), cycles in 1usize..400) {
        run::<onerma_rtl::rr_arb_n3::Model, _>(&mut RoundRobin::new(3), seed, &p_in, p_out, cycles)?;
    }
}

/// All inputs always valid, output always ready: strict rotation, and the fairness bound is
/// reached exactly (every input waits for the N-1 others).
#[test]
fn saturated_inputs_rotate() {
    let stats = run::<onerma_rtl::rr_arb::Model, _>(&mut RoundRobin::new(4), 0, &[8; MAX_N], 8, 64);
    let stats = match stats {
        Ok(s) => s,
        Err(e) => panic!("reference mismatch: {e}"),
    };
    let expect: Vec<usize> = (0..64).map(|i| i % 4).collect();
    assert_eq!(stats.transfers, expect);
    assert_eq!(stats.max_wait, 3);
}
