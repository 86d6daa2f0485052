//! `onerma_cmd_bgate` (the command port's B at the NIC edge) against its promises in docs/nic.md
//! ("Command B at the edge"), with a random command port B, random submissions whose verdicts
//! (drop or accept) come 1-3 cycles after the handshake, and random BREADY.
//!
//! Checked every cycle: the edge's B keeps the AXI4 rule (once offered without BREADY, BVALID
//! stays and BRESP does not change: the regression of the glue it replaced, which withdrew a
//! waiting B when a later doorbell was taken); the edge offers only the port's B and an edge
//! transfer is exactly a port transfer; a B is first offered only while no submission is offered
//! or undecided; at its first offer its response is SLVERR iff a drop came since the last B that
//! carried one, else the port's. At the end every response of the port went out, in order.

use std::collections::VecDeque;

use onerma_rtl_tests::{RuleMonitor, Throttle};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const OKAY: u8 = 0;
const SLVERR: u8 = 2;

struct Inputs {
    cp_bvalid: bool,
    cp_bresp: u8,
    sub_valid: bool,
    sub_ready: bool,
    bad_cq: bool,
    acc_valid: bool,
    bready: bool,
}

fn drive(m: &mut onerma_rtl::cmd_bgate::Model, i: &Inputs) {
    m.set_cp_bvalid_i(u8::from(i.cp_bvalid));
    m.set_cp_bresp_i(i.cp_bresp);
    m.set_sub_valid_i(u8::from(i.sub_valid));
    m.set_sub_ready_i(u8::from(i.sub_ready));
    m.set_bad_cq_i(u8::from(i.bad_cq));
    m.set_acc_valid_i(u8::from(i.acc_valid));
    m.set_s_axi_bready_i(u8::from(i.bready));
}

/// One random run; `b_rate`, `sub_rate`, `ready_rate` in eighths. Returns how often a doorbell
/// was offered while a B waited for BREADY (the case the old glue broke).
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

    // The port's B: the response on the bus, and the responses it sent, in order.
    let mut cp_b: Option<u8> = None;
    let mut port_sent: Vec<u8> = Vec::new();
    // Submissions: one offered at a time; its verdict `delay` cycles after the handshake.
    let mut sub = false;
    let mut verdict: Option<(u32, bool)> = None; // (cycles left, dropped)
    // The reference of the docs.
    let mut drop_owed = false; // a drop came that no B has carried yet
    let mut was_offered: Option<u8> = None; // the edge's B, offered and not taken last cycle
    let mut edge_got: Vec<u8> = Vec::new();
    let mut rule = RuleMonitor::new("s_axi_b");
    // Responses the edge owes: (port response, whether it was made SLVERR).
    let mut owed_bad: VecDeque<bool> = VecDeque::new();
    let mut held_doorbells = 0u64;

    for cycle in 0..cycles {
        if cp_b.is_none() && b_th.go() {
            cp_b = Some(if rng.random_bool(0.25) { SLVERR } else { OKAY });
        }
        if !sub && verdict.is_none() && sub_th.go() {
            sub = true;
        }
        let (bad_cq, acc_valid) = match verdict {
            Some((0, d)) => (d, !d),
            _ => (false, false),
        };
        let inp = Inputs {
            cp_bvalid: cp_b.is_some(),
            cp_bresp: cp_b.unwrap_or(OKAY),
            sub_valid: sub,
            sub_ready: sub && rng.random_bool(0.5),
            bad_cq,
            acc_valid,
            bready: rdy_th.go(),
        };
        held_doorbells += u64::from(was_offered.is_some() && inp.sub_valid);
        drive(&mut m, &inp);
        m.eval();
        let bvalid = m.s_axi_bvalid_o() != 0;
        let bresp = m.s_axi_bresp_o();
        let cp_bready = m.cp_bready_o() != 0;

        rule.check(cycle, bvalid, inp.bready, &bresp)
            .map_err(fail)?;
        if bvalid {
            prop_assert!(
                inp.cp_bvalid,
                "cycle {}: an edge B without the port's",
                cycle
            );
        }
        prop_assert_eq!(
            bvalid && inp.bready,
            inp.cp_bvalid && cp_bready,
            "cycle {}: edge and port transfers differ",
            cycle
        );
        if bvalid && was_offered.is_none() {
            // First offer: the verdict of every taken doorbell is known.
            prop_assert!(
                !inp.sub_valid && verdict.is_none(),
                "cycle {}: a B offered before its doorbell's verdict",
                cycle
            );
            let want = if drop_owed { SLVERR } else { inp.cp_bresp };
            prop_assert_eq!(
                bresp,
                want,
                "cycle {}: the response at the first offer",
                cycle
            );
            owed_bad.push_back(drop_owed);
        }

        // The clock edge.
        if bvalid && inp.bready {
            edge_got.push(bresp);
            if owed_bad.pop_front() == Some(true) {
                drop_owed = false;
            }
        }
        if bad_cq {
            drop_owed = true;
        }
        was_offered = (bvalid && !inp.bready).then_some(bresp);
        if inp.cp_bvalid && cp_bready {
            port_sent.push(inp.cp_bresp);
            cp_b = None;
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
    // Every port response went out, and each is the port's or SLVERR.
    prop_assert_eq!(edge_got.len(), port_sent.len());
    for (e, p) in edge_got.iter().zip(&port_sent) {
        prop_assert!(*e == *p || *e == SLVERR, "edge {} for port {}", e, p);
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
