//! Self-tests of the Rust<->Verilator bridge on `onerma_bridge_probe`.
//!
//! Expected values come from a small Rust reference of the probe (`Ref`), never from the DUT.

use onerma_rtl::bridge_probe::Model;
use proptest::prelude::*;
use rand::{Rng, SeedableRng, rngs::StdRng};

const MASK41: u64 = (1 << 41) - 1;

/// Reference behaviour of the probe, written from its spec comment.
#[derive(Default, Clone, Debug)]
struct Ref {
    count: u32,
    data: [u32; 4],
}

impl Ref {
    fn tick(&mut self, en: bool, step: u8, load: bool, data: [u32; 4]) {
        if en {
            self.count = self.count.wrapping_add(u32::from(step & 0x1f));
        }
        if load {
            self.data = data;
        }
    }
}

fn xor4(a: [u32; 4], b: [u32; 4]) -> [u32; 4] {
    [a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]]
}

fn fresh() -> Model {
    let mut m = Model::new();
    m.reset(2);
    m
}

#[test]
fn wide_port_round_trip() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut m = fresh();
    for _ in 0..200 {
        let v: [u32; 4] = rng.random();
        m.set_data_i(&v);
        m.set_load_i(1);
        m.tick();
        assert_eq!(
            m.data_o(),
            v,
            "128-bit register must return what was loaded"
        );
        assert_eq!(m.data_i(), v, "input port readback");
        // Combinational wide output reacts to eval() alone, without a clock edge.
        let w: [u32; 4] = rng.random();
        m.set_data_i(&w);
        m.eval();
        assert_eq!(m.mix_o(), xor4(v, w));
    }
}

#[test]
fn narrow_ports_are_masked_to_width() {
    let mut m = fresh();
    m.set_step_i(0xff);
    assert_eq!(m.step_i(), 0x1f, "5-bit input keeps only its 5 bits");
    m.set_add_i(u64::MAX);
    m.eval();
    assert_eq!(m.add_i(), MASK41);
    // count is 0 after reset, so the 41-bit sum is the masked input.
    assert_eq!(m.sum_o(), MASK41);
    m.set_en_i(1);
    m.tick();
    // 0x1f + (2^41 - 1) wraps at 41 bits to 0x1e.
    assert_eq!(m.sum_o(), 0x1e);
}

#[test]
fn reset_is_asynchronous_and_clears_control_state() {
    let mut m = fresh();
    m.set_en_i(1);
    m.set_step_i(7);
    for _ in 0..5 {
        m.tick();
    }
    assert_eq!(m.count_o(), 35);
    // Asynchronous: the counter clears on eval, before any clock edge.
    let before = m.cycle();
    m.set_rst_ni(0);
    m.eval();
    assert_eq!(m.count_o(), 0);
    assert_eq!(m.cycle(), before);
    m.set_rst_ni(1);
    m.tick();
    assert_eq!(m.count_o(), 7);
    m.reset(3);
    assert_eq!(m.count_o(), 0, "held in reset while enabled");
    assert_eq!(m.cycle(), before + 1 + 3);
}

#[test]
fn tick_samples_inputs_at_the_rising_edge() {
    let mut m = fresh();
    let c0 = m.cycle();
    m.set_en_i(1);
    m.set_step_i(3);
    m.eval();
    assert_eq!(m.count_o(), 0, "no edge yet");
    m.tick();
    assert_eq!(m.count_o(), 3, "post-edge state visible after tick");
    assert_eq!(m.cycle(), c0 + 1);
    m.set_step_i(10);
    m.set_en_i(0);
    m.eval();
    assert_eq!(
        m.count_o(),
        3,
        "inputs changed after tick wait for the next edge"
    );
    m.tick();
    assert_eq!(m.count_o(), 3, "en_i low at the edge");
    m.set_en_i(1);
    m.tick();
    assert_eq!(m.count_o(), 13);
}

