//! `onerma_cmd_bgate` (the command port's B at the NIC edge) against its promises in docs/nic.md
//! ("Command B at the edge"), with a random command port B, random submissions whose verdicts
//! (drop or accept) come 1-3 cycles after the handshake, and random BREADY.
//!
//! The reference of the docs: the port's B is taken whenever fewer than `DEPTH` Bs are queued;
//! each queued B carries the submissions first offered since the previous one was taken, up to
//! and including its own cycle; the oldest is offered at the edge from the cycle after the last
//! of those verdicts came (at once if they all came earlier), SLVERR if one of them was a drop,
//! else with the port's response. Checked every cycle: the edge's B keeps the AXI4 rule (once
//! offered without BREADY, BVALID stays and BRESP does not change); BVALID, BRESP and the port's
//! BREADY are exactly the reference's. At the end (after a drain) every response of the port
//! went out, in order.

use std::collections::VecDeque;

use onerma_rtl_tests::{RuleMonitor, Throttle};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const OKAY: u8 = 0;
const SLVERR: u8 = 2;
/// The block's default queue depth.
const DEPTH: usize = 4;

struct Inputs {
    cp_bvalid: bool,
    cp_bresp: u8,
    cp_bid: u8,
    sub_valid: bool,
    sub_ready: bool,
    bad_cq: bool,
    acc_valid: bool,
    bready: bool,
}

fn drive(m: &mut onerma_rtl::cmd_bgate::Model, i: &Inputs) {
    m.set_cp_bvalid_i(u8::from(i.cp_bvalid));
    m.set_cp_bresp_i(i.cp_bresp);
    m.set_cp_bid_i(i.cp_bid);
    m.set_sub_valid_i(u8::from(i.sub_valid));
    m.set_sub_ready_i(u8::from(i.sub_ready));
    m.set_bad_cq_i(u8::from(i.bad_cq));
    m.set_acc_valid_i(u8::from(i.acc_valid));
    m.set_s_axi_bready_i(u8::from(i.bready));
}

