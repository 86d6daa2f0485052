//! The stream rules of `onerma_stream_check` run inside every Verilated top (Verilator
//! `--assert`): a test bench that breaks the rule on an input of a primitive makes the model's
//! `try_tick` fail with `BridgeError::Assertion` (and `tick` panic), instead of aborting the
//! process. Each violation has a control run that keeps the rule and passes.

use std::panic::{AssertUnwindSafe, catch_unwind};

use onerma_rtl::{fifo_d1, rr_arb, skid};
use onerma_vbridge::BridgeError;

/// A skid with a full spare slot (output stalled), offering `3` on its input, which is not ready.
fn stalled_skid() -> skid::Model {
    let mut m = skid::Model::new();
    m.reset(2);
    m.set_out_ready_i(0);
    m.set_in_valid_i(1);
    for d in 1..=2 {
        m.set_in_data_i(d);
        m.try_tick().expect("filling keeps the rule");
    }
    m.set_in_data_i(3);
    m.eval();
    assert_eq!(m.in_ready_o(), 0, "both slots full");
    m.try_tick()
        .expect("offering while not ready keeps the rule");
    m
}

fn assertion_at(r: Result<(), BridgeError>) -> u64 {
    match r {
        Err(BridgeError::Assertion { cycle, .. }) => cycle,
        other => panic!("expected a failed simulation assertion, got {other:?}"),
    }
}

#[test]
fn skid_input_valid_dropped_while_stalled() {
    let mut m = stalled_skid();
    let cycle = m.cycle();
    m.set_in_valid_i(0);
    assert_eq!(assertion_at(m.try_tick()), cycle);
    // The model stays failed.
    assert!(m.try_tick().is_err());
}

#[test]
fn skid_input_data_changed_while_stalled() {
    let mut m = stalled_skid();
    m.set_in_data_i(4);
    assertion_at(m.try_tick());
}

#[test]
fn skid_held_input_passes_and_drains() {
    let mut m = stalled_skid();
    for _ in 0..5 {
        m.try_tick().expect("held valid and data keep the rule");
    }
    m.set_out_ready_i(1);
    m.try_tick().expect("output takes word 1");
    m.try_tick()
        .expect("output takes word 2, the input word 3 goes in");
    m.set_in_valid_i(0);
    for _ in 0..4 {
        m.try_tick().expect("valid may drop after the transfer");
    }
}

#[test]
fn tick_panics_with_the_assertion() {
    let mut m = stalled_skid();
    m.set_in_valid_i(0);
    let r = catch_unwind(AssertUnwindSafe(|| m.tick()));
    let msg = match r {
        Err(e) => e.downcast_ref::<String>().cloned().unwrap_or_default(),
        Ok(()) => panic!("tick returned normally after a broken stream rule"),
    };
    assert!(msg.contains("simulation assertion failed"), "{msg}");
}

/// A depth-1 FIFO holding one word, offered a second.
fn stalled_fifo() -> fifo_d1::Model {
    let mut m = fifo_d1::Model::new();
    m.reset(2);
    m.set_out_ready_i(0);
    m.set_in_valid_i(1);
    m.set_in_data_i(0x11);
    m.try_tick().expect("push");
    m.set_in_data_i(0x22);
    m.eval();
    assert_eq!(m.in_ready_o(), 0, "full");
    m.try_tick().expect("offer while full");
    m
}

#[test]
fn fifo_input_valid_dropped_while_stalled() {
    let mut m = stalled_fifo();
    m.set_in_valid_i(0);
    assertion_at(m.try_tick());
}

/// A flush cancels the offered word like a reset: withdrawing it then is legal.
#[test]
fn fifo_flush_ends_the_rule() {
    let mut m = stalled_fifo();
    m.set_flush_i(1);
    m.try_tick().expect("flush cycle");
    m.set_flush_i(0);
    m.set_in_valid_i(0);
    m.try_tick().expect("withdrawn after the flush");
}

/// Input 2 of the round-robin arbiter wins, the output stalls, input 2 drops valid: the input
/// check (and the output check, since the output follows the locked input) fire.
#[test]
fn rr_arb_input_valid_dropped_while_stalled() {
    let run = |keep: bool| {
        let mut m = rr_arb::Model::new();
        m.reset(2);
        m.set_out_ready_i(0);
        m.set_in_valid_i(0b0100);
        m.set_in_data_i(0xbeef_u64 << 32);
        m.eval();
        assert_eq!((m.out_valid_o(), m.out_idx_o()), (1, 2));
        m.try_tick().expect("stalled grant");
        if !keep {
            m.set_in_valid_i(0);
        }
        m.try_tick()
    };
    run(true).expect("held input keeps the rule");
    assertion_at(run(false));
}
