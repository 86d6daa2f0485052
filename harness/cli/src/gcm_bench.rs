//! AES-GCM engine benchmarks (registered in [`crate::bench::BENCHES`]).
//!
//! Throughput is measured in steady state on back-to-back messages with no stalls: payload bits
//! between the first and the last result handshake divided by the cycles between them, so the
//! pipeline fill of the first message is not counted (it is what `gcm_latency_cycles` measures).
//! Every message carries a 48-byte AAD, the 1RMA header.

use crate::bench::Measurement;
use crate::error::CliError;
use onerma_rtl_tests::gcm::{self, GcmMsg, GcmRun, Stalls};
use std::time::Instant;

const AAD_LEN: usize = 48;

fn msgs(n: usize, payload: usize) -> Vec<GcmMsg> {
    (0..n)
        .map(|i| GcmMsg {
            key: [i as u8 ^ 0x5a; 16],
            iv: [i as u8; 12],
            aad: vec![0xa5; AAD_LEN],
            data: (0..payload).map(|b| (b * 7 + i) as u8).collect(),
            decrypt: false,
            tag: [0; 16],
            meta: i as u8,
        })
        .collect()
}

fn run_pipe(n: usize, payload: usize) -> Result<(GcmRun, f64), CliError> {
    run_on(&mut onerma_rtl::gcm_pipe::Model::new(), n, payload)
}

fn run_on<M: gcm::GcmPorts>(
    m: &mut M,
    n: usize,
    payload: usize,
) -> Result<(GcmRun, f64), CliError> {
    m.reset(2);
    let batch = msgs(n, payload);
    let t = Instant::now();
    let run = gcm::run(m, &batch, Stalls::NONE, 1, 10_000)
        .map_err(|e| CliError::CheckFailed(format!("gcm bench run failed: {e}")))?;
    let secs = t.elapsed().as_secs_f64();
    if run.outcomes.len() != n || run.outcomes.iter().any(|o| o.data.len() != payload) {
        return Err(CliError::CheckFailed("gcm bench: missing output".into()));
    }
    Ok((run, secs))
}

/// Payload bits per cycle between the first and the last result.
fn steady_bits_per_cycle(run: &GcmRun, payload: usize) -> Result<(f64, f64), CliError> {
    let first = run.outcomes.first().map(|o| o.result_cycle);
    let last = run.outcomes.last().map(|o| o.result_cycle);
    match (first, last) {
        (Some(f), Some(l)) if l > f => {
            let msgs = (run.outcomes.len() - 1) as f64;
            let cycles_per_msg = (l - f) as f64 / msgs;
            Ok(((payload * 8) as f64 / cycles_per_msg, cycles_per_msg))
        }
        _ => Err(CliError::CheckFailed(
            "gcm bench: results out of order".into(),
        )),
    }
}

/// Steady-state throughput of `n` back-to-back messages of `payload` bytes on `m`.
fn throughput<M: gcm::GcmPorts>(
    m: &mut M,
    label: &str,
    n: usize,
    payload: usize,
) -> Result<Measurement, CliError> {
    let (run, _) = run_on(m, n, payload)?;
    let (bpc, cpm) = steady_bits_per_cycle(&run, payload)?;
    Ok(Measurement {
        value: bpc,
        unit: "bits/cycle",
        config: format!(
            "{label}, {n} x ({payload} B payload + {AAD_LEN} B AAD) back to back, steady state, \
             {cpm:.1} cycles/message for {} payload beats",
            payload.div_ceil(16)
        ),
        limit: Some(128.0),
    })
}

pub fn bits_per_cycle_4k() -> Result<Measurement, CliError> {
    let label = "gcm_pipe (1 engine, NumStages 4)";
    throughput(&mut onerma_rtl::gcm_pipe::Model::new(), label, 16, 4096)
}

pub fn bits_per_cycle_64b() -> Result<Measurement, CliError> {
    let label = "gcm_pipe (NumStages 4)";
    throughput(&mut onerma_rtl::gcm_pipe::Model::new(), label, 64, 64)
}

/// Aggregate payload bits per cycle of a pool on `n` messages of `payload` bytes offered back to
/// back: results come in completion order, so the window is from the earliest to the latest
/// result handshake, over the messages after the first to finish.
fn pool_throughput<M: gcm::GcmPorts>(
    m: &mut M,
    label: &str,
    engines: usize,
    n: usize,
    payload: usize,
) -> Result<Measurement, CliError> {
    let (run, _) = run_on(m, n, payload)?;
    let cycles = run.outcomes.iter().map(|o| o.result_cycle);
    let (first, last) = (cycles.clone().min(), cycles.max());
    let (Some(f), Some(l)) = (first, last) else {
        return Err(CliError::CheckFailed("gcm bench: no result".into()));
    };
    if l <= f {
        return Err(CliError::CheckFailed("gcm bench: one result cycle".into()));
    }
    let bpc = ((n - 1) * payload * 8) as f64 / (l - f) as f64;
    Ok(Measurement {
        value: bpc,
        unit: "bits/cycle",
        config: format!(
            "{label}, {n} x ({payload} B payload + {AAD_LEN} B AAD) offered back to back, payload \
             bits of the {} messages after the first result over the cycles to the last; limit \
             {engines} engines x 128",
            n - 1
        ),
        limit: Some((engines * 128) as f64),
    })
}

