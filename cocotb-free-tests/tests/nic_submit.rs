//! `onerma_submit` against the submission checks of protocol.md §2.2, written here from the
//! text: a bench RRT answers the DUT's lookups (and changes between them), commands are drawn to
//! hit every rule (good and bad completion regions, unknown op types, lengths 0 / > 4096, REKEY
//! shapes, classes out of range, reserved bits, foreign / unregistered / unpermitted / too small
//! local regions, offsets that overflow), the accept stream and frees are random.
//!
//! Checked: a bad completion region drops the command (slot stays free, `bad_cq_o`); every other
//! command is accepted once with the status of §2.2 computed from the entries the bench served at
//! the DUT's two lookups, the addresses `base + offset`, the entries' `gen`s, `t_sub`, the slot's
//! seq count, and a class queue push with `t_sub + dispatch_timeout + 1` exactly for OK; `busy_o`
//! covers busy slots and the slot in flight.

use onerma_layouts::{Cmd, RrtEntry};
use onerma_rtl_tests::bits::be_to_words;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const REGIONS: u16 = 6;
const STATUS_OK: u8 = 0;
const STATUS_LOCAL_ACCESS_ERROR: u8 = 6;
const STATUS_BAD_COMMAND: u8 = 7;

fn entry_words(e: &RrtEntry) -> [u32; 10] {
    be_to_words(&e.to_bytes().expect("entry"))
}

#[derive(Clone)]
struct Sub {
    slot: usize,
    pid: u32,
    cmd: Cmd,
    /// Reserved bits set (not representable in `Cmd`): in the second reserved field.
    rsvd: bool,
    time: u32,
}

fn cmd_words(s: &Sub) -> [u32; 16] {
    let mut w: [u32; 16] = be_to_words(&s.cmd.to_bytes().expect("cmd"));
    if s.rsvd {
        w[0] |= 1; // bits [31:0] are rsvd1[31:0]
    }
    w
}

trait Dut {
    const SLOTS: usize;
    const CLASSES: usize;
    fn fresh() -> Self;
    fn drive(
        &mut self,
        dt: u32,
        sub: Option<&Sub>,
        rrt: Option<&(RrtEntry, u16)>,
        acc_ready: bool,
        free: Option<usize>,
    );
    fn eval(&mut self);
    fn tick(&mut self);
    fn sub_ready(&self) -> bool;
    fn busy(&self) -> u64;
    fn rrt_lookup(&self) -> Option<u16>;
    fn bad_cq(&self) -> bool;
    fn acc(&self) -> Option<Acc>;
    fn push(&self) -> Option<(usize, usize, u32)>;
}

#[derive(Debug, PartialEq, Eq)]
struct Acc {
    slot: usize,
    seq: u16,
    status: u8,
    t_sub: u32,
    cq_addr: u64,
    cq_gen: u16,
    local_addr: u64,
    local_gen: u16,
}

macro_rules! dut {
    ($m:ident, $slots:expr, $classes:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const SLOTS: usize = $slots;
            const CLASSES: usize = $classes;
            onerma_rtl_tests::model_basics!(onerma_rtl::$m::Model);
            fn drive(
                &mut self,
                dt: u32,
                sub: Option<&Sub>,
                rrt: Option<&(RrtEntry, u16)>,
                acc_ready: bool,
                free: Option<usize>,
            ) {
                self.set_dispatch_timeout_i(dt as _);
                self.set_sub_valid_i(u8::from(sub.is_some()));
                if let Some(s) = sub {
                    self.set_sub_slot_i(s.slot as _);
                    self.set_sub_pid_i(s.pid as _);
                    self.set_sub_cmd_i(&cmd_words(s));
                    self.set_sub_time_i(s.time as _);
                }
                if let Some((e, g)) = rrt {
                    self.set_rrt_entry_i(&entry_words(e));
                    self.set_rrt_gen_i(*g as _);
                }
                self.set_acc_ready_i(u8::from(acc_ready));
                self.set_free_i(u8::from(free.is_some()));
                self.set_free_slot_i(free.unwrap_or(0) as _);
            }
            fn sub_ready(&self) -> bool {
                self.sub_ready_o() != 0
            }
            fn busy(&self) -> u64 {
                u64::from(self.busy_o())
            }
            fn rrt_lookup(&self) -> Option<u16> {
                (self.rrt_valid_o() != 0).then(|| self.rrt_idx_o() as u16)
            }
            fn bad_cq(&self) -> bool {
                self.bad_cq_o() != 0
            }
            fn acc(&self) -> Option<Acc> {
                (self.acc_valid_o() != 0).then(|| Acc {
                    slot: usize::from(self.acc_slot_o()),
                    seq: self.acc_seq_o() as u16,
                    status: self.acc_status_o() as u8,
                    t_sub: self.acc_t_sub_o() as u32,
                    cq_addr: self.acc_cq_addr_o() as u64,
                    cq_gen: self.acc_cq_gen_o() as u16,
                    local_addr: self.acc_local_addr_o() as u64,
                    local_gen: self.acc_local_gen_o() as u16,
                })
            }
            fn push(&self) -> Option<(usize, usize, u32)> {
                (self.push_valid_o() != 0).then(|| {
                    (
                        usize::from(self.push_slot_o()),
                        usize::from(self.push_class_o()),
                        self.push_deadline_o() as u32,
                    )
                })
            }
        }
    };
}

