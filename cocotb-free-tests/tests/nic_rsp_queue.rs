//! `onerma_rsp_queue` against a reference written from protocol.md §9 and docs/nic.md
//! ("Responder inbound request queues"): two FIFOs (READ, WRITE/REKEY) sharing `Depth` entries,
//! `push_ready = count < Depth`, and the age limit (a head older than `max_age` that was never
//! offered is discarded with a `drop_age` pulse; an offered head stays offered until taken),
//! judged in the head's first cycle at the head (its age for the next cycle against that
//! cycle's `max_age`), offered or discarded from the next.
//!
//! Random pushes into both FIFOs with arrival times a few cycles behind `now`, random head
//! back-pressure, random `max_age` (small ones so discards happen, changed now and then), `now`
//! advancing each cycle from a random start (so it wraps). Checked every cycle: both heads
//! (valid, entry, time), `count`, `push_ready` and the drop pulses; at the end every pushed
//! entry was taken or dropped exactly once, after a drain.

use std::collections::VecDeque;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One cycle's inputs.
#[derive(Clone, Copy, Default)]
struct In {
    now: u32,
    max_age: u32,
    push: Option<(bool, u64, u32)>, // (write FIFO, entry, arrival time)
    ready: [bool; 2],               // READ, WRITE
}

/// One cycle's outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Out {
    push_ready: bool,
    count: u32,
    valid: [bool; 2],
    entry: [u64; 2],
    time: [u32; 2],
    drop: u32,
}

trait Dut {
    const DEPTH: usize;
    /// The `HoldOffer` parameter: an offered head stays offered (true), or a head is offered
    /// only when its consumer is ready and judged again every cycle it waits (false).
    const HOLD: bool;
    const ENTRY_BITS: u32;
    fn fresh() -> Self;
    fn drive(&mut self, i: &In);
    fn eval(&mut self);
    fn tick(&mut self);
    fn out(&self) -> Out;
}

macro_rules! dut {
    ($m:ident, $depth:expr, $ebits:expr, $hold:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const DEPTH: usize = $depth;
            const HOLD: bool = $hold;
            const ENTRY_BITS: u32 = $ebits;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(&mut self, i: &In) {
                let (wr, entry, t) = i.push.unwrap_or((false, 0, 0));
                self.set_now_i(i.now as _);
                self.set_max_age_i(i.max_age as _);
                self.set_push_valid_i(u8::from(i.push.is_some()));
                self.set_push_wr_i(u8::from(wr));
                self.set_push_entry_i(entry as _);
                self.set_push_time_i(t as _);
                self.set_rd_ready_i(u8::from(i.ready[0]));
                self.set_wr_ready_i(u8::from(i.ready[1]));
            }
            fn out(&self) -> Out {
                Out {
                    push_ready: self.push_ready_o() != 0,
                    count: u32::from(self.count_o()),
                    valid: [self.rd_valid_o() != 0, self.wr_valid_o() != 0],
                    entry: [u64::from(self.rd_entry_o()), u64::from(self.wr_entry_o())],
                    time: [self.rd_time_o() as u32, self.wr_time_o() as u32],
                    drop: u32::from(self.drop_age_o()),
                }
            }
        }
    };
}

dut!(rsp_queue, 4, 8, true);
dut!(rsp_queue_default, 32, 64, true);
dut!(rsp_queue_ready, 4, 8, false);

/// The rules of docs/nic.md, one FIFO of `(entry, arrival)` per kind plus its head's verdict
/// (`None` in the judging cycle, then whether it is aged) and offered flag.
struct Reference {
    depth: usize,
    hold: bool,
    q: [VecDeque<(u64, u32)>; 2],
    verdict: [Option<bool>; 2],
    offered: [bool; 2],
}

/// What one cycle did, for the outcome counts.
#[derive(Default)]
struct Events {
    taken: Vec<u64>,
    dropped: Vec<u64>,
    refused: bool,
}

impl Reference {
    fn new(depth: usize, hold: bool) -> Self {
        Reference {
            depth,
            hold,
            q: [VecDeque::new(), VecDeque::new()],
            verdict: [None; 2],
            offered: [false; 2],
        }
    }

    fn count(&self) -> usize {
        self.q[0].len() + self.q[1].len()
    }

