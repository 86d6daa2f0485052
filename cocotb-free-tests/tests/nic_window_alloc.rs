//! `onerma_window_alloc` against a reference ledger, driven by random owners that keep the
//! owner contract (protocol.md §5): reserve when admitted, bind at most the reserved lines,
//! release what they hold, refund only with nothing bound.
//!
//! Checked every cycle from the reference, never from the DUT: the unreserved credit, the
//! admission flag (`credit >= AdmitLines`), that a take is always served (a line released in the
//! same cycle is the only allowed wait), that a taken line is free and in range, and `idle_o`.

use std::collections::BTreeSet;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

trait Dut {
    const LINES: u32;
    const ADMIT: u32;
    const MAX_OP: u32;
    fn fresh() -> Self;
    #[allow(clippy::too_many_arguments)]
    fn drive(&mut self, rsv: Option<u32>, refund: Option<u32>, take: bool, rel: Option<u32>);
    fn eval(&mut self);
    fn tick(&mut self);
    fn rsv_ready(&self) -> bool;
    fn take_ready(&self) -> bool;
    fn take_line(&self) -> u32;
    fn credit(&self) -> u32;
    fn idle(&self) -> bool;
}

macro_rules! dut {
    ($m:ident, $lines:expr, $admit:expr, $max_op:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const LINES: u32 = $lines;
            const ADMIT: u32 = $admit;
            const MAX_OP: u32 = $max_op;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(
                &mut self,
                rsv: Option<u32>,
                refund: Option<u32>,
                take: bool,
                rel: Option<u32>,
            ) {
                self.set_rsv_valid_i(u8::from(rsv.is_some()));
                self.set_rsv_lines_i(rsv.unwrap_or(0) as _);
                self.set_refund_valid_i(u8::from(refund.is_some()));
                self.set_refund_lines_i(refund.unwrap_or(0) as _);
                self.set_take_valid_i(u8::from(take));
                self.set_rel_valid_i(u8::from(rel.is_some()));
                self.set_rel_line_i(rel.unwrap_or(0) as _);
            }
            fn rsv_ready(&self) -> bool {
                self.rsv_ready_o() != 0
            }
            fn take_ready(&self) -> bool {
                self.take_ready_o() != 0
            }
            fn take_line(&self) -> u32 {
                u32::from(self.take_line_o())
            }
            fn credit(&self) -> u32 {
                u32::from(self.credit_o())
            }
            fn idle(&self) -> bool {
                self.idle_o() != 0
            }
        }
    };
}

dut!(window_alloc, 16, 8, 8);
dut!(window_alloc_default, 1024, 64, 64);

/// One owner (an op or a write context): its reservation and the lines it has bound.
#[derive(Default)]
struct Owner {
    reserved: u32,
    held: Vec<u32>,
}

