//! `onerma demo`: random traffic through the Verilated blocks, each checked against a small
//! reference, then a 4-NIC 1RMA run of the golden model with its statistics.

use crate::error::CliError;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;

#[derive(clap::Args)]
pub struct Args {
    /// Clock cycles per block.
    #[arg(long, default_value_t = 20_000)]
    cycles: u64,
    /// Random seed (same seed, same run).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

struct Row {
    block: &'static str,
    cycles: u64,
    transfers: u64,
    errors: u64,
}

pub fn run(a: &Args) -> Result<(), CliError> {
    if a.cycles == 0 || a.cycles > 100_000_000 {
        return Err(CliError::Usage(format!(
            "--cycles must be in 1..=100000000, got {}",
            a.cycles
        )));
    }
    let mut rng = StdRng::seed_from_u64(a.seed);
    let rows = [
        probe(a.cycles, &mut rng),
        fifo(a.cycles, &mut rng),
        rr_arb(a.cycles, &mut rng),
    ];
    println!(
        "onerma demo (seed {}, {} cycles per block)\n",
        a.seed, a.cycles
    );
    println!(
        "{:<14} {:>10} {:>10} {:>8}",
        "block", "cycles", "transfers", "errors"
    );
    for r in &rows {
        println!(
            "{:<14} {:>10} {:>10} {:>8}",
            r.block, r.cycles, r.transfers, r.errors
        );
    }
    let errors: u64 = rows.iter().map(|r| r.errors).sum();
    if errors > 0 {
        return Err(CliError::CheckFailed(format!(
            "demo: {errors} mismatch(es) against the reference"
        )));
    }
    println!("\nall blocks matched their reference");
    fabric_run(a.seed)
}

/// A 4-NIC 1RMA run of the golden model (READ, WRITE and REKEY over a lossy, jittery fabric).
/// The NIC pipeline RTL is built by later issues; until then this part runs on the model only.
fn fabric_run(seed: u64) -> Result<(), CliError> {
    use onerma_model::workload::{ClientSpec, RateSpec, Scenario};
    let mut sc = Scenario {
        seed,
        nics: 4,
        duration: 200_000,
        clients: vec![ClientSpec {
            slots: 8,
            read: 6,
            write: 3,
            rekey: 0,
            sizes: vec![64, 1024, 4096],
            rate: RateSpec::ClosedLoop { think: 50 },
            ..ClientSpec::default()
        }],
        ..Scenario::default()
    };
    sc.fabric.seed = seed ^ 0x5EED;
    sc.fabric.drop = 0.002;
    sc.fabric.jitter_mean = 50.0;
    let mut r = onerma_model::workload::Runner::new(&sc)
        .map_err(|e| CliError::CheckFailed(format!("golden model: {e}")))?;
    let st = r.run().clone();
    println!(
        "\ngolden model: {} NICs, {} simulated cycles, {} messages, drop 0.2%, jitter mean 50 cycles",
        sc.nics, st.sim_cycles, st.messages_sent
    );
    println!(
        "ops submitted {}, completed {}, bytes read {}, bytes written {}",
        st.ops_submitted, st.ops_completed, st.bytes_read_ok, st.bytes_written_ok
    );
    for (status, n) in &st.by_status {
        println!("  {status:<32} {n:>8}");
    }
    println!(
        "total_delay mean {:.0} cycles, max {} cycles",
        st.mean_total_delay, st.max_total_delay
    );
    if let Some((t, nic, e)) = r.system.errors.first() {
        return Err(CliError::CheckFailed(format!(
            "golden model: NIC {nic} at cycle {t}: {e}"
        )));
    }
    if st.ops_completed != st.ops_submitted || st.ops_completed == 0 {
        return Err(CliError::CheckFailed(format!(
            "golden model: {} of {} ops completed",
            st.ops_completed, st.ops_submitted
        )));
    }
    Ok(())
}

/// Counter + 128-bit register of the bridge probe under random enables and loads.
fn probe(cycles: u64, rng: &mut StdRng) -> Row {
    let mut m = onerma_rtl::bridge_probe::Model::new();
    m.reset(1);
    let (mut count, mut data, mut loads, mut errors) = (0u32, [0u32; 4], 0, 0);
    for _ in 0..cycles {
        let en = rng.random_bool(0.7);
        let step: u8 = rng.random_range(0..32);
        let load = rng.random_bool(0.3);
        let d: [u32; 4] = rng.random();
        m.set_en_i(u8::from(en));
        m.set_step_i(step);
        m.set_load_i(u8::from(load));
        m.set_data_i(&d);
        m.tick();
        if en {
            count = count.wrapping_add(u32::from(step));
        }
        if load {
            data = d;
            loads += 1;
        }
        if m.count_o() != count || (loads > 0 && m.data_o() != data) {
            errors += 1;
        }
    }
    Row {
        block: "bridge_probe",
        cycles,
        transfers: loads,
        errors,
    }
}

/// FIFO with random valid on the input and random ready on the output: data must come out in
/// order, exactly once.
fn fifo(cycles: u64, rng: &mut StdRng) -> Row {
    let mut m = onerma_rtl::fifo::Model::new();
    m.reset(1);
    let mut model: VecDeque<u16> = VecDeque::new();
    let mut pending: Option<u16> = None;
    let (mut transfers, mut errors) = (0, 0);
    for _ in 0..cycles {
        // A valid word stays offered until accepted (stream rule).
        if pending.is_none() && rng.random_bool(0.6) {
            pending = Some(rng.random());
        }
        m.set_in_valid_i(u8::from(pending.is_some()));
        m.set_in_data_i(pending.unwrap_or(0));
        m.set_out_ready_i(u8::from(rng.random_bool(0.6)));
        m.eval();
        if m.out_valid_o() == 1 && m.out_ready_i() == 1 {
            transfers += 1;
            if model.pop_front() != Some(m.out_data_o()) {
                errors += 1;
            }
        }
        if m.in_ready_o() == 1
            && let Some(w) = pending.take()
        {
            model.push_back(w);
        }
        m.tick();
    }
    Row {
        block: "fifo",
        cycles,
        transfers,
        errors,
    }
}

const ARB_N: usize = 4;

/// Round-robin arbiter, 4 inputs of 16 bits: every output word must be the head of the input
/// named by `out_idx_o`.
fn rr_arb(cycles: u64, rng: &mut StdRng) -> Row {
    let mut m = onerma_rtl::rr_arb::Model::new();
    m.reset(1);
    let mut offer: [Option<u16>; ARB_N] = [None; ARB_N];
    let (mut transfers, mut errors) = (0, 0);
    for _ in 0..cycles {
        for o in offer.iter_mut() {
            if o.is_none() && rng.random_bool(0.3) {
                *o = Some(rng.random());
            }
        }
        let mut valid = 0u8;
        let mut data = 0u64;
        for (i, o) in offer.iter().enumerate() {
            if let Some(w) = o {
                valid |= 1 << i;
                data |= u64::from(*w) << (16 * i);
            }
        }
        m.set_in_valid_i(valid);
        m.set_in_data_i(data);
        m.set_out_ready_i(u8::from(rng.random_bool(0.7)));
        m.eval();
        // Inputs consumed this edge; exactly the one shown on the output, or none.
        let accepted = m.in_ready_o() & valid;
        if m.out_valid_o() == 1 && m.out_ready_i() == 1 {
            transfers += 1;
            let idx = usize::from(m.out_idx_o());
            if accepted != 1 << idx || offer.get(idx).copied().flatten() != Some(m.out_data_o()) {
                errors += 1;
            }
        } else if accepted != 0 {
            errors += 1;
        }
        for (i, o) in offer.iter_mut().enumerate() {
            if accepted & (1 << i) != 0 {
                *o = None;
            }
        }
        m.tick();
    }
    Row {
        block: "rr_arb",
        cycles,
        transfers,
        errors,
    }
}
