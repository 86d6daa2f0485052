//! `Nic`'s public accessors and driver calls, each asserted against what the inputs must have
//! done: a fresh NIC, RRT commits (§4.1), one READ queued, dispatched and served in manual mode,
//! `nic_enable` (§1.1), time that goes back, and the arbitration policy.

mod common;
use common::*;
use onerma_layouts::{OpType, RrtEntry};
use onerma_model::nic::{Nic, Outputs, RxOutcome};
use onerma_model::shared::EMPTY_RRT;
use onerma_model::{InQueue, ModelError, NicCounters, Policy};

fn read_cmd(remote: u32) -> [u8; 64] {
    bytes(&cmd(
        OpType::Read,
        remote,
        0,
        0,
        64,
        0,
        0,
        kd_for(1, 0, 0x100, OpType::Read),
    ))
}

#[test]
fn a_fresh_nic_is_idle_and_empty() {
    let mut n = Nic::new(cfg(0x123)).expect("nic");
    assert_eq!((n.addr(), n.config().nic_addr), (0x123, 0x123));
    assert!(n.enabled());
    assert_eq!(n.window_free(), 1024);
    assert_eq!((n.inbound_len(), n.contexts_in_use()), (0, 0));
    assert!((0..4).all(|c| n.class_len(c) == 0));
    assert!(!n.slot_busy(0));
    assert!(n.is_idle());
    assert_eq!(n.busy_detail(), None);
    assert_eq!(n.next_wakeup(), None);
    assert!(n.ready_classes().is_empty());
    assert!(n.servable_inbound(0).is_empty());
    assert_eq!(n.counters(), &NicCounters::default());
    assert!(n.mem().is_some() && n.mem_mut().is_some());
    // The diagnostic view names the NIC and its window.
    let dbg = format!("{n:?}");
    assert!(
        dbg.starts_with("Nic { nic_addr: 291, window_free: 1024, counters:"),
        "{dbg}"
    );
}

#[test]
fn rrt_commits_are_visible_and_logged() {
    let mut n = Nic::new(cfg(0x123)).expect("nic");
    let e: RrtEntry = local_entry(0x4000, 0x1000);
    n.commit_rrt(5, 2, e.clone()).expect("commit");
    assert_eq!(n.rrt(2), Some(&e));
    assert_eq!(
        n.rrt_row(2).map(|r| (r.generation, r.key_gen)),
        Some((1, 1))
    );
    let mut out = Outputs::default();
    n.advance(7, &mut out).expect("advance");
    let mut e2 = e.clone();
    e2.size = 0x2000;
    // At the NIC's current time (7).
    n.write_rrt(2, e2.clone()).expect("write");
    n.deregister(2).expect("deregister");
    assert_eq!(n.rrt(2), Some(&EMPTY_RRT));
    assert_eq!(n.rrt_row(2).map(|r| r.generation), Some(3));
    assert_eq!(
        n.rrt_log.as_deref(),
        Some(&[(5, 2, e, 1), (7, 2, e2, 2), (7, 2, EMPTY_RRT, 3)][..])
    );
    // Default 256 regions: 0..=255.
    assert!(n.rrt(255).is_some());
    assert_eq!((n.rrt(256), n.rrt_row(256)), (None, None));
    assert_eq!(
        n.commit_rrt(8, 256, EMPTY_RRT),
        Err(ModelError::NoSuchRegion(256))
    );
}

#[test]
fn time_may_stand_still_but_not_go_back() {
    let mut n = Nic::new(cfg(0x123)).expect("nic");
    let mut out = Outputs::default();
    n.advance(10, &mut out).expect("advance");
    n.advance(10, &mut out).expect("same cycle");
    assert_eq!(
        n.advance(9, &mut out),
        Err(ModelError::TimeWentBack { now: 9, last: 10 })
    );
}

#[test]
fn a_read_queued_dispatched_and_served_by_hand() {
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    a.submit(100, 3, &read_cmd(b.addr()), &mut out)
        .expect("submit");
    assert_eq!((a.class_len(0), a.class_len(1)), (1, 0));
    assert!(a.slot_busy(3) && !a.slot_busy(2));
    assert!(!a.is_idle());
    assert!(
        a.busy_detail()
            .is_some_and(|d| d.starts_with("initiator idle false, responder idle true"))
    );
    // The DISPATCH_TIMEOUT timer, due after the submission.
    let dt = a.config().dispatch_timeout;
    assert!(
        a.next_wakeup()
            .is_some_and(|t| t > 100 && t <= 100 + dt + 1),
        "{:?}",
        a.next_wakeup()
    );
    assert_eq!(a.ready_classes(), vec![0]);
    assert_eq!(a.dispatch(110, 0, &mut out), Ok(3));
    assert_eq!(a.class_len(0), 0);
    // A 64-byte READ reserves one line.
    assert_eq!(a.window_free(), 1023);
    let req = out.messages.pop().expect("RD_REQ");
    assert_eq!(b.receive(200, &req, &mut out), Ok(RxOutcome::Enqueued));
    assert_eq!(b.inbound_len(), 1);
    assert!(!b.is_idle());
    assert_eq!(b.servable_inbound(200), vec![InQueue::Read]);
    b.serve_inbound(200, InQueue::Read, &mut out)
        .expect("serve");
    assert_eq!(b.inbound_len(), 0);
    assert_eq!(b.counters().msgs_received, 1);
}