    /// The outputs this cycle's inputs must produce, then the state update at the edge.
    fn step(&mut self, i: &In) -> (Out, Events) {
        let count = self.count();
        let mut o = Out {
            push_ready: count < self.depth,
            count: count as u32,
            valid: [false; 2],
            entry: [0; 2],
            time: [0; 2],
            drop: 0,
        };
        let mut ev = Events::default();
        for f in 0..2 {
            let Some(&(entry, t)) = self.q[f].front() else {
                continue;
            };
            let Some(aged) = self.verdict[f] else {
                // Judging cycle: its age in the next cycle (modulo 2^32, TimeWidth 32), strictly
                // greater than this cycle's limit.
                self.verdict[f] = Some(i.now.wrapping_add(1).wrapping_sub(t) > i.max_age);
                continue;
            };
            if !self.hold && !aged && !i.ready[f] {
                // Not offered: its consumer is busy. Judged again for the next cycle.
                self.verdict[f] = Some(i.now.wrapping_add(1).wrapping_sub(t) > i.max_age);
                continue;
            }
            if self.offered[f] || !aged {
                o.valid[f] = true;
                o.entry[f] = entry;
                o.time[f] = t;
                if i.ready[f] {
                    self.q[f].pop_front();
                    self.offered[f] = false;
                    self.verdict[f] = None;
                    ev.taken.push(entry);
                } else {
                    self.offered[f] = true;
                }
            } else {
                o.drop |= 1 << f;
                self.q[f].pop_front();
                self.verdict[f] = None;
                ev.dropped.push(entry);
            }
        }
        if let Some((wr, entry, t)) = i.push {
            if o.push_ready {
                self.q[usize::from(wr)].push_back((entry, t));
            } else {
                ev.refused = true;
            }
        }
        (o, ev)
    }
}

/// Run statistics.
#[derive(Default, Debug)]
struct Stats {
    taken: usize,
    dropped: usize,
    refused: usize,
}

/// `busy` (1..=8): how often a push is attempted, `take` (0..=8): how often a head is ready,
/// `max_age` the starting age limit (rewritten at random now and then), `start` the first
/// `now`; after `cycles` cycles the heads are drained with ready high.
fn run<D: Dut>(
    seed: u64,
    busy: u8,
    take: u8,
    max_age: u32,
    start: u32,
    cycles: usize,
) -> Result<Stats, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = D::fresh();
    let mut rf = Reference::new(D::DEPTH, D::HOLD);
    let mut now = start;
    let mut max_age = max_age;
    let mask = if D::ENTRY_BITS >= 64 {
        u64::MAX
    } else {
        (1u64 << D::ENTRY_BITS) - 1
    };
    // Entries are numbered in push order (unique within the run for the widths tested here
    // while fewer than 2^ENTRY_BITS are live; the reference compares exact order anyway).
    let mut next_id = 0u64;
    let mut pushed: Vec<u64> = Vec::new();
    let mut gone: Vec<u64> = Vec::new();
    let mut stats = Stats::default();
    let drain_from = cycles;
    let mut cycle = 0usize;
    loop {
        let draining = cycle >= drain_from;
        if draining && rf.count() == 0 {
            break;
        }
        prop_assert!(
            cycle < drain_from + 4 * D::DEPTH + 8,
            "drain did not finish"
        );
        if !draining && rng.random_range(0u8..64) == 0 {
            // inq_max_age rewritten by software now and then.
            max_age = if rng.random_bool(0.5) {
                rng.random_range(0u32..16)
            } else {
                rng.random_range(0u32..1000)
            };
        }
        let push = (!draining && rng.random_range(0u8..8) < busy).then(|| {
            let id = next_id & mask;
            next_id += 1;
            // The frame arrived a few cycles ago (the receive pipeline's delay).
            let t = now.wrapping_sub(rng.random_range(0u32..4));
            (rng.random_bool(0.5), id, t)
        });
        let ready = if draining {
            [true; 2]
        } else {
            [
                rng.random_range(0u8..8) < take,
                rng.random_range(0u8..8) < take,
            ]
        };
        let i = In {
            now,
            max_age,
            push,
            ready,
        };
        dut.drive(&i);
        dut.eval();
        let got = dut.out();
        let (want, ev) = rf.step(&i);
        // Entry and time are compared only while the head is valid.
        let mut g = got;
        for f in 0..2 {
            if !g.valid[f] {
                g.entry[f] = 0;
                g.time[f] = 0;
            }
        }
        prop_assert_eq!(
            g,
            want,
            "cycle {} (now {}, max_age {})",
            cycle,
            now,
            max_age
        );
        if let Some((_, id, _)) = push
            && want.push_ready
        {
            pushed.push(id);
        }
        stats.taken += ev.taken.len();
        stats.dropped += ev.dropped.len();
        stats.refused += usize::from(ev.refused);
        gone.extend(ev.taken);
        gone.extend(ev.dropped);
        dut.tick();
        now = now.wrapping_add(1);
        cycle += 1;
    }
    // Nothing lost, nothing twice: every accepted push was taken or dropped once.
    pushed.sort_unstable();
    gone.sort_unstable();
    prop_assert_eq!(pushed, gone);
    Ok(stats)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn small_queue_matches_reference(seed in any::<u64>(), busy in 1u8..=8, take in 0u8..=8,
                                     max_age in prop_oneof![0u32..8, 0u32..200, Just(u32::MAX)],
                                     start in any::<u32>(), cycles in 1usize..1500) {
        run::<onerma_rtl::rsp_queue::Model>(seed, busy, take, max_age, start, cycles)?;
    }

    #[test]
    fn default_queue_matches_reference(seed in any::<u64>(), busy in 1u8..=8, take in 0u8..=8,
                                       max_age in prop_oneof![0u32..8, 0u32..200, Just(u32::MAX)],
                                       start in any::<u32>(), cycles in 1usize..3000) {
        run::<onerma_rtl::rsp_queue_default::Model>(seed, busy, take, max_age, start, cycles)?;
    }

    /// `HoldOffer` 0 (the NIC top's setting): heads offered only to a ready consumer.
    #[test]
    fn offer_on_ready_matches_reference(seed in any::<u64>(), busy in 1u8..=8, take in 0u8..=8,
                                        max_age in prop_oneof![0u32..8, 0u32..200, Just(u32::MAX)],
                                        start in any::<u32>(), cycles in 1usize..1500) {
        run::<onerma_rtl::rsp_queue_ready::Model>(seed, busy, take, max_age, start, cycles)?;
    }
}

