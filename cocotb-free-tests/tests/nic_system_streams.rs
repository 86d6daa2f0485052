//! Op streams on many RTL NICs as `proptest-state-machine` sequences (issue 17): each case is a
//! system of 2 to 4 Verilated `onerma_nic` tops (small configuration) on a clean or faulty fabric
//! and a sequence of transitions: an op (READ / WRITE / REKEY of 1 B to 4 KB, from one NIC's
//! slot to another NIC, at a chosen place in the legal range), a run of some cycles, or a
//! driver's re-registration of a region under a fresh key. Every transition runs against
//! `nic_sys::MultiRig`, where every NIC's model observer checks every frame, host access and
//! completion record, and every op that completes OK is checked end to end; the end drains every
//! op and finishes the observers. A failing stream shrinks (fewer transitions, smaller ops,
//! shorter runs) to a minimal one that proptest prints; its seed is kept in
//! `nic_system_streams.regressions` beside this file and replayed first by every run.
//!
//! An op whose slot is busy or that the workload's rules refuse at that moment (a REKEY to a
//! region in use, anything to a region being rekeyed; docs/verification.md) is skipped, so every
//! shrunk stream is still a legal one.

use onerma_layouts::OpType;
use onerma_rtl_tests::nic_rig::{Dut, fabric, memory};
use onerma_rtl_tests::nic_sys::{Mix, MultiRig};
use proptest::prelude::*;
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest, prop_state_machine};

/// The system a stream runs on (drawn once per case).
#[derive(Debug, Clone)]
struct System {
    nics: usize,
    seed: u64,
    faults: bool,
}

#[derive(Debug, Clone)]
enum Step {
    /// NIC `from`'s slot `slot` submits `op` of `SIZES[size]` bytes to NIC `(from + 1 + to) %
    /// nics`, at `pos` of the legal offset range (`write_only`: a WRITE to the write-only region).
    Op {
        from: usize,
        slot: u16,
        to: usize,
        op: OpType,
        size: usize,
        pos: f64,
        write_only: bool,
    },
    /// The system runs this many cycles.
    Run(u64),
    /// NIC `nic`'s driver re-registers its readable region under a fresh key once it is quiet.
    Reregister(usize),
}

const SIZES: [u16; 7] = [1, 16, 64, 700, 1024, 2500, 4096];

struct Streams;

impl ReferenceStateMachine for Streams {
    type State = System;
    type Transition = Step;

    fn init_state() -> BoxedStrategy<System> {
        (2usize..=4, 1u64..1_000_000, any::<bool>())
            .prop_map(|(nics, seed, faults)| System { nics, seed, faults })
            .boxed()
    }

    fn transitions(state: &System) -> BoxedStrategy<Step> {
        let n = state.nics;
        let op = prop_oneof![
            4 => Just(OpType::Read),
            4 => Just(OpType::Write),
            1 => Just(OpType::Rekey),
        ];
        prop_oneof![
            6 => (0..n, 0u16..8, 0..n - 1, op, 0..SIZES.len(), 0.0f64..=1.0, any::<bool>())
                .prop_map(|(from, slot, to, op, size, pos, write_only)| Step::Op {
                    from,
                    slot,
                    to,
                    op,
                    size,
                    pos,
                    write_only,
                }),
            3 => (50u64..4_000).prop_map(Step::Run),
            1 => (0..n).prop_map(Step::Reregister),
        ]
        .boxed()
    }

    fn apply(state: System, _: &Step) -> System {
        state
    }
}

impl StateMachineTest for Streams {
    type SystemUnderTest = MultiRig;
    type Reference = Streams;

    fn init_test(s: &System) -> MultiRig {
        let mut r = MultiRig::<Dut>::new(
            s.nics,
            s.seed,
            fabric(s.seed, s.faults, false),
            memory(s.seed, 6, if s.faults { 0.8 } else { 1.0 }),
            0.95,
        )
        .unwrap_or_else(|e| panic!("system: {e}"));
        // Only the stream's ops: no random submissions.
        r.mix = Mix {
            p_submit: 0.0,
            ..Mix::default()
        };
        r.setup().unwrap_or_else(|e| panic!("setup: {e}"));
        r
    }

    fn apply(mut r: MultiRig, s: &System, step: Step) -> MultiRig {
        match step {
            Step::Op {
                from,
                slot,
                to,
                op,
                size,
                pos,
                write_only,
            } => {
                let t = (from + 1 + to) % s.nics;
                r.try_submit(from, slot, t, op, SIZES[size], pos, write_only);
            }
            Step::Run(c) => r.load(c).unwrap_or_else(|e| panic!("{e}")),
            Step::Reregister(t) => r.reregister(t),
        }
        r
    }

    fn teardown(mut r: MultiRig, _: System) {
        r.drain(400_000).unwrap_or_else(|e| panic!("drain: {e}"));
    }
}

prop_state_machine! {
    #![proptest_config(ProptestConfig {
        cases: 4,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("regressions"),
        )),
        ..ProptestConfig::default()
    })]

    #[test]
    fn op_streams_on_rtl_nics(sequential 1..40 => Streams);
}
