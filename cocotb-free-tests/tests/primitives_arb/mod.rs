//! Shared driver for the stream arbiter tests (`primitives_rr_arb`, `primitives_class_arb`).
//!
//! The arbitration policy comes from a Rust reference (`Policy`) that predicts every fresh
//! decision; the driver adds what both arbiters share: the grant freeze while stalled, the
//! ready/valid rules, payload routing, and the observed fairness bound.

use onerma_rtl_tests::{RuleMonitor, Sink, Source, Throttle};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub const MAX_N: usize = 4;

/// Ports of an arbiter top, widened to u64.
pub trait Dut {
    const N: usize;
    const WIDTH: u32;
    fn fresh() -> Self;
    fn drive(&mut self, valid: u64, data: u64, out_ready: bool);
    fn eval(&mut self);
    fn tick(&mut self);
    fn in_ready(&self) -> u64;
    fn out_valid(&self) -> bool;
    fn out_idx(&self) -> usize;
    fn out_data(&self) -> u64;
}

#[macro_export]
macro_rules! arb_dut {
    ($m:ident, $n:expr, $width:expr) => {
        impl $crate::primitives_arb::Dut for onerma_rtl::$m::Model {
            const N: usize = $n;
            const WIDTH: u32 = $width;
            fn fresh() -> Self {
                let mut m = Self::new();
                m.reset(2);
                m
            }
            fn drive(&mut self, valid: u64, data: u64, out_ready: bool) {
                self.set_in_valid_i(valid as _);
                self.set_in_data_i(data as _);
                self.set_out_ready_i(u8::from(out_ready));
            }
            fn eval(&mut self) {
                onerma_rtl::$m::Model::eval(self);
            }
            fn tick(&mut self) {
                onerma_rtl::$m::Model::tick(self);
            }
            fn in_ready(&self) -> u64 {
                u64::from(self.in_ready_o())
            }
            fn out_valid(&self) -> bool {
                self.out_valid_o() != 0
            }
            fn out_idx(&self) -> usize {
                usize::from(self.out_idx_o())
            }
            fn out_data(&self) -> u64 {
                u64::from(self.out_data_o())
            }
        }
    };
}

/// Reference arbitration policy.
pub trait Policy {
    /// The winner of a fresh (not frozen) decision; `valid` has at least one `true`.
    fn pick(&self, valid: &[bool]) -> usize;
    /// End of cycle: `xfer` is the input that transferred, if any.
    fn end_cycle(&mut self, valid: &[bool], xfer: Option<usize>);
    /// Most transfers to others a continuously valid input may see, counted as the driver does.
    fn bound(&self) -> Option<usize>;
    /// Whether the bound counts the grant that was already frozen when the input raised valid.
    fn counts_frozen_grant(&self) -> bool;
}

/// First index at or after `start` (cyclically) with `valid` set.
pub fn first_from(valid: &[bool], start: usize) -> Option<usize> {
    let n = valid.len();
    (0..n).map(|k| (start + k) % n).find(|&i| valid[i])
}

/// What a run observed, for tests that look beyond the per-cycle checks.
#[derive(Debug, Default)]
pub struct Stats {
    pub transfers: Vec<usize>,
    /// Largest number of other transfers any input saw while waiting.
    pub max_wait: usize,
}

struct Wait {
    active: bool,
    skip: bool,
    others: usize,
}

fn fail(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

/// `cycles` cycles with random payloads: input `i` willing `p_in[i]`/8 of the cycles, the output
/// ready `p_out`/8.
pub fn run<D: Dut, P: Policy>(
    policy: &mut P,
    seed: u64,
    p_in: &[u8; MAX_N],
    p_out: u8,
    cycles: usize,
) -> Result<Stats, TestCaseError> {
    let n = D::N;
    let mask = (1u64 << D::WIDTH) - 1;
    let mut m = D::fresh();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut sources = Vec::new();
    for (i, &p) in p_in.iter().enumerate().take(n) {
        let mut src =
            Source::new(Throttle::eighths(seed.wrapping_add(i as u64 + 1), p).map_err(fail)?);
        for _ in 0..cycles {
            src.push(u64::from(rng.random::<u16>()) & mask);
        }
        sources.push(src);
    }
    let mut sink = Sink::new(Throttle::eighths(seed ^ 0x9e37, p_out).map_err(fail)?);
    // The output word is the pair (index, data): both must hold while stalled.
    let mut rule = RuleMonitor::new("arbiter out");
    let mut waits: Vec<Wait> = (0..n)
        .map(|_| Wait {
            active: false,
            skip: false,
            others: 0,
        })
        .collect();
    let mut stats = Stats::default();
    for cycle in 0..cycles as u64 {
        let offers: Vec<Option<u64>> = sources.iter_mut().map(|s| s.offer().copied()).collect();
        let valid: Vec<bool> = offers.iter().map(Option::is_some).collect();
        let valid_bits = valid
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, &v)| acc | (u64::from(v) << i));
        let data_bits = offers.iter().enumerate().fold(0u64, |acc, (i, o)| {
            acc | (o.unwrap_or(0) << (i as u32 * D::WIDTH))
        });
        let out_ready = sink.ready();
        m.drive(valid_bits, data_bits, out_ready);
        m.eval();
        // The grant frozen on the output since last cycle, if any.
        let frozen = rule.stalled().copied();
        rule.check(
            cycle,
            m.out_valid(),
            out_ready,
            &(m.out_idx(), m.out_data()),
        )
        .map_err(fail)?;

        let any = valid.iter().any(|&v| v);
        prop_assert_eq!(m.out_valid(), any, "out_valid_o at cycle {}", cycle);
        if frozen.is_none() && any {
            prop_assert_eq!(
                m.out_idx(),
                policy.pick(&valid),
                "winner at cycle {}",
                cycle
            );
        }
        let xfer = m.out_valid() && out_ready;
        let winner = m.out_idx();
        if m.out_valid() {
            prop_assert!(
                winner < n && valid[winner],
                "grant to a non-requester, cycle {}",
                cycle
            );
            prop_assert_eq!(
                Some(m.out_data()),
                offers[winner],
                "payload routing, cycle {}",
                cycle
            );
        }
        let expect_ready = if xfer { 1u64 << winner } else { 0 };
        prop_assert_eq!(m.in_ready(), expect_ready, "in_ready_o at cycle {}", cycle);

        // Fairness: transfers to others while an input keeps valid high.
        for (i, w) in waits.iter_mut().enumerate() {
            if !valid[i] {
                w.active = false;
                continue;
            }
            if !w.active {
                w.active = true;
                w.others = 0;
                w.skip = !policy.counts_frozen_grant() && frozen.is_some_and(|(f, _)| f != i);
            }
            if xfer && winner != i {
                if w.skip {
                    w.skip = false;
                } else {
                    w.others += 1;
                }
                stats.max_wait = stats.max_wait.max(w.others);
                if let Some(bound) = policy.bound() {
                    prop_assert!(
                        w.others <= bound,
                        "input {} passed over {} times (bound {}), cycle {}",
                        i,
                        w.others,
                        bound,
                        cycle
                    );
                }
            }
            if xfer && winner == i {
                w.active = false;
            }
        }

        policy.end_cycle(&valid, xfer.then_some(winner));
        if sink.handshake(m.out_valid().then_some(winner)) {
            stats.transfers.push(winner);
        }
        for (i, src) in sources.iter_mut().enumerate() {
            src.handshake(xfer && winner == i);
        }
        m.tick();
    }
    Ok(stats)
}
