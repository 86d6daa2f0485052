//! `onerma_dispatch` as a checker test: reference class queues (protocol.md §2.3) feed the DUT,
//! which makes its own choices; every choice is checked against the rules, never against a
//! copy of the RTL's policy (the class arbiter's policy has its own test).
//!
//! Checked every cycle: only heads are popped; a dispatch takes a live head (deadline not
//! reached), reserves exactly that op's lines in a cycle the window admits, and sends
//! `{slot, t_disp = that cycle}` as a pulse, only while the request builder has room; an expiry takes an expired head; every op leaves exactly once,
//! by dispatch or by DISPATCH_TIMEOUT, in the order of the output streams; with the completion
//! path ready, an expired head leaves within `NumClasses` cycles; at the end every queue drains.

use std::collections::VecDeque;

use bitvec::prelude::*;
use onerma_rtl_tests::bits::reached;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

trait Dut {
    const SLOTS: usize;
    const CLASSES: usize;
    fn fresh() -> Self;
    #[allow(clippy::too_many_arguments)]
    fn drive(
        &mut self,
        now: u32,
        valid: u32,
        slots: u32,
        expired: u32,
        lines: u32,
        rsv_ready: bool,
        disp_room: bool,
        exp_ready: bool,
    );
    /// `nic_enable` (low: the NIC is stopped and dispatches nothing, protocol §1.1).
    fn set_enable(&mut self, on: bool);
    fn eval(&mut self);
    fn tick(&mut self);
    fn pop(&self) -> u32;
    fn look_slot(&self) -> usize;
    fn rsv(&self) -> Option<u32>;
    fn disp(&self) -> Option<(usize, u32)>;
    fn exp(&self) -> Option<usize>;
}

macro_rules! dut {
    ($m:ident, $slots:expr, $classes:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const SLOTS: usize = $slots;
            const CLASSES: usize = $classes;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(
                &mut self,
                now: u32,
                valid: u32,
                slots: u32,
                expired: u32,
                lines: u32,
                rsv_ready: bool,
                disp_room: bool,
                exp_ready: bool,
            ) {
                self.set_now_i(now as _);
                self.set_head_valid_i(valid as _);
                self.set_head_slot_i(slots as _);
                self.set_head_expired_i(expired as _);
                self.set_look_lines_i(lines as _);
                self.set_rsv_ready_i(u8::from(rsv_ready));
                self.set_disp_room_i(u8::from(disp_room));
                self.set_exp_ready_i(u8::from(exp_ready));
            }
            fn set_enable(&mut self, on: bool) {
                self.set_enable_i(u8::from(on));
            }
            fn pop(&self) -> u32 {
                u32::from(self.pop_o())
            }
            fn look_slot(&self) -> usize {
                usize::from(self.look_slot_o())
            }
            fn rsv(&self) -> Option<u32> {
                (self.rsv_valid_o() != 0).then(|| u32::from(self.rsv_lines_o()))
            }
            fn disp(&self) -> Option<(usize, u32)> {
                (self.disp_o() != 0)
                    .then(|| (usize::from(self.disp_slot_o()), self.disp_time_o() as u32))
            }
            fn exp(&self) -> Option<usize> {
                (self.exp_valid_o() != 0).then(|| usize::from(self.exp_slot_o()))
            }
        }
    };
}

dut!(dispatch, 8, 2);
dut!(dispatch_default, 64, 4);

