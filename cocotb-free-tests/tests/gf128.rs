//! The GF(2^128) multiplier (`onerma_gf128_mul`, pipelined and iterative) against RustCrypto
//! `ghash`: GHASH_H of the single block X is X * H, so the crate gives the product of any two
//! blocks without any arithmetic of ours. Also checks the timing contract the GHASH lanes and the
//! power unit rely on (docs/crypto.md): pipelined latency 5 at one product per cycle, iterative
//! latency and II NumStages + 3, out_valid for exactly one cycle per product, side band kept.

use ghash::GHash;
use ghash::universal_hash::UniversalHash;
use onerma_rtl::{gf128_mul_iter, gf128_mul_pipe};
use onerma_rtl_tests::bits::{Block, from_words, to_words};
use onerma_rtl_tests::{Source, Throttle};
use proptest::prelude::*;
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::collections::VecDeque;

/// onerma_gf128_pkg::PipeLatency.
const PIPE_LATENCY: u64 = 5;
/// NumStages of the gf128_mul_iter top, and its latency (= II) NumStages + 3.
const ITER_DIGITS: u64 = 4;
const ITER_LATENCY: u64 = ITER_DIGITS + 3;

/// The oracle: x * y = GHASH_y(x).
fn mul_ref(x: &Block, y: &Block) -> Block {
    let mut g = GHash::new(&(*y).into());
    g.update(&[(*x).into()]);
    g.finalize().into()
}

/// Operands that reach the corner cases (0, 1 = x^0, x^127, all ones) as well as random ones.
fn operand() -> impl Strategy<Value = Block> {
    let one = {
        let mut b = [0u8; 16];
        b[0] = 0x80;
        b
    };
    let top = {
        let mut b = [0u8; 16];
        b[15] = 0x01;
        b
    };
    prop_oneof![
        1 => Just([0u8; 16]),
        1 => Just(one),
        1 => Just(top),
        1 => Just([0xffu8; 16]),
        8 => any::<Block>(),
    ]
}

struct Pending {
    x: Block,
    y: Block,
    side: u8,
    due: u64,
}

/// One product on the output in cycle `now`: it must be the one expected, on time, right, with
/// its side band.
fn check_product(
    p: Option<Pending>,
    now: u64,
    z: &[u32; 4],
    side: u8,
) -> Result<(), TestCaseError> {
    let p = p.ok_or_else(|| TestCaseError::fail("product from nowhere"))?;
    prop_assert_eq!(now, p.due, "latency");
    prop_assert_eq!(from_words(z), mul_ref(&p.x, &p.y));
    prop_assert_eq!(side, p.side);
    Ok(())
}

fn throttle(seed: u64, p: f64) -> Result<Throttle, TestCaseError> {
    Throttle::new(seed, p).map_err(|e| TestCaseError::fail(e.to_string()))
}

/// Drives the pipelined multiplier with products in random cycles and checks every output.
fn run_pipe(ops: &[(Block, Block)], seed: u64) -> Result<(), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut src = Source::new(throttle(seed, 0.7)?);
    ops.iter().for_each(|&op| src.push(op));
    let mut m = gf128_mul_pipe::Model::new();
    m.reset(2);
    let mut pending: VecDeque<Pending> = VecDeque::new();
    let mut side = 0u8;
    while !src.is_idle() || !pending.is_empty() {
        let offer = src.offer().copied();
        m.set_in_valid_i(u8::from(offer.is_some()));
        // Junk on the operands while in_valid is low must not matter.
        let (x, y) = offer.unwrap_or_else(|| (rng.random(), rng.random()));
        m.set_in_x_i(&to_words(&x));
        m.set_in_y_i(&to_words(&y));
        m.set_in_side_i(side);
        m.eval();
        prop_assert_eq!(m.in_ready_o(), 1, "the pipelined multiplier always takes");
        let now = m.cycle();
        if m.out_valid_o() == 1 {
            check_product(pending.pop_front(), now, &m.out_z_o(), m.out_side_o())?;
        }
        if let Some(p) = pending.front() {
            prop_assert!(p.due > now, "product due in cycle {} missing", p.due);
        }
        if let Some((x, y)) = src.handshake(m.in_ready_o() == 1) {
            pending.push_back(Pending {
                x,
                y,
                side,
                due: now + PIPE_LATENCY,
            });
            side ^= 1;
        }
        m.tick();
    }
    Ok(())
}

