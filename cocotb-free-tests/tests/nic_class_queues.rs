//! `onerma_class_queues` against one `VecDeque` per class (protocol.md §2.3, H9).
//!
//! Random submissions (a free slot into a random class, with the dispatch deadline
//! `now + dispatch_timeout + 1` of a per-run timeout), random dispatch pops of heads, and expiry
//! pops of expired heads (sometimes late, as the NIC's one-per-cycle expiry path may be). Checked
//! every cycle from the reference: each class's head valid, head slot, and expired flag
//! (`now >= deadline`, the exact cycle of §2.3).

use std::collections::VecDeque;

use bitvec::prelude::*;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

trait Dut {
    const SLOTS: usize;
    const CLASSES: usize;
    fn fresh() -> Self;
    fn drive(&mut self, now: u32, push: Option<(usize, usize, u32)>, pop: u32);
    fn eval(&mut self);
    fn tick(&mut self);
    fn head_valid(&self) -> u32;
    fn head_slots(&self) -> u32;
    fn head_expired(&self) -> u32;
}

macro_rules! dut {
    ($m:ident, $slots:expr, $classes:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const SLOTS: usize = $slots;
            const CLASSES: usize = $classes;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(&mut self, now: u32, push: Option<(usize, usize, u32)>, pop: u32) {
                let (slot, class, dl) = push.unwrap_or((0, 0, 0));
                self.set_now_i(now as _);
                self.set_push_valid_i(u8::from(push.is_some()));
                self.set_push_slot_i(slot as _);
                self.set_push_class_i(class as _);
                self.set_push_deadline_i(dl as _);
                self.set_pop_i(pop as _);
            }
            fn head_valid(&self) -> u32 {
                u32::from(self.head_valid_o())
            }
            fn head_slots(&self) -> u32 {
                u32::from(self.head_slot_o())
            }
            fn head_expired(&self) -> u32 {
                u32::from(self.head_expired_o())
            }
        }
    };
}

dut!(class_queues, 8, 2);
dut!(class_queues_default, 64, 4);

/// Slot id of class `c` in the packed `head_slot_o` (class 0 in the low bits).
fn head_slot<D: Dut>(packed: u32, c: usize) -> usize {
    let w = D::SLOTS.trailing_zeros() as usize;
    packed.view_bits::<Lsb0>()[c * w..(c + 1) * w].load_le::<usize>()
}

/// `busy` (1..=8): how often a submission is attempted; `pops` (0..=8): how often a class
/// head is dispatched; `timeout`: the run's dispatch timeout in cycles.
fn run<D: Dut>(
    seed: u64,
    busy: u8,
    pops: u8,
    timeout: u32,
    start: u32,
    cycles: usize,
) -> Result<(), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = D::fresh();
    let mut queues: Vec<VecDeque<(usize, u32)>> = vec![VecDeque::new(); D::CLASSES];
    let mut free: Vec<usize> = (0..D::SLOTS).collect();
    // Time wraps: `start` near 2^32 exercises the modular compare.
    let mut now = start;
    for cycle in 0..cycles {
        let push = (!free.is_empty() && rng.random_range(0u8..8) < busy).then(|| {
            let slot = free.swap_remove(rng.random_range(0..free.len()));
            let class = rng.random_range(0..D::CLASSES);
            (slot, class, now.wrapping_add(timeout).wrapping_add(1))
        });
        let mut pop = 0u32;
        for (c, q) in queues.iter().enumerate() {
            if let Some(&(_, dl)) = q.front() {
                let expired = onerma_rtl_tests::bits::reached(now, dl);
                // Expired heads leave sometimes late; live heads are dispatched at random.
                let go = if expired {
                    rng.random_range(0u8..4) != 0
                } else {
                    rng.random_range(0u8..8) < pops
                };
                if go {
                    pop |= 1 << c;
                }
            }
        }
        dut.drive(now, push, pop);
        dut.eval();
        let (valid, slots, exp) = (dut.head_valid(), dut.head_slots(), dut.head_expired());
        for (c, q) in queues.iter().enumerate() {
            let want_valid = !q.is_empty();
            prop_assert_eq!(
                valid >> c & 1 == 1,
                want_valid,
                "cycle {}: class {} valid",
                cycle,
                c
            );
            if let Some(&(slot, dl)) = q.front() {
                prop_assert_eq!(
                    head_slot::<D>(slots, c),
                    slot,
                    "cycle {}: class {} head",
                    cycle,
                    c
                );
                let want_exp = onerma_rtl_tests::bits::reached(now, dl);
                prop_assert_eq!(
                    exp >> c & 1 == 1,
                    want_exp,
                    "cycle {}: class {} expired",
                    cycle,
                    c
                );
            } else {
                prop_assert_eq!(
                    exp >> c & 1,
                    0,
                    "cycle {}: empty class {} expired",
                    cycle,
                    c
                );
            }
        }
        for (c, q) in queues.iter_mut().enumerate() {
            if pop >> c & 1 == 1
                && let Some((slot, _)) = q.pop_front()
            {
                free.push(slot);
            }
        }
        if let Some((slot, class, dl)) = push {
            queues[class].push_back((slot, dl));
        }
        dut.tick();
        now = now.wrapping_add(1);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn small_queues_match_reference(seed in any::<u64>(), busy in 1u8..=8, pops in 0u8..=8,
                                    timeout in 0u32..64, start in any::<u32>(),
                                    cycles in 1usize..2000) {
        run::<onerma_rtl::class_queues::Model>(seed, busy, pops, timeout, start, cycles)?;
    }

    #[test]
    fn default_queues_match_reference(seed in any::<u64>(), busy in 1u8..=8, pops in 0u8..=8,
                                      timeout in 0u32..256, start in any::<u32>(),
                                      cycles in 1usize..3000) {
        run::<onerma_rtl::class_queues_default::Model>(seed, busy, pops, timeout, start, cycles)?;
    }
}

/// Fills all 8 slots into one class, checks FIFO order out of it, and an entry that expires
/// behind its head is reported when it becomes the head (expired at once).
#[test]
fn one_class_keeps_order_and_reports_late_expiry() {
    type M = onerma_rtl::class_queues::Model;
    let mut dut = M::fresh();
    let order = [5usize, 2, 7, 0, 3, 6, 1, 4];
    let mut now = 100u32;
    for &s in &order {
        dut.drive(now, Some((s, 1, now + 10)), 0);
        dut.eval();
        dut.tick();
        now += 1;
    }
    // All deadlines are in the past by now + 20: every head must read expired.
    now += 20;
    for &s in &order {
        dut.drive(now, None, 0b10);
        dut.eval();
        assert_eq!(dut.head_valid(), 0b10);
        assert_eq!(head_slot::<M>(dut.head_slots(), 1), s);
        assert_eq!(dut.head_expired(), 0b10, "slot {s} not expired");
        dut.tick();
        now += 1;
    }
    dut.drive(now, None, 0);
    dut.eval();
    assert_eq!(dut.head_valid(), 0);
}