/// Runs `cycles` cycles of random owner behaviour; `busy` (0..=8) sets how often owners act.
fn run<D: Dut>(seed: u64, busy: u8, cycles: usize) -> Result<(), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = D::fresh();
    let mut owners: Vec<Owner> = Vec::new();
    let mut credit = D::LINES;
    let mut bound = BTreeSet::new();
    // A reservation offered and not yet accepted stays offered, unchanged (stream rule).
    let mut offer: Option<u32> = None;
    for cycle in 0..cycles {
        let act = |rng: &mut StdRng| rng.random_range(0u8..8) < busy;
        if offer.is_none() && owners.len() < 8 && act(&mut rng) {
            offer = Some(rng.random_range(1..=D::MAX_OP));
        }
        // Take for an owner below its reservation; release a line of an owner; refund an owner
        // that holds nothing (and is not the one taking this cycle).
        let taker = (act(&mut rng) && !owners.is_empty())
            .then(|| rng.random_range(0..owners.len()))
            .filter(|&o| (owners[o].held.len() as u32) < owners[o].reserved);
        let releaser = (act(&mut rng) && !owners.is_empty())
            .then(|| rng.random_range(0..owners.len()))
            .filter(|&o| !owners[o].held.is_empty());
        let rel = releaser.map(|o| {
            let i = rng.random_range(0..owners[o].held.len());
            owners[o].held.swap_remove(i)
        });
        let refunder = (act(&mut rng) && !owners.is_empty())
            .then(|| rng.random_range(0..owners.len()))
            .filter(|&o| owners[o].held.is_empty() && Some(o) != taker && Some(o) != releaser);
        let refund = refunder.map(|o| owners[o].reserved);

        dut.drive(offer, refund, taker.is_some(), rel);
        dut.eval();

        prop_assert_eq!(dut.credit(), credit, "cycle {}: credit", cycle);
        prop_assert_eq!(
            dut.rsv_ready(),
            credit >= D::ADMIT,
            "cycle {}: admission flag",
            cycle
        );
        let idle = credit == D::LINES && bound.is_empty();
        prop_assert_eq!(dut.idle(), idle, "cycle {}: idle_o", cycle);

        // Edge: apply the handshakes to the reference.
        let rsv_fire = offer.is_some() && credit >= D::ADMIT;
        if let Some(o) = taker {
            if dut.take_ready() {
                let line = dut.take_line();
                prop_assert!(
                    line < D::LINES,
                    "cycle {}: line {} out of range",
                    cycle,
                    line
                );
                prop_assert!(
                    !bound.contains(&line),
                    "cycle {}: line {} handed out twice",
                    cycle,
                    line
                );
                bound.insert(line);
                owners[o].held.push(line);
            } else {
                // Only legal when every line is bound and one is being released right now.
                prop_assert!(
                    rel.is_some() && bound.len() as u32 == D::LINES,
                    "cycle {}: take refused with {} of {} lines bound",
                    cycle,
                    bound.len(),
                    D::LINES
                );
            }
        }
        if let Some(line) = rel {
            bound.remove(&line);
        }
        if let Some(o) = refunder {
            credit += owners[o].reserved;
            owners.swap_remove(o);
        }
        if rsv_fire {
            let n = offer.take().unwrap_or(0);
            credit -= n;
            owners.push(Owner {
                reserved: n,
                held: Vec::new(),
            });
        }
        dut.tick();
    }
    // Drain: every owner releases and refunds; the window must be full and idle again.
    for o in owners.drain(..) {
        for line in o.held {
            dut.drive(None, None, false, Some(line));
            dut.eval();
            dut.tick();
            bound.remove(&line);
        }
        dut.drive(None, Some(o.reserved), false, None);
        dut.eval();
        dut.tick();
        credit += o.reserved;
    }
    dut.drive(None, None, false, None);
    dut.eval();
    prop_assert_eq!(dut.credit(), D::LINES);
    prop_assert_eq!(credit, D::LINES);
    prop_assert!(dut.idle(), "not idle after every owner ended");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn small_window_matches_ledger(seed in any::<u64>(), busy in 1u8..=8, cycles in 1usize..2000) {
        run::<onerma_rtl::window_alloc::Model>(seed, busy, cycles)?;
    }

    #[test]
    fn default_window_matches_ledger(seed in any::<u64>(), busy in 1u8..=8, cycles in 1usize..3000) {
        run::<onerma_rtl::window_alloc_default::Model>(seed, busy, cycles)?;
    }
}

/// Every line of the small window is handed out, recycled and handed out again; a take that
/// meets a full window waits exactly while no line is free.
#[test]
fn small_window_recycles_every_line() {
    type M = onerma_rtl::window_alloc::Model;
    let mut dut = M::fresh();
    let mut seen = BTreeSet::new();
    for round in 0..3 {
        // Two owners of 8 lines each fill the 16-line window (each admitted with >= 8 free).
        for _ in 0..2 {
            dut.drive(Some(8), None, false, None);
            dut.eval();
            assert!(dut.rsv_ready(), "round {round}: admission refused");
            dut.tick();
        }
        let mut held = Vec::new();
        for _ in 0..16 {
            dut.drive(None, None, true, None);
            dut.eval();
            assert!(dut.take_ready(), "round {round}: take refused");
            held.push(dut.take_line());
            dut.tick();
        }
        dut.drive(Some(1), None, false, None);
        dut.eval();
        assert!(
            !dut.rsv_ready(),
            "round {round}: admitted into a full window"
        );
        assert_eq!(dut.credit(), 0);
        let distinct: BTreeSet<u32> = held.iter().copied().collect();
        assert_eq!(distinct.len(), 16, "round {round}: a line handed out twice");
        seen.extend(distinct);
        // Release in reverse so the next round gets a different order.
        for &line in held.iter().rev() {
            dut.drive(None, None, false, Some(line));
            dut.eval();
            dut.tick();
        }
        for _ in 0..2 {
            dut.drive(None, Some(8), false, None);
            dut.eval();
            dut.tick();
        }
        dut.drive(None, None, false, None);
        dut.eval();
        assert!(dut.idle(), "round {round}: not idle");
        assert_eq!(dut.credit(), 16);
    }
    assert_eq!(seen.len(), 16);
}