fn slot_bits<D: Dut>() -> usize {
    D::SLOTS.trailing_zeros() as usize
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Left {
    Dispatched(u32),
    Expired,
}

/// Percentages: `p_sub` submissions, `p_rsv` window admits, `p_disp` the request builder's room,
/// `p_exp` the expiry output's readiness.
#[allow(clippy::too_many_arguments)]
fn run<D: Dut>(
    seed: u64,
    p_sub: u8,
    p_rsv: u8,
    p_disp: u8,
    p_exp: u8,
    timeout: u32,
    start: u32,
    cycles: usize,
) -> Result<(), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = D::fresh();
    let mut queues: Vec<VecDeque<(usize, u32)>> = vec![VecDeque::new(); D::CLASSES];
    let mut free: Vec<usize> = (0..D::SLOTS).collect();
    let lines: Vec<u32> = (0..D::SLOTS).map(|_| rng.random_range(1..=64)).collect();
    // How each popped op left: the dispatch pulse of this cycle, the expiries in pop order.
    let mut disp_owed: Option<(usize, u32)> = None;
    let mut exp_owed: VecDeque<usize> = VecDeque::new();
    let mut expired_since: Vec<Option<usize>> = vec![None; D::CLASSES];
    let mut left: Vec<Option<Left>> = vec![None; D::SLOTS];
    let mut now = start;
    let total = cycles + 400 * D::SLOTS;
    let mut enable = true;
    for cycle in 0..total {
        let draining = cycle >= cycles;
        // The NIC is stopped now and then for a few dozen cycles (never while draining).
        if rng.random_range(0..256u32) < if enable { 3 } else { 12 } {
            enable = !enable;
        }
        enable |= draining;
        dut.set_enable(enable);
        let pct = |rng: &mut StdRng, p: u8| rng.random_range(0u8..100) < p;
        let sub = (!draining && !free.is_empty() && pct(&mut rng, p_sub)).then(|| {
            let slot = free.swap_remove(rng.random_range(0..free.len()));
            (slot, rng.random_range(0..D::CLASSES))
        });
        let (mut valid, mut expired, mut slots) = (0u32, 0u32, 0u32);
        let w = slot_bits::<D>();
        for (c, q) in queues.iter().enumerate() {
            if let Some(&(slot, dl)) = q.front() {
                valid |= 1 << c;
                if reached(now, dl) {
                    expired |= 1 << c;
                }
                slots.view_bits_mut::<Lsb0>()[c * w..(c + 1) * w].store_le(slot);
            }
        }
        let rsv_ready = draining || pct(&mut rng, p_rsv);
        let disp_room = draining || pct(&mut rng, p_disp);
        let exp_ready = draining || pct(&mut rng, p_exp);
        // The lookup answers for the slot the DUT names this cycle.
        dut.drive(
            now, valid, slots, expired, 0, rsv_ready, disp_room, exp_ready,
        );
        dut.eval();
        let look = dut.look_slot();
        prop_assert!(look < D::SLOTS, "cycle {}: look_slot {}", cycle, look);
        dut.drive(
            now,
            valid,
            slots,
            expired,
            lines[look],
            rsv_ready,
            disp_room,
            exp_ready,
        );
        dut.eval();

        let pop = dut.pop();
        prop_assert_eq!(pop & !valid, 0, "cycle {}: pop of an empty class", cycle);
        prop_assert!(
            enable || dut.rsv().is_none(),
            "cycle {}: a reservation requested while the NIC is stopped",
            cycle
        );
        prop_assert!(
            disp_room || dut.rsv().is_none(),
            "cycle {}: a reservation requested while the request builder has no room",
            cycle
        );
        let reserved = dut.rsv().filter(|_| rsv_ready);
        let mut dispatches = 0;
        for (c, q) in queues.iter_mut().enumerate() {
            if pop >> c & 1 == 0 {
                continue;
            }
            let Some((slot, dl)) = q.pop_front() else {
                continue;
            };
            if reached(now, dl) {
                exp_owed.push_back(slot);
                prop_assert!(left[slot].is_none());
                left[slot] = Some(Left::Expired);
            } else {
                dispatches += 1;
                let n = reserved.ok_or_else(|| {
                    TestCaseError::fail(format!(
                        "cycle {cycle}: dispatch of slot {slot} without a reservation"
                    ))
                })?;
                prop_assert_eq!(
                    n,
                    lines[slot],
                    "cycle {}: lines reserved for slot {}",
                    cycle,
                    slot
                );
                prop_assert_eq!(look, slot, "cycle {}: looked-up slot", cycle);
                disp_owed = Some((slot, now));
                prop_assert!(left[slot].is_none());
                left[slot] = Some(Left::Dispatched(now));
            }
        }
        prop_assert!(
            dispatches <= 1,
            "cycle {}: {} dispatches",
            cycle,
            dispatches
        );
        prop_assert_eq!(
            reserved.is_some(),
            dispatches == 1,
            "cycle {}: reservation without dispatch",
            cycle
        );
        // Expiry latency while the completion path is ready.
        for (c, q) in queues.iter().enumerate() {
            let exp_now = q
                .front()
                .is_some_and(|&(_, dl)| reached(now.wrapping_add(1), dl));
            // A pop brings a new head: its wait starts afresh.
            let prev = if pop >> c & 1 == 1 {
                None
            } else {
                expired_since[c]
            };
            expired_since[c] = match (exp_now, prev) {
                (false, _) => None,
                (true, None) => Some(0),
                (true, Some(n)) => Some(if exp_ready { n + 1 } else { n }),
            };
            if let Some(n) = expired_since[c] {
                prop_assert!(
                    n <= D::CLASSES + 2,
                    "cycle {}: class {} expired head waits {} ready cycles",
                    cycle,
                    c,
                    n
                );
            }
        }
        let got = dut.disp();
        prop_assert_eq!(got, disp_owed.take(), "cycle {}: dispatch pulse", cycle);
        if let Some((slot, _)) = got {
            free.push(slot);
        }
        if let Some(got) = dut.exp().filter(|_| exp_ready) {
            prop_assert_eq!(
                Some(got),
                exp_owed.pop_front(),
                "cycle {}: expiry output",
                cycle
            );
            free.push(got);
        }
        if let Some((slot, class)) = sub {
            queues[class].push_back((slot, now.wrapping_add(timeout).wrapping_add(1)));
            left[slot] = None;
        }
        dut.tick();
        now = now.wrapping_add(1);
        if draining && queues.iter().all(VecDeque::is_empty) && exp_owed.is_empty() {
            return Ok(());
        }
    }
    Err(TestCaseError::fail(format!(
        "not drained after {total} cycles: queued {:?}, owed {} expiries",
        queues.iter().map(VecDeque::len).collect::<Vec<_>>(),
        exp_owed.len()
    )))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn small_dispatch_follows_the_rules(seed in any::<u64>(), p_sub in 1u8..=100, p_rsv in 0u8..=100,
                                        p_disp in 10u8..=100, p_exp in 10u8..=100, timeout in 0u32..40,
                                        start in any::<u32>(), cycles in 1usize..1500) {
        run::<onerma_rtl::dispatch::Model>(seed, p_sub, p_rsv, p_disp, p_exp, timeout, start, cycles)?;
    }

    #[test]
    fn default_dispatch_follows_the_rules(seed in any::<u64>(), p_sub in 1u8..=100, p_rsv in 0u8..=100,
                                          p_disp in 10u8..=100, p_exp in 10u8..=100, timeout in 0u32..200,
                                          start in any::<u32>(), cycles in 1usize..2000) {
        run::<onerma_rtl::dispatch_default::Model>(seed, p_sub, p_rsv, p_disp, p_exp, timeout, start, cycles)?;
    }
}