dut!(submit, 8, 2);
dut!(submit_default, 64, 4);

fn random_entry(rng: &mut StdRng, pids: &[u32]) -> RrtEntry {
    let bit = |rng: &mut StdRng, p: u8| u8::from(rng.random_range(0u8..100) < p);
    RrtEntry {
        valid: bit(rng, 85),
        perm_remote_read: bit(rng, 50),
        perm_remote_write: bit(rng, 50),
        perm_remote_rekey: bit(rng, 50),
        perm_local_read: bit(rng, 80),
        perm_local_write: bit(rng, 80),
        owner_pid: pids[rng.random_range(0..pids.len())],
        base_addr: rng.random(),
        size: match rng.random_range(0u8..4) {
            0 => rng.random(),
            1 => u64::MAX - rng.random_range(0..8192),
            _ => rng.random_range(0..16384),
        },
        key: rng.random(),
    }
}

fn random_cmd(rng: &mut StdRng, classes: usize) -> (Cmd, bool) {
    let op_type = match rng.random_range(0u8..10) {
        0 => rng.random(),
        1..=4 => 1,
        5..=7 => 2,
        _ => 3,
    };
    let length = match rng.random_range(0u8..10) {
        0 => 0,
        1 => rng.random_range(4097..=u16::MAX),
        2 => 16,
        3 => 4096,
        _ => rng.random_range(1..=4096),
    };
    let off = |rng: &mut StdRng| match rng.random_range(0u8..6) {
        0 => u64::MAX - rng.random_range(0..4096),
        1 => rng.random(),
        _ => rng.random_range(0..16384),
    };
    let cmd = Cmd {
        op_type,
        cos: if rng.random_range(0u8..10) == 0 {
            rng.random()
        } else {
            rng.random_range(0..classes as u8)
        },
        length,
        remote_nic: rng.random(),
        remote_region: rng.random(),
        local_region: rng.random_range(0..REGIONS + 2),
        cq_region: rng.random_range(0..REGIONS + 2),
        remote_offset: if rng.random_range(0u8..3) == 0 {
            rng.random()
        } else {
            0
        },
        local_offset: off(rng),
        cq_offset: if rng.random_range(0u8..4) == 0 {
            off(rng)
        } else {
            rng.random_range(0..1024) * 16
        },
        kd: rng.random(),
    };
    (cmd, rng.random_range(0u8..20) == 0)
}

/// §2.2 step 1, from the protocol text.
fn cq_ok(s: &Sub, e: Option<&RrtEntry>) -> bool {
    e.is_some_and(|e| {
        e.valid == 1
            && e.perm_local_write == 1
            && e.owner_pid == s.pid
            && s.cmd.cq_offset.is_multiple_of(16)
            && s.cmd
                .cq_offset
                .checked_add(16)
                .is_some_and(|end| end <= e.size)
    })
}

