//! Op streams on many RTL NICs as `proptest-state-machine` sequences (issue 17): each case is a
//! system of 2 to 4 Verilated `onerma_nic` tops (small configuration) on a clean or faulty fabric
//! and a sequence of transitions (`nic_streams::Step`): an op (READ / WRITE / REKEY of 1 B to
//! 4 KB, from one NIC's slot to another NIC, at a chosen place in the legal range), a run of some
//! cycles, or a driver's re-registration of a region under a fresh key. Every transition runs
//! against `nic_sys::MultiRig`, where every NIC's model observer checks every frame, host access
//! and completion record, and every op that completes OK is checked end to end; the end drains
//! every op and finishes the observers.
//!
//! A failing stream shrinks (fewer transitions, smaller ops, shorter runs) to a minimal one. Its
//! seed is kept in `regressions/nic_system_streams.proptest-regressions` (replayed first by
//! every run) and the shrunk stream itself in `regressions/nic_system_streams-<hash>.json`
//! (replayed by `tests/nic_system_replay.rs` and by `onerma replay FILE`, which adds waves).

use onerma_rtl_tests::nic_rig::RigError;
use onerma_rtl_tests::nic_streams::{
    DRAIN_BOUND, SIZES, SavedStream, Step, StreamOp, StreamSystem, run_step, stream_rig,
};
use onerma_rtl_tests::nic_sys::MultiRig;
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, TestError, TestRunner, contextualize_config};
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};

struct Streams;

impl ReferenceStateMachine for Streams {
    type State = StreamSystem;
    type Transition = Step;

    fn init_state() -> BoxedStrategy<StreamSystem> {
        (2usize..=4, 1u64..1_000_000, any::<bool>())
            .prop_map(|(nics, seed, faults)| StreamSystem { nics, seed, faults })
            .boxed()
    }

    fn transitions(state: &StreamSystem) -> BoxedStrategy<Step> {
        let n = state.nics;
        let op = prop_oneof![
            4 => Just(StreamOp::Read),
            4 => Just(StreamOp::Write),
            1 => Just(StreamOp::Rekey),
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

    fn apply(state: StreamSystem, _: &Step) -> StreamSystem {
        state
    }
}

fn or_panic<T>(what: &str, r: Result<T, RigError>) -> T {
    r.unwrap_or_else(|e| panic!("{what}: {e}"))
}

impl StateMachineTest for Streams {
    type SystemUnderTest = MultiRig;
    type Reference = Streams;

    fn init_test(s: &StreamSystem) -> MultiRig {
        or_panic("setup", stream_rig(s, |_| {}))
    }

    fn apply(mut r: MultiRig, s: &StreamSystem, step: Step) -> MultiRig {
        or_panic("step", run_step(&mut r, s, &step));
        r
    }

    fn teardown(mut r: MultiRig, _: StreamSystem) {
        or_panic("drain", r.drain(DRAIN_BOUND));
    }
}

/// The regressions directory (the package's `regressions/`).
const REGRESSIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/regressions");

/// Streams of 1 to 40 transitions, 4 cases (`PROPTEST_CASES` overrides). A failure saves its
/// seed and its shrunk stream under `regressions/` and fails the test.
#[test]
fn op_streams_on_rtl_nics() {
    let mut config = contextualize_config(ProptestConfig {
        cases: 4,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/regressions/nic_system_streams.proptest-regressions"
        )))),
        ..ProptestConfig::default()
    });
    config.test_name = Some("nic_system_streams::op_streams_on_rtl_nics");
    config.source_file = Some(file!());
    let mut runner = TestRunner::new(config.clone());
    let strategy = Streams::sequential_strategy(1..40);
    let res = runner.run(&strategy, |(init, steps, seen)| {
        Streams::test_sequential(config.clone(), init, steps, seen);
        Ok(())
    });
    match res {
        Ok(()) => {}
        Err(TestError::Fail(why, (system, steps, _))) => {
            let saved = SavedStream {
                note: format!("op_streams_on_rtl_nics, shrunk: {why}"),
                system,
                steps,
            };
            let at = saved
                .save(std::path::Path::new(REGRESSIONS), "nic_system_streams")
                .map_or_else(|e| format!("(not saved: {e})"), |p| p.display().to_string());
            panic!(
                "a stream failed: {why}\nshrunk to {} steps on {:?}, saved at {at}:\n{:#?}",
                saved.steps.len(),
                saved.system,
                saved.steps
            );
        }
        Err(e) => panic!("{e}"),
    }
}