/// With the window closed, queued ops all leave as DISPATCH_TIMEOUT at their deadlines, none
/// is dispatched, and the expiry of a class is not held up by the arbiter waiting on the window.
#[test]
fn closed_window_expires_every_op() {
    type M = onerma_rtl::dispatch::Model;
    let mut dut = M::fresh();
    let w = slot_bits::<M>();
    // Class 0: slots 0, 1 (deadline 10, 12); class 1: slot 2 (deadline 11).
    let mut q: Vec<VecDeque<(usize, u32)>> = vec![
        VecDeque::from([(0, 10), (1, 12)]),
        VecDeque::from([(2, 11)]),
    ];
    let mut expired_out = Vec::new();
    for now in 0u32..30 {
        let (mut valid, mut expired, mut slots) = (0u32, 0u32, 0u32);
        for (c, qq) in q.iter().enumerate() {
            if let Some(&(s, dl)) = qq.front() {
                valid |= 1 << c;
                expired |= u32::from(reached(now, dl)) << c;
                slots.view_bits_mut::<Lsb0>()[c * w..(c + 1) * w].store_le(s);
            }
        }
        dut.drive(now, valid, slots, expired, 1, false, true, true);
        dut.eval();
        assert!(
            dut.rsv().is_none() || valid & !expired != 0,
            "reservation offered for nothing"
        );
        let pop = dut.pop();
        for (c, qq) in q.iter_mut().enumerate() {
            if pop >> c & 1 == 1 {
                let (s, dl) = qq.pop_front().expect("pop of an empty class");
                assert!(
                    reached(now, dl),
                    "slot {s} popped before its deadline with the window closed"
                );
            }
        }
        if let Some(s) = dut.exp() {
            expired_out.push((s, now));
        }
        assert!(dut.disp().is_none(), "dispatch with the window closed");
        dut.tick();
    }
    // Popped at 10, 11, 12; out of the skid one cycle later.
    assert_eq!(expired_out, vec![(0, 11), (2, 12), (1, 13)]);
}