#[test]
fn two_models_in_one_process_are_independent() {
    let mut a = fresh();
    let mut b = fresh();
    a.set_en_i(1);
    a.set_step_i(1);
    b.set_en_i(1);
    b.set_step_i(2);
    for _ in 0..10 {
        a.tick();
    }
    for _ in 0..4 {
        b.tick();
    }
    assert_eq!((a.count_o(), b.count_o()), (10, 8));
    // `Model: Send`: a model runs on another thread while this one keeps going.
    let h = std::thread::spawn(move || {
        for _ in 0..100 {
            b.tick();
        }
        b.count_o()
    });
    for _ in 0..100 {
        a.tick();
    }
    assert_eq!(h.join().ok(), Some(208));
    assert_eq!(a.count_o(), 110);
}

#[test]
fn trace_file_is_written() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("bridge_probe_{}.fst", std::process::id()));
    let mut m = fresh();
    m.trace_start(&path).expect("open trace");
    m.set_en_i(1);
    m.set_step_i(1);
    for _ in 0..20 {
        m.tick();
    }
    m.trace_stop();
    let fst = std::fs::read(&path).expect("read trace");
    let _ = std::fs::remove_file(&path);
    // The FST header block (GTKWave's fstapi.c): tag 0 at byte 0, then big-endian u64s: the
    // section length at 1, the start time at 9, the end time at 17, ..., the variable count at
    // 49.
    let be = |at: usize| {
        fst.get(at..at + 8)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u64::from_be_bytes)
    };
    assert_eq!(fst.first(), Some(&0), "FST header block");
    assert_eq!(be(1), 329, "FST header length");
    // Cycle n's rising edge is at time 10n: the last of 22 edges (2 reset + 20) is 220.
    assert_eq!(be(17), 220, "time derived from the cycle count");
    assert!(be(49) >= 4, "ports are traced: {} variables", be(49));
    let bad = dir.join("no_such_dir").join("x.fst");
    assert!(
        m.trace_start(&bad).is_err(),
        "unopenable path reports an error"
    );
    m.tick();
    assert_eq!(
        m.count_o(),
        21,
        "model keeps working after a failed trace_start"
    );
}

/// A top whose spec does not ask for waves (`fifo`, like most block tops) refuses a trace with
/// `NoWaves`, opens no file, and keeps simulating.
#[cfg(not(feature = "waves"))]
#[test]
fn trace_without_waves_is_refused() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("fifo_{}.fst", std::process::id()));
    let mut m = onerma_rtl::fifo::Model::new();
    m.reset(2);
    let e = m
        .trace_start(&path)
        .expect_err("a model without waves traced");
    assert!(
        matches!(&e, onerma_vbridge::BridgeError::NoWaves { model } if model == "fifo"),
        "{e}"
    );
    assert!(!path.exists(), "no wave file is created");
    m.trace_stop();
    m.set_in_valid_i(1);
    m.set_in_data_i(0x1234u16);
    m.tick();
    assert_eq!(m.out_valid_o(), 1, "the model still simulates");
}

#[derive(Debug, Clone)]
struct Step {
    en: bool,
    step: u8,
    load: bool,
    data: [u32; 4],
    add: u64,
    reset: bool,
}

fn step_strategy() -> impl Strategy<Value = Step> {
    (
        any::<bool>(),
        any::<u8>(),
        any::<bool>(),
        any::<[u32; 4]>(),
        any::<u64>(),
        prop::bool::weighted(0.05),
    )
        .prop_map(|(en, step, load, data, add, reset)| Step {
            en,
            step,
            load,
            data,
            add,
            reset,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_ops_match_reference(ops in prop::collection::vec(step_strategy(), 1..200)) {
        let mut m = fresh();
        let mut r = Ref::default();
        for op in &ops {
            if op.reset {
                m.reset(1);
                r.count = 0;
                continue;
            }
            m.set_en_i(u8::from(op.en));
            m.set_step_i(op.step);
            m.set_load_i(u8::from(op.load));
            m.set_data_i(&op.data);
            m.set_add_i(op.add);
            m.tick();
            r.tick(op.en, op.step, op.load, op.data);
            prop_assert_eq!(m.count_o(), r.count);
            if op.load {
                prop_assert_eq!(m.data_o(), r.data);
            }
            prop_assert_eq!(m.sum_o(), (op.add + u64::from(r.count)) & MASK41);
            prop_assert_eq!(m.mix_o(), xor4(op.data, m.data_o()));
        }
    }
}