/// One random run of `cycles` cycles of traffic and a drain; `b_rate`, `sub_rate`, `ready_rate`
/// in eighths. Returns how often a doorbell was offered while a B waited for BREADY.
fn run(
    seed: u64,
    cycles: u64,
    b_rate: u8,
    sub_rate: u8,
    ready_rate: u8,
) -> Result<u64, TestCaseError> {
    let fail = |e: onerma_rtl_tests::StreamError| TestCaseError::fail(e.to_string());
    let mut rng = StdRng::seed_from_u64(seed);
    let mut b_th = Throttle::eighths(rng.random(), b_rate).map_err(fail)?;
    let mut sub_th = Throttle::eighths(rng.random(), sub_rate).map_err(fail)?;
    let mut rdy_th = Throttle::eighths(rng.random(), ready_rate).map_err(fail)?;
    let mut m = onerma_rtl::cmd_bgate::Model::new();
    m.reset(2);

    // The port's B on the bus (response, BID), and the Bs it sent, in order.
    let mut cp_b: Option<(u8, u8)> = None;
    let mut port_sent: Vec<(u8, u8)> = Vec::new();
    // Submissions: one offered at a time, at most two first offered between port Bs taken (the
    // command port's bound); a verdict `delay` cycles after the handshake.
    let mut sub = false;
    let mut since = 0u32;
    let mut verdict: Option<(u32, bool)> = None; // (cycles left, dropped)
    // The reference: submissions first offered; verdicts in order (true = drop); queued port Bs
    // (response, submissions first offered up to its cycle); verdicts consumed.
    let mut first = 0usize;
    let mut verdicts: Vec<bool> = Vec::new();
    let mut queue: VecDeque<((u8, u8), usize)> = VecDeque::new();
    let mut consumed = 0usize;
    let mut was_offered = false;
    let mut edge_got: Vec<(u8, u8)> = Vec::new();
    let mut rule = RuleMonitor::new("s_axi_b");
    let mut held_doorbells = 0u64;

    let drain = cycles + 40;
    for cycle in 0..drain {
        let traffic = cycle < cycles;
        if traffic && cp_b.is_none() && b_th.go() {
            let resp = if rng.random_bool(0.25) { SLVERR } else { OKAY };
            cp_b = Some((resp, rng.random_range(0..16)));
        }
        // A submission first offered this cycle.
        let sub_first = traffic && !sub && verdict.is_none() && since < 2 && sub_th.go();
        sub |= sub_first;
        let (bad_cq, acc_valid) = match verdict {
            Some((0, d)) => (d, !d),
            _ => (false, false),
        };
        let inp = Inputs {
            cp_bvalid: cp_b.is_some(),
            cp_bresp: cp_b.map_or(OKAY, |b| b.0),
            cp_bid: cp_b.map_or(0, |b| b.1),
            sub_valid: sub,
            sub_ready: sub && rng.random_bool(0.5),
            bad_cq,
            acc_valid,
            bready: !traffic || rdy_th.go(),
        };
        held_doorbells += u64::from(was_offered && inp.sub_valid);
        drive(&mut m, &inp);
        m.eval();
        let bvalid = m.s_axi_bvalid_o() != 0;
        let bresp = m.s_axi_bresp_o();
        let bid = m.s_axi_bid_o();
        let cp_bready = m.cp_bready_o() != 0;

        rule.check(cycle, bvalid, inp.bready, &(bresp, bid))
            .map_err(fail)?;
        // The reference's outputs (verdicts of earlier cycles only).
        let want_valid = queue
            .front()
            .is_some_and(|&(_, need)| verdicts.len() >= need);
        prop_assert_eq!(bvalid, want_valid, "cycle {}: BVALID", cycle);
        if let Some(&((resp, id), need)) = queue.front().filter(|_| want_valid) {
            let bad = verdicts[consumed..need].iter().any(|&d| d);
            prop_assert_eq!(
                bresp,
                if bad { SLVERR } else { resp },
                "cycle {}: BRESP",
                cycle
            );
            prop_assert_eq!(bid, id, "cycle {}: BID", cycle);
        }
        prop_assert_eq!(
            cp_bready,
            queue.len() < DEPTH,
            "cycle {}: the port's BREADY",
            cycle
        );

        // The clock edge.
        if bvalid && inp.bready {
            edge_got.push((bresp, bid));
            if let Some((_, need)) = queue.pop_front() {
                consumed = need;
            }
        }
        if bad_cq || acc_valid {
            verdicts.push(bad_cq);
        }
        first += usize::from(sub_first);
        was_offered = bvalid && !inp.bready;
        if inp.cp_bvalid && cp_bready {
            port_sent.push((inp.cp_bresp, inp.cp_bid));
            queue.push_back(((inp.cp_bresp, inp.cp_bid), first));
            cp_b = None;
            since = 0;
        } else {
            since += u32::from(sub_first);
        }
        verdict = match verdict {
            Some((0, _)) => None,
            Some((n, d)) => Some((n - 1, d)),
            None => None,
        };
        if inp.sub_valid && inp.sub_ready {
            sub = false;
            // The checks decide 1-3 cycles after the handshake.
            verdict = Some((rng.random_range(0..3), rng.random_bool(0.3)));
        }
        m.tick();
    }
    // Every port B went out, in order, with its BID, each response the port's or SLVERR.
    prop_assert_eq!(edge_got.len(), port_sent.len());
    for (e, p) in edge_got.iter().zip(&port_sent) {
        prop_assert!(
            e.1 == p.1 && (e.0 == p.0 || e.0 == SLVERR),
            "edge {:?} for port {:?}",
            e,
            p
        );
    }
    Ok(held_doorbells)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random port B, submissions and BREADY: every rule above, every cycle.
    #[test]
    fn edge_b_keeps_the_rules(seed in any::<u64>(), b in 1u8..=8, s in 1u8..=8, r in 1u8..=8) {
        run(seed, 400, b, s, r)?;
    }
}

/// The case the old glue broke: a B waiting for BREADY while doorbells keep coming.
#[test]
fn waiting_b_survives_a_doorbell() -> Result<(), TestCaseError> {
    let mut seen = 0;
    for seed in 0..32 {
        seen += run(seed, 400, 4, 2, 1)?;
    }
    prop_assert!(seen > 0, "no doorbell offered while a B waited");
    Ok(())
}
