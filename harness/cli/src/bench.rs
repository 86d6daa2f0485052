//! Benchmark registry. Add a benchmark with one line in [`BENCHES`].

use crate::error::CliError;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// One JSON object per line: {"metric","value","unit","config","limit"}.
    #[arg(long)]
    json: bool,
    /// Run only the benchmarks with these names (default: all).
    names: Vec<String>,
}

/// One measured number. `limit` is a physical/theoretical bound, when one exists.
pub struct Measurement {
    pub value: f64,
    pub unit: &'static str,
    pub config: String,
    pub limit: Option<f64>,
}

pub type BenchFn = fn() -> Result<Measurement, CliError>;

/// Every benchmark: (metric name, function).
pub const BENCHES: &[(&str, BenchFn)] = &[
    ("sim_cycles_per_s_probe", sim_cycles_per_s_probe),
    ("gcm_bits_per_cycle_4k", crate::gcm_bench::bits_per_cycle_4k),
    (
        "gcm_bits_per_cycle_64b",
        crate::gcm_bench::bits_per_cycle_64b,
    ),
    ("gcm_latency_cycles", crate::gcm_bench::latency_cycles),
    #[cfg(feature = "crypto-bench")]
    (
        "gcm_pool_bits_per_cycle_1k",
        crate::gcm_bench::pool_bits_per_cycle_1k,
    ),
    (
        "gcm_pool_wide_bits_per_cycle_1k",
        crate::gcm_bench::pool_wide_bits_per_cycle_1k,
    ),
    ("gcm_sim_cycles_per_s", crate::gcm_bench::sim_cycles_per_s),
    (
        "gcm_iter_sim_cycles_per_s",
        crate::gcm_bench::iter_sim_cycles_per_s,
    ),
    (
        "initiator_ops_per_cycle_64b",
        crate::nic_bench::ops_per_cycle_64b_on::<crate::nic_bench::Small>,
    ),
    (
        "initiator_goodput_frac_4k",
        crate::nic_bench::goodput_frac_4k_on::<crate::nic_bench::Small>,
    ),
    (
        "cmd_to_wire_cycles",
        crate::nic_bench::cmd_to_wire_cycles_on::<crate::nic_bench::Small>,
    ),
    (
        "responder_goodput_frac_4k",
        crate::nic_bench::responder_goodput_frac_4k_on::<crate::nic_bench::Small>,
    ),
    (
        "responder_reqs_per_cycle_64b",
        crate::nic_bench::responder_reqs_per_cycle_64b_on::<crate::nic_bench::Small>,
    ),
    (
        "rekey_cycles",
        crate::nic_bench::rekey_cycles_on::<crate::nic_bench::Small>,
    ),
    (
        "nic_sim_cycles_per_s",
        crate::nic_bench::sim_cycles_per_s_on::<crate::nic_bench::Small>,
    ),
    (
        "sim_cycles_per_s_per_nic_2nic",
        crate::nic_bench::sim_cycles_per_s_per_nic_2nic,
    ),
    (
        "sim_cycles_per_s_per_nic_8nic",
        crate::nic_bench::sim_cycles_per_s_per_nic_8nic,
    ),
    ("soak_ops_per_s", crate::nic_bench::soak_ops_per_s),
    (
        "nic_eval_cycles_per_s",
        crate::nic_bench::nic_eval_cycles_per_s,
    ),
    // The default NIC top (feature `nic-bench`: builds `nic_default`, minutes of Verilator).
    #[cfg(feature = "nic-bench")]
    (
        "initiator_ops_per_cycle_64b_default",
        crate::nic_bench::ops_per_cycle_64b_on::<crate::nic_bench::Default>,
    ),
    #[cfg(feature = "nic-bench")]
    (
        "initiator_goodput_frac_4k_default",
        crate::nic_bench::goodput_frac_4k_on::<crate::nic_bench::Default>,
    ),
    #[cfg(feature = "nic-bench")]
    (
        "cmd_to_wire_cycles_default",
        crate::nic_bench::cmd_to_wire_cycles_on::<crate::nic_bench::Default>,
    ),
    #[cfg(feature = "nic-bench")]
    (
        "responder_goodput_frac_4k_default",
        crate::nic_bench::responder_goodput_frac_4k_on::<crate::nic_bench::Default>,
    ),
    #[cfg(feature = "nic-bench")]
    (
        "responder_reqs_per_cycle_64b_default",
        crate::nic_bench::responder_reqs_per_cycle_64b_on::<crate::nic_bench::Default>,
    ),
    // The engine curve (feature `nic-curve`: three more default-size tops); 4 engines is the
    // `_default` row above.
    #[cfg(feature = "nic-curve")]
    (
        "initiator_ops_per_cycle_64b_default_e1",
        crate::nic_bench::ops_per_cycle_64b_on::<crate::nic_bench::DefaultE1>,
    ),
    #[cfg(feature = "nic-curve")]
    (
        "initiator_ops_per_cycle_64b_default_e2",
        crate::nic_bench::ops_per_cycle_64b_on::<crate::nic_bench::DefaultE2>,
    ),
    #[cfg(feature = "nic-curve")]
    (
        "initiator_ops_per_cycle_64b_default_e8",
        crate::nic_bench::ops_per_cycle_64b_on::<crate::nic_bench::DefaultE8>,
    ),
    #[cfg(feature = "nic-curve")]
    (
        "responder_reqs_per_cycle_64b_default_e1",
        crate::nic_bench::responder_reqs_per_cycle_64b_on::<crate::nic_bench::DefaultE1>,
    ),
    #[cfg(feature = "nic-curve")]
    (
        "responder_reqs_per_cycle_64b_default_e2",
        crate::nic_bench::responder_reqs_per_cycle_64b_on::<crate::nic_bench::DefaultE2>,
    ),
    #[cfg(feature = "nic-curve")]
    (
        "responder_reqs_per_cycle_64b_default_e8",
        crate::nic_bench::responder_reqs_per_cycle_64b_on::<crate::nic_bench::DefaultE8>,
    ),
    #[cfg(feature = "nic-bench")]
    (
        "rekey_cycles_default",
        crate::nic_bench::rekey_cycles_on::<crate::nic_bench::Default>,
    ),
    #[cfg(feature = "nic-bench")]
    (
        "nic_sim_cycles_per_s_default",
        crate::nic_bench::sim_cycles_per_s_on::<crate::nic_bench::Default>,
    ),
    ("model_ops_per_s_2nic", model_ops_per_s_2nic),
    ("model_ops_per_s_40nic", model_ops_per_s_40nic),
];

