//! `onerma_op_timer` against a reference of armed deadlines (protocol.md §6.1).
//!
//! Random arms, re-arms and disarms (one per cycle, as the slot table serializes them) and a
//! consumer that takes timeout requests at random. Checked every cycle: a request names an armed
//! slot whose deadline has been reached and that is not being written this cycle (never a stale
//! or early timeout); and each reached deadline is requested within the detection delay: at most
//! `NumSlots - 1` cycles late while the consumer takes every request (`TimerSlack = NumSlots`),
//! and in every run before the end of the drain.

use onerma_rtl_tests::bits::reached;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

trait Dut {
    const SLOTS: usize;
    fn fresh() -> Self;
    fn drive(&mut self, now: u32, write: Option<(usize, Option<u32>)>, ready: bool);
    fn eval(&mut self);
    fn tick(&mut self);
    fn request(&self) -> Option<usize>;
}

macro_rules! dut {
    ($m:ident, $slots:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const SLOTS: usize = $slots;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(&mut self, now: u32, write: Option<(usize, Option<u32>)>, ready: bool) {
                let (slot, dl) = write.unwrap_or((0, None));
                self.set_now_i(now as _);
                self.set_arm_i(u8::from(write.is_some() && dl.is_some()));
                self.set_disarm_i(u8::from(write.is_some() && dl.is_none()));
                self.set_wr_slot_i(slot as _);
                self.set_wr_deadline_i(dl.unwrap_or(0) as _);
                self.set_to_ready_i(u8::from(ready));
            }
            fn request(&self) -> Option<usize> {
                (self.to_valid_o() != 0).then(|| usize::from(self.to_slot_o()))
            }
        }
    };
}

dut!(op_timer, 8);
dut!(op_timer_default, 64);

/// `p_write`: percent of cycles with an arm/disarm; `p_ready`: percent the consumer takes.
fn run<D: Dut>(
    seed: u64,
    p_write: u8,
    p_ready: u8,
    span: u32,
    start: u32,
    cycles: usize,
) -> Result<(), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = D::fresh();
    let mut armed: Vec<Option<u32>> = vec![None; D::SLOTS];
    let mut now = start;
    let mut pending_disarm: Option<usize> = None;
    let mut refused: Option<usize> = None;
    let total = cycles + 4 * D::SLOTS + 8;
    for cycle in 0..total {
        let draining = cycle >= cycles;
        let random_write = (!draining && rng.random_range(0u8..100) < p_write).then(|| {
            let slot = rng.random_range(0..D::SLOTS);
            let arm = rng.random_range(0u8..3) != 0;
            (
                slot,
                arm.then(|| now.wrapping_add(rng.random_range(1..=span.max(1)))),
            )
        });
        let write = pending_disarm.take().map(|s| (s, None)).or(random_write);
        let ready = draining || rng.random_range(0u8..100) < p_ready;
        dut.drive(now, write, ready);
        dut.eval();
        let req = dut.request();
        // A refused request stays on its slot (the scan waits) unless the slot is written now.
        if let Some(s) = refused.take()
            && armed[s].is_some()
            && write.is_none_or(|(w, _)| w != s)
        {
            prop_assert_eq!(
                req,
                Some(s),
                "cycle {}: refused timeout of slot {} not held",
                cycle,
                s
            );
        }
        if let Some(s) = req {
            let dl = armed[s].ok_or_else(|| {
                TestCaseError::fail(format!("cycle {cycle}: timeout of unarmed slot {s}"))
            })?;
            prop_assert!(
                reached(now, dl),
                "cycle {}: slot {} timed out before its deadline",
                cycle,
                s
            );
            prop_assert!(
                write.is_none_or(|(w, _)| w != s),
                "cycle {}: timeout of slot {} while it is written",
                cycle,
                s
            );
        }
        // Detection delay with a consumer that always takes: at most NumSlots - 1 cycles.
        if p_ready == 100 {
            for (s, a) in armed.iter().enumerate() {
                if let Some(dl) = *a {
                    let late = now.wrapping_sub(dl);
                    let written = write.is_some_and(|(w, _)| w == s);
                    prop_assert!(
                        !reached(now, dl) || (late as usize) < D::SLOTS || written,
                        "cycle {}: slot {} is {} cycles past its deadline",
                        cycle,
                        s,
                        late
                    );
                }
            }
        }
        // Edge.
        if let Some((s, dl)) = write {
            armed[s] = dl;
        }
        refused = req.filter(|_| !ready);
        if let Some(s) = req.filter(|_| ready) {
            // The consumer ends the op: it disarms the slot in the next cycle. The reference
            // drops it now; the scan has moved past it, so it cannot be requested meanwhile.
            armed[s] = None;
            pending_disarm = Some(s);
        }
        dut.tick();
        now = now.wrapping_add(1);
    }
    for (s, a) in armed.iter().enumerate() {
        if let Some(dl) = *a {
            prop_assert!(
                !reached(now.wrapping_sub(D::SLOTS as u32 + 2), dl),
                "slot {} (deadline {}) never timed out by {}",
                s,
                dl,
                now
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn small_timer_matches_reference(seed in any::<u64>(), p_write in 0u8..=100, p_ready in prop::sample::select(vec![10u8, 50, 100]),
                                     span in 0u32..64, start in any::<u32>(), cycles in 1usize..2000) {
        run::<onerma_rtl::op_timer::Model>(seed, p_write, p_ready, span, start, cycles)?;
    }

    #[test]
    fn default_timer_matches_reference(seed in any::<u64>(), p_write in 0u8..=100, p_ready in prop::sample::select(vec![10u8, 50, 100]),
                                       span in 0u32..400, start in any::<u32>(), cycles in 1usize..3000) {
        run::<onerma_rtl::op_timer_default::Model>(seed, p_write, p_ready, span, start, cycles)?;
    }
}