/// The pool with one 128-bit beat per din / dout handshake (`Lanes` = 1), 2 pipelined engines.
#[cfg(feature = "crypto-bench")]
pub fn pool_bits_per_cycle_1k() -> Result<Measurement, CliError> {
    let label = "gcm_pool (2 pipelined engines, Lanes 1)";
    pool_throughput(&mut onerma_rtl::gcm_pool::Model::new(), label, 2, 24, 1024)
}

/// The pool with 4-beat words (`Lanes` = 4, onerma_gcm_lane), 2 pipelined engines.
pub fn pool_wide_bits_per_cycle_1k() -> Result<Measurement, CliError> {
    let label = "gcm_pool_wide (2 pipelined engines, Lanes 4, WordDepth 34)";
    pool_throughput(
        &mut onerma_rtl::gcm_pool_wide::Model::new(),
        label,
        2,
        24,
        1024,
    )
}

pub fn latency_cycles() -> Result<Measurement, CliError> {
    let (run, _) = run_pipe(1, 64)?;
    let o = run
        .outcomes
        .first()
        .ok_or_else(|| CliError::CheckFailed("gcm bench: no result".into()))?;
    Ok(Measurement {
        value: (o.result_cycle - o.desc_cycle) as f64,
        unit: "cycles",
        config: "gcm_pipe idle, one 64 B payload + 48 B AAD message, descriptor handshake to \
                 result handshake, data offered at once"
            .into(),
        limit: None,
    })
}

/// Wall time a simulation-speed benchmark runs for at least: long enough that the rate does not
/// hang on one timer tick or one scheduler hiccup.
const SIM_MIN_SECS: f64 = 1.0;

/// CPU time of the calling thread in seconds. On the shared 2-core machine the wall-clock rate
/// falls with the load; cycles per CPU second shows what the model does on a core of its own.
fn thread_cpu_secs() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID needs nothing else.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc == 0 {
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    } else {
        f64::NAN
    }
}

/// The 1-minute load average, for the record (NaN where /proc/loadavg is missing).
fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or(f64::NAN)
}

/// Simulation speed of `m` running batches of `n` back-to-back messages of `payload` bytes
/// through the driver until [`SIM_MIN_SECS`] have passed: (cycles per wall second, cycles per
/// CPU second of this thread, cycles). Assertions are off: this times the design and the bridge,
/// not the checks the tests run.
fn sim_rate<M: gcm::GcmPorts>(
    m: &mut M,
    n: usize,
    payload: usize,
) -> Result<(f64, f64, u64), CliError> {
    let (mut cycles, mut secs) = (0u64, 0.0f64);
    let cpu0 = thread_cpu_secs();
    while secs < SIM_MIN_SECS {
        let (run, s) = run_on(m, n, payload)?;
        cycles += run.cycles;
        secs += s;
    }
    // The CPU time also covers the per-batch reset and message set-up; the wall time does not.
    let cpu = thread_cpu_secs() - cpu0;
    Ok((cycles as f64 / secs, cycles as f64 / cpu, cycles))
}

fn sim_measurement(engine: &str, batch: &str, rate: (f64, f64, u64)) -> Measurement {
    let (wall, cpu, cycles) = rate;
    Measurement {
        value: wall,
        unit: "cycles/s",
        config: format!(
            "{engine} from Rust through the driver (port writes every cycle), {batch} per batch, \
             {cycles} cycles, no trace, assertions off; {cpu:.0} cycles per CPU second of the \
             thread, load average {:.1}",
            load_average()
        ),
        limit: None,
    }
}

pub fn sim_cycles_per_s() -> Result<Measurement, CliError> {
    let mut m = onerma_rtl::gcm_pipe::Model::new();
    m.set_assertions(false);
    let rate = sim_rate(&mut m, 16, 4096)?;
    Ok(sim_measurement(
        "gcm_pipe (pipelined engine)",
        "16 x 4096 B messages",
        rate,
    ))
}

pub fn iter_sim_cycles_per_s() -> Result<Measurement, CliError> {
    let mut m = onerma_rtl::gcm_iter::Model::new();
    m.set_assertions(false);
    let rate = sim_rate(&mut m, 4, 4096)?;
    Ok(sim_measurement(
        "gcm_iter (iterative engine)",
        "4 x 4096 B messages",
        rate,
    ))
}