#[test]
fn a_stopped_nic_dispatches_nothing() {
    let s = system(2, |_| {}, fast_fabric());
    let mut a = s.nics.into_iter().next().expect("nic");
    a.set_manual(true);
    let mut out = Outputs::default();
    a.set_enabled(5, false, &mut out).expect("stop");
    assert!(!a.enabled());
    a.set_enabled(6, true, &mut out).expect("start");
    assert!(a.enabled());
    a.submit(10, 0, &read_cmd(0x101), &mut out).expect("submit");
    assert_eq!(a.ready_classes(), vec![0]);
    a.set_enabled(11, false, &mut out).expect("stop");
    assert!(a.ready_classes().is_empty());
    assert_eq!(a.class_len(0), 1);
}

/// Never dispatches, never serves.
struct Idle;

impl Policy for Idle {
    fn pick_class(&mut self, _now: u64, _ready: &[u8]) -> Option<u8> {
        None
    }
    fn pick_inbound(&mut self, _now: u64, _servable: &[InQueue]) -> Option<InQueue> {
        None
    }
}

#[test]
fn the_policy_makes_the_automatic_choices() {
    let s = system(2, |_| {}, fast_fabric());
    let mut it = s.nics.into_iter();
    let (Some(mut a), Some(mut waits)) = (it.next(), it.next()) else {
        panic!("two nics")
    };
    let mut out = Outputs::default();
    // The default policy dispatches at the doorbell.
    a.submit(10, 0, &read_cmd(0x101), &mut out).expect("submit");
    assert_eq!(a.class_len(0), 0);
    assert_eq!(out.messages.len(), 1);
    waits.set_policy(Box::new(Idle));
    let mut out = Outputs::default();
    waits
        .submit(10, 0, &read_cmd(0x100), &mut out)
        .expect("submit");
    assert_eq!(waits.class_len(0), 1);
    assert!(out.messages.is_empty());
}

#[test]
fn no_class_is_ready_without_a_free_quantum() {
    // A 64-line window: one dispatched 64-byte READ holds a line, leaving 63 < 64 (§5), so the
    // second queued op may not be chosen although its class is non-empty.
    let s = system(2, |c| c.window_lines = 64, fast_fabric());
    let mut a = s.nics.into_iter().next().expect("nic");
    a.set_manual(true);
    let mut out = Outputs::default();
    a.submit(10, 0, &read_cmd(0x101), &mut out).expect("submit");
    a.submit(11, 1, &read_cmd(0x101), &mut out).expect("submit");
    assert_eq!(a.ready_classes(), vec![0]);
    assert_eq!(a.dispatch(12, 0, &mut out), Ok(0));
    assert_eq!((a.class_len(0), a.window_free()), (1, 63));
    assert!(a.ready_classes().is_empty());
}

#[test]
fn outputs_clear_empties_both_lists() {
    // A READ dispatched at the doorbell (the default policy) leaves its RD_REQ in `messages`; a
    // READ of length 0 completes at once with BAD_COMMAND (§2.2), its record in `completions`
    // once written. `clear` empties both.
    let s = system(2, |_| {}, fast_fabric());
    let mut a = s.nics.into_iter().next().expect("nic");
    let mut out = Outputs::default();
    a.submit(10, 0, &read_cmd(0x101), &mut out).expect("submit");
    let empty = bytes(&cmd(
        OpType::Read,
        0x101,
        0,
        0,
        0,
        0,
        16,
        kd_for(1, 0, 0x100, OpType::Read),
    ));
    a.submit(11, 1, &empty, &mut out).expect("submit");
    a.advance(1_000, &mut out).expect("advance");
    assert_eq!(out.messages.len(), 1);
    assert_eq!(
        out.completions
            .iter()
            .map(|c| c.cpl.status)
            .collect::<Vec<_>>(),
        vec![onerma_layouts::Status::BadCommand]
    );
    out.clear();
    assert!(out.messages.is_empty() && out.completions.is_empty());
}

#[test]
fn no_wakeup_is_due_at_a_cycle_already_handled() {
    // B serves one READ by hand, which holds its host read channel until some cycle `rd`; a
    // second READ waits under a policy that serves nothing. Advancing to `rd` handles `rd`: a
    // wake-up for the channel is needed only while it is busy, so any next wake-up is later.
    let (mut a, mut b) = manual_pair(|_| {});
    let mut out = Outputs::default();
    for slot in [3, 4] {
        a.submit(100, slot, &read_cmd(b.addr()), &mut out)
            .expect("submit");
    }
    assert_eq!(a.dispatch(110, 0, &mut out), Ok(3));
    assert_eq!(a.dispatch(111, 0, &mut out), Ok(4));
    for req in std::mem::take(&mut out.messages) {
        assert_eq!(b.receive(200, &req, &mut out), Ok(RxOutcome::Enqueued));
    }
    b.serve_inbound(200, InQueue::Read, &mut out)
        .expect("serve");
    assert_eq!(b.inbound_len(), 1);
    let rd = (201..10_000)
        .find(|&t| b.servable_inbound(t) == vec![InQueue::Read])
        .expect("the host read channel frees");
    b.set_manual(false);
    b.set_policy(Box::new(Idle));
    b.advance(rd, &mut out).expect("advance");
    assert_eq!(b.inbound_len(), 1);
    assert!(
        b.next_wakeup().is_none_or(|t| t > rd),
        "{:?} at {rd}",
        b.next_wakeup()
    );
}