/// Drives the iterative multiplier: products offered with random gaps, in_valid held until taken.
fn run_iter(ops: &[(Block, Block)], seed: u64) -> Result<(), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut src = Source::new(throttle(seed, 0.5)?);
    ops.iter().for_each(|&op| src.push(op));
    let mut m = gf128_mul_iter::Model::new();
    m.reset(2);
    let mut pending: Option<Pending> = None;
    let mut last_accept: Option<u64> = None;
    let mut side = 0u8;
    let limit = (ops.len() as u64 + 1) * (ITER_LATENCY + 8) + 20;
    while !src.is_idle() || pending.is_some() {
        prop_assert!(m.cycle() < limit, "no progress");
        let offer = src.offer().copied();
        m.set_in_valid_i(u8::from(offer.is_some()));
        let (x, y) = offer.unwrap_or_else(|| (rng.random(), rng.random()));
        m.set_in_x_i(&to_words(&x));
        m.set_in_y_i(&to_words(&y));
        m.set_in_side_i(side);
        m.eval();
        let now = m.cycle();
        if m.out_valid_o() == 1 {
            check_product(pending.take(), now, &m.out_z_o(), m.out_side_o())?;
        }
        // Busy exactly until the cycle its product is offered.
        let busy = pending.as_ref().is_some_and(|p| now < p.due);
        prop_assert_eq!(m.in_ready_o(), u8::from(!busy), "in_ready in cycle {}", now);
        if let Some((x, y)) = src.handshake(m.in_ready_o() == 1) {
            if let Some(t) = last_accept {
                prop_assert!(now - t >= ITER_LATENCY, "II");
            }
            last_accept = Some(now);
            pending = Some(Pending {
                x,
                y,
                side,
                due: now + ITER_LATENCY,
            });
            side ^= 1;
        }
        m.tick();
    }
    Ok(())
}

#[test]
fn known_products() {
    // x^0 * y = y; x^127 * x = x^128 = 1 + x + x^2 + x^7 (0xe1 << 120 in block order).
    let mut one = [0u8; 16];
    one[0] = 0x80;
    let mut x1 = [0u8; 16];
    x1[0] = 0x40;
    let mut x127 = [0u8; 16];
    x127[15] = 0x01;
    let mut r = [0u8; 16];
    r[0] = 0xe1;
    let y: Block = std::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ 0xa5);
    assert_eq!(mul_ref(&one, &y), y, "the oracle's bit order");
    assert_eq!(mul_ref(&x127, &x1), r, "the oracle's reduction");
    let ops = [(one, y), (y, one), (x127, x1), (x1, x127), ([0; 16], y)];
    run_pipe(&ops, 1).expect("pipelined");
    run_iter(&ops, 1).expect("iterative");
}

#[test]
fn pipelined_back_to_back() {
    // One product every cycle for 200 cycles: each result exactly PIPE_LATENCY later.
    let mut rng = StdRng::seed_from_u64(7);
    let ops: Vec<(Block, Block)> = (0..200).map(|_| (rng.random(), rng.random())).collect();
    let mut m = gf128_mul_pipe::Model::new();
    m.reset(2);
    let mut outs = 0;
    for c in 0..(ops.len() as u64 + PIPE_LATENCY) {
        let i = c as usize;
        m.set_in_valid_i(u8::from(i < ops.len()));
        if let Some((x, y)) = ops.get(i) {
            m.set_in_x_i(&to_words(x));
            m.set_in_y_i(&to_words(y));
        }
        m.eval();
        if c >= PIPE_LATENCY {
            let (x, y) = ops[(c - PIPE_LATENCY) as usize];
            assert_eq!(m.out_valid_o(), 1, "cycle {c}");
            assert_eq!(from_words(&m.out_z_o()), mul_ref(&x, &y), "cycle {c}");
            outs += 1;
        } else {
            assert_eq!(m.out_valid_o(), 0, "cycle {c}");
        }
        m.tick();
    }
    assert_eq!(outs, ops.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn pipelined_matches_ghash(
        ops in prop::collection::vec((operand(), operand()), 1..40),
        seed in any::<u64>(),
    ) {
        run_pipe(&ops, seed)?;
    }

    #[test]
    fn iterative_matches_ghash(
        ops in prop::collection::vec((operand(), operand()), 1..20),
        seed in any::<u64>(),
    ) {
        run_iter(&ops, seed)?;
    }
}