const MODEL_BENCH_OPS: u64 = 1_000_000;

/// Golden-model throughput: simulated ops per wall second of `onerma_model::bench_scenario`.
/// The limit is the project's goal (issue 13: 2 M ops/s with 2 NICs, 1 M with 40), not a
/// physical bound.
fn model_ops_per_s(nics: usize) -> Result<Measurement, CliError> {
    let name = format!("model_ops_per_s_{nics}nic");
    let r = onerma_model::bench_run(nics, MODEL_BENCH_OPS)
        .map_err(|e| CliError::CheckFailed(format!("{name}: {e}")))?;
    // Fault-free fabric: every op completes, OK or NACKed by a busy server, or the speed is of
    // a broken model.
    if r.ops_completed != MODEL_BENCH_OPS || r.ops_ok + r.ops_nack != r.ops_completed {
        return Err(CliError::CheckFailed(format!(
            "{name}: {} of {MODEL_BENCH_OPS} ops completed, {} OK, {} NACK",
            r.ops_completed, r.ops_ok, r.ops_nack
        )));
    }
    Ok(Measurement {
        value: r.ops_per_s(),
        unit: "ops/s",
        config: format!(
            "onerma-model, {nics} NICs, each a closed-loop client with 32 slots issuing 64-byte \
             READs to random other NICs, 4 served regions each, fault-free 100 Gbps fabric \
             (625-cycle latency), {MODEL_BENCH_OPS} ops, wall time excluding setup"
        ),
        limit: Some(if nics <= 2 { 2e6 } else { 1e6 }),
    })
}

fn model_ops_per_s_2nic() -> Result<Measurement, CliError> {
    model_ops_per_s(2)
}

fn model_ops_per_s_40nic() -> Result<Measurement, CliError> {
    model_ops_per_s(40)
}

const PROBE_CYCLES: u64 = 2_000_000;

/// Simulated cycles per second of wall time for the bridge probe, driven from Rust with one
/// input write per cycle (the pattern of a real test bench), tracing off.
fn sim_cycles_per_s_probe() -> Result<Measurement, CliError> {
    let mut m = onerma_rtl::bridge_probe::Model::new();
    m.reset(1);
    m.set_en_i(1);
    let t = Instant::now();
    for i in 0..PROBE_CYCLES {
        m.set_step_i((i & 1) as u8 + 1);
        m.tick();
    }
    let secs = t.elapsed().as_secs_f64();
    // Steps alternate 1,2: guards against a loop the optimiser or a broken model skipped.
    let expect = (PROBE_CYCLES / 2 * 3) as u32;
    if m.count_o() != expect {
        return Err(CliError::CheckFailed(format!(
            "sim_cycles_per_s_probe: counter {} after the run, expected {expect}",
            m.count_o()
        )));
    }
    Ok(Measurement {
        value: PROBE_CYCLES as f64 / secs,
        unit: "cycles/s",
        config: format!("onerma_bridge_probe, {PROBE_CYCLES} ticks, 1 input write/tick, no trace"),
        limit: None,
    })
}

pub fn run(a: &Args) -> Result<(), CliError> {
    if let Some(bad) = a
        .names
        .iter()
        .find(|n| !BENCHES.iter().any(|(name, _)| name == n))
    {
        let known: Vec<&str> = BENCHES.iter().map(|(n, _)| *n).collect();
        return Err(CliError::Usage(format!(
            "unknown benchmark `{bad}` (known: {})",
            known.join(", ")
        )));
    }
    if onerma_rtl::MODEL_OPT_LEVEL < 2 {
        // The figures of docs/performance.md are measured on -O2 models.
        eprintln!(
            "note: models built at -O{} (a test build); simulation speeds are measured with \
             `--features nic-bench` (-O2 models)",
            onerma_rtl::MODEL_OPT_LEVEL
        );
    }
    for (name, f) in BENCHES {
        if !a.names.is_empty() && !a.names.iter().any(|n| n == name) {
            continue;
        }
        let m = f()?;
        if a.json {
            let v = serde_json::json!({
                "metric": name,
                "value": m.value,
                "unit": m.unit,
                "config": m.config,
                "limit": m.limit,
            });
            println!("{v}");
        } else {
            let limit = m.limit.map_or("n/a".to_string(), |l| format!("{l:.3e}"));
            println!(
                "{name:<28} {:>14.3e} {:<10} limit {limit:<10} ({})",
                m.value, m.unit, m.config
            );
        }
    }
    Ok(())
}