/// §2.2 step 2, from the protocol text.
fn status(s: &Sub, e: Option<&RrtEntry>, classes: usize) -> u8 {
    let c = &s.cmd;
    let known = matches!(c.op_type, 1..=3);
    let bad = !known
        || c.length == 0
        || c.length > 4096
        || (c.op_type == 3 && (c.length != 16 || c.remote_offset != 0))
        || usize::from(c.cos) >= classes
        || s.rsvd;
    if bad {
        return STATUS_BAD_COMMAND;
    }
    let ok = e.is_some_and(|e| {
        let perm = if c.op_type == 1 {
            e.perm_local_write
        } else {
            e.perm_local_read
        };
        e.valid == 1
            && e.owner_pid == s.pid
            && perm == 1
            && c.local_offset
                .checked_add(u64::from(c.length))
                .is_some_and(|end| end <= e.size)
    });
    if ok {
        STATUS_OK
    } else {
        STATUS_LOCAL_ACCESS_ERROR
    }
}

fn run<D: Dut>(
    seed: u64,
    p_sub: u8,
    p_acc: u8,
    p_free: u8,
    cycles: usize,
) -> Result<(), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut dut = D::fresh();
    let pids = [7u32, 8, 9];
    let mut table: Vec<(RrtEntry, u16)> = (0..REGIONS)
        .map(|_| (random_entry(&mut rng, &pids), rng.random()))
        .collect();
    let dt: u32 = rng.random_range(0..5000);
    let mut busy = vec![false; D::SLOTS];
    let mut seq = vec![0u16; D::SLOTS];
    let mut offer: Option<Sub> = None;
    let mut inflight: Option<Sub> = None;
    // Entries served to the in-flight command's lookups, in order.
    let mut served: Vec<Option<RrtEntry>> = Vec::new();
    let mut gens: Vec<u16> = Vec::new();
    let mut pending_lookup: Option<u16> = None;
    let (mut n_bad_cq, mut n_acc) = (0usize, 0usize);
    for cycle in 0..cycles {
        let now = cycle as u32;
        if offer.is_none() && rng.random_range(0u8..100) < p_sub {
            let free_slots: Vec<usize> = (0..D::SLOTS)
                .filter(|&s| !busy[s] && inflight.as_ref().is_none_or(|f| f.slot != s))
                .collect();
            if !free_slots.is_empty() {
                let (cmd, rsvd) = random_cmd(&mut rng, D::CLASSES);
                offer = Some(Sub {
                    slot: free_slots[rng.random_range(0..free_slots.len())],
                    pid: pids[rng.random_range(0..pids.len())],
                    cmd,
                    rsvd,
                    time: now,
                });
            }
        }
        // The table changes now and then (a driver commit), between lookups.
        if rng.random_range(0u8..10) == 0 {
            let i = rng.random_range(0..REGIONS as usize);
            table[i] = (random_entry(&mut rng, &pids), table[i].1.wrapping_add(1));
        }
        let answer = pending_lookup.map(|i| table.get(usize::from(i)).cloned());
        let acc_ready = rng.random_range(0u8..100) < p_acc;
        let busy_slots: Vec<usize> = (0..D::SLOTS).filter(|&s| busy[s]).collect();
        let free = (!busy_slots.is_empty() && rng.random_range(0u8..100) < p_free)
            .then(|| busy_slots[rng.random_range(0..busy_slots.len())]);
        let invalid = (
            RrtEntry {
                valid: 0,
                ..random_entry(&mut rng, &pids)
            },
            0u16,
        );
        let served_now = answer
            .as_ref()
            .map(|a| a.clone().unwrap_or(invalid.clone()));
        dut.drive(dt, offer.as_ref(), served_now.as_ref(), acc_ready, free);
        dut.eval();
        if let Some(a) = &answer {
            served.push(a.as_ref().map(|(e, _)| e.clone()));
            gens.push(a.as_ref().map_or(0, |(_, g)| *g));
        }
        // busy_o: every busy slot and the one in flight.
        let b = dut.busy();
        for (s, &is_busy) in busy.iter().enumerate() {
            let want = is_busy || inflight.as_ref().is_some_and(|f| f.slot == s);
            prop_assert_eq!(
                b >> s & 1 == 1,
                want,
                "cycle {}: busy_o of slot {}",
                cycle,
                s
            );
        }
        // Ends of the in-flight command.
        if dut.bad_cq() {
            let f = inflight.take().ok_or_else(|| {
                TestCaseError::fail(format!("cycle {cycle}: bad_cq with nothing in flight"))
            })?;
            prop_assert_eq!(
                served.len(),
                1,
                "cycle {}: bad_cq after {} lookups",
                cycle,
                served.len()
            );
            prop_assert!(
                !cq_ok(&f, served[0].as_ref()),
                "cycle {}: good completion region dropped",
                cycle
            );
            served.clear();
            gens.clear();
            n_bad_cq += 1;
        }
        let acc = dut.acc();
        let push = dut.push();
        if let Some(a) = &acc {
            let f = inflight.as_ref().ok_or_else(|| {
                TestCaseError::fail(format!("cycle {cycle}: accept with nothing in flight"))
            })?;
            prop_assert_eq!(
                served.len(),
                2,
                "cycle {}: accept after {} lookups",
                cycle,
                served.len()
            );
            prop_assert!(
                cq_ok(f, served[0].as_ref()),
                "cycle {}: accepted with a bad completion region",
                cycle
            );
            let want = Acc {
                slot: f.slot,
                seq: seq[f.slot].wrapping_add(1),
                status: status(f, served[1].as_ref(), D::CLASSES),
                t_sub: f.time,
                cq_addr: served[0]
                    .as_ref()
                    .map_or(0, |e| e.base_addr.wrapping_add(f.cmd.cq_offset)),
                cq_gen: gens[0],
                local_addr: 0,
                local_gen: 0,
            };
            prop_assert_eq!(
                (a.slot, a.seq, a.status, a.t_sub, a.cq_addr, a.cq_gen),
                (
                    want.slot,
                    want.seq,
                    want.status,
                    want.t_sub,
                    want.cq_addr,
                    want.cq_gen
                ),
                "cycle {}: accept",
                cycle
            );
            if a.status == STATUS_OK {
                let e = served[1]
                    .as_ref()
                    .ok_or_else(|| TestCaseError::fail("OK without a local entry"))?;
                prop_assert_eq!(
                    (a.local_addr, a.local_gen),
                    (e.base_addr.wrapping_add(f.cmd.local_offset), gens[1]),
                    "cycle {}: local address",
                    cycle
                );
            }
            if acc_ready {
                let want_push = (a.status == STATUS_OK).then(|| {
                    (
                        f.slot,
                        usize::from(f.cmd.cos),
                        f.time.wrapping_add(dt).wrapping_add(1),
                    )
                });
                prop_assert_eq!(push, want_push, "cycle {}: class queue push", cycle);
                busy[f.slot] = true;
                seq[f.slot] = seq[f.slot].wrapping_add(1);
                inflight = None;
                served.clear();
                gens.clear();
                n_acc += 1;
            } else {
                prop_assert_eq!(push, None, "cycle {}: push without the accept", cycle);
            }
        } else {
            prop_assert_eq!(push, None, "cycle {}: push without an accept", cycle);
        }
        // The DUT's lookup this cycle is answered next cycle.
        pending_lookup = dut.rrt_lookup();
        let took = offer.is_some() && dut.sub_ready();
        if took {
            let s = offer.take().unwrap_or_else(|| unreachable!());
            prop_assert!(
                inflight.is_none(),
                "cycle {}: a second command taken",
                cycle
            );
            prop_assert_eq!(
                pending_lookup,
                Some(s.cmd.cq_region),
                "cycle {}: first lookup",
                cycle
            );
            inflight = Some(s);
        } else if let (Some(i), Some(f)) = (pending_lookup, inflight.as_ref()) {
            prop_assert_eq!(i, f.cmd.local_region, "cycle {}: second lookup", cycle);
        }
        if let Some(s) = free {
            busy[s] = false;
        }
        dut.tick();
    }
    prop_assert!(
        cycles < 500 || p_sub < 20 || n_acc + n_bad_cq > 0,
        "nothing decided"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn small_submit_follows_section_2_2(seed in any::<u64>(), p_sub in 10u8..=100, p_acc in 10u8..=100,
                                        p_free in 0u8..=60, cycles in 1usize..2000) {
        run::<onerma_rtl::submit::Model>(seed, p_sub, p_acc, p_free, cycles)?;
    }

    #[test]
    fn default_submit_follows_section_2_2(seed in any::<u64>(), p_sub in 10u8..=100, p_acc in 10u8..=100,
                                          p_free in 0u8..=60, cycles in 1usize..2000) {
        run::<onerma_rtl::submit_default::Model>(seed, p_sub, p_acc, p_free, cycles)?;
    }
}