/// A fixed run where all three outcomes occur: entries taken, entries dropped for age, and
/// pushes refused on a full queue; in both configurations.
#[test]
fn taken_dropped_and_full_all_occur() {
    for (name, stats) in [
        (
            "small",
            run::<onerma_rtl::rsp_queue::Model>(7, 8, 2, 6, 0xffff_ff00, 2000),
        ),
        (
            "default",
            run::<onerma_rtl::rsp_queue_default::Model>(7, 8, 2, 20, 0xffff_ff00, 4000),
        ),
    ] {
        let s = match stats {
            Ok(s) => s,
            Err(e) => panic!("{name}: {e}"),
        };
        assert!(
            s.taken > 0 && s.dropped > 0 && s.refused > 0,
            "{name}: {s:?}"
        );
    }
}

/// An offered head that ages while back-pressured is still offered and taken, not dropped;
/// an aged head never offered is dropped at once, one per FIFO per cycle.
#[test]
fn offered_head_is_not_dropped() {
    type M = onerma_rtl::rsp_queue::Model;
    let mut dut = M::fresh();
    let mut rf = Reference::new(4, true);
    let mut now = 100u32;
    let step = |dut: &mut M, rf: &mut Reference, i: In| -> Out {
        dut.drive(&i);
        dut.eval();
        let got = dut.out();
        let (want, _) = rf.step(&i);
        assert_eq!(got.valid, want.valid);
        assert_eq!(got.drop, want.drop);
        assert_eq!(got.count, want.count);
        dut.tick();
        got
    };
    // One READ entry, judged (age 1 <= 3) in its first cycle at the head, offered from the next
    // but not taken.
    let o = step(
        &mut dut,
        &mut rf,
        In {
            now,
            max_age: 3,
            push: Some((false, 0x11, now)),
            ready: [false; 2],
        },
    );
    assert!(!o.valid[0]);
    now += 1;
    let o = step(
        &mut dut,
        &mut rf,
        In {
            now,
            max_age: 3,
            push: None,
            ready: [false; 2],
        },
    );
    assert!(!o.valid[0] && o.drop == 0, "judging cycle");
    for _ in 0..10 {
        now += 1;
        let o = step(
            &mut dut,
            &mut rf,
            In {
                now,
                max_age: 3,
                push: None,
                ready: [false; 2],
            },
        );
        assert!(o.valid[0] && o.drop == 0 && o.entry[0] == 0x11);
    }
    // Now taken although its age (12) is past the limit.
    now += 1;
    let o = step(
        &mut dut,
        &mut rf,
        In {
            now,
            max_age: 3,
            push: None,
            ready: [true; 2],
        },
    );
    assert!(o.valid[0] && o.entry[0] == 0x11 && o.drop == 0);
    // Two old WRITE entries pushed back to back: neither is ever offered; each is judged in its
    // first cycle at the head and dropped in the next.
    // (push this cycle, valid, drop, count)
    let want = [
        (Some(0x21u64), [false; 2], 0b00, 0),
        (Some(0x22), [false; 2], 0b00, 1),
        (None, [false; 2], 0b10, 2),
        (None, [false; 2], 0b00, 1),
        (None, [false; 2], 0b10, 1),
        (None, [false; 2], 0b00, 0),
    ];
    for (push, valid, drop, count) in want {
        now += 1;
        let o = step(
            &mut dut,
            &mut rf,
            In {
                now,
                max_age: 3,
                push: push.map(|e| (true, e, now.wrapping_sub(50))),
                ready: [false; 2],
            },
        );
        assert_eq!((o.valid, o.drop, o.count), (valid, drop, count));
    }
}
