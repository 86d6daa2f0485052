//! `onerma demo`: random traffic through the Verilated blocks, each checked against a small
//! reference; the Verilated NIC (`onerma_nic`) on the model's fabric among model NICs, both of
//! its halves at work and every output checked by the model's observer; then a 4-NIC 1RMA run of
//! the golden model with its statistics.

use crate::error::CliError;
use onerma_layouts::{OpType, Status};
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
    /// RTL NICs in the system run (2..=8).
    #[arg(long, default_value_t = 4)]
    nics: usize,
    /// Clock cycles of the system run's workload (then every op drains).
    #[arg(long, default_value_t = 60_000)]
    system_cycles: u64,
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
    if !(2..=8).contains(&a.nics) || a.system_cycles == 0 || a.system_cycles > 10_000_000 {
        return Err(CliError::Usage(format!(
            "--nics must be in 2..=8 and --system-cycles in 1..=10000000, got {} and {}",
            a.nics, a.system_cycles
        )));
    }
    system_run(a.seed, a.nics, a.system_cycles)?;
    rtl_run(a.seed, a.cycles.clamp(100_000, 400_000))?;
    fabric_run(a.seed)
}

/// The RTL system: `n` Verilated `onerma_nic` tops (small configuration) on the model's fabric
/// with light faults, each initiating READs, WRITEs and REKEYs to the others and serving theirs;
/// every frame, host access and completion record of every NIC checked by its own model
/// observer, and every completed op end to end by the rig (`nic_sys`). The scenario is
/// `scenarios/demo-4nic.json`'s, with `n`, `seed` and `cycles` from the command line.
fn system_run(seed: u64, n: usize, cycles: u64) -> Result<(), CliError> {
    use crate::run::{Scenario, print_outcome, rtl_outcome, rtl_system};
    use std::io::Write;
    let fail =
        |e: onerma_rtl_tests::nic_rig::RigError| CliError::CheckFailed(format!("RTL system: {e}"));
    let sc = Scenario {
        nics: n,
        seed,
        cycles,
        ..serde_json::from_str(include_str!("../../../scenarios/demo-4nic.json"))
            .map_err(|e| CliError::CheckFailed(format!("scenarios/demo-4nic.json: {e}")))?
    };
    println!(
        "\nRTL system: {n} x onerma_nic (small: 8 slots, 128-bit datapath, 1 iterative GCM engine) \
         on the model fabric (drops, duplicates, reordering, jitter), {cycles} cycles of READ / \
         WRITE / REKEY, then drained"
    );
    let t = std::time::Instant::now();
    let mut r = rtl_system(&sc).map_err(fail)?;
    let step = (cycles / 40).max(1);
    let end = r.cycle() + cycles;
    let mut shown = 0;
    while r.cycle() < end {
        r.load(step.min(end - r.cycle())).map_err(fail)?;
        let k = (40 * (cycles - (end - r.cycle())) / cycles) as usize;
        if k > shown {
            shown = k;
            eprint!("\r[{:<40}] {:>3} %", "#".repeat(k), k * 100 / 40);
            let _ = std::io::stderr().flush();
        }
    }
    eprintln!();
    r.drain(sc.drain_bound).map_err(fail)?;
    let o = rtl_outcome(&r, t.elapsed().as_secs_f64());
    print_outcome(&o);
    println!(
        "({:.0} cycles/s per NIC, the NICs stepped on {} threads (ONERMA_THREADS); end to end \
         the rig checked every OK READ's bytes, every OK WRITE's bytes ({} raced, left to the \
         observers) and every OK REKEY's key)",
        o.cycles as f64 / o.wall_seconds.max(1e-9),
        r.threads(),
        r.stats.raced_writes
    );
    let ok = |op: OpType| r.done.iter().any(|(d, s)| d.op == op && *s == Status::Ok);
    if !ok(OpType::Read) || !ok(OpType::Write) {
        return Err(CliError::CheckFailed(
            "RTL system: no READ or no WRITE completed OK".into(),
        ));
    }
    Ok(())
}

/// The RTL NIC among model NICs: the Verilated `onerma_nic` (small configuration) is NIC 0 of a
/// model `System` on a fabric with drops, reordering, duplicates and jitter. It initiates READs,
/// WRITEs and REKEYs to the model server (NIC 1) and serves NIC 1's READs and WRITEs; the model's
/// observer checks every frame it sends, every host access and every completion record, and the
/// rig every landed byte: a divergence ends the run with an error.
fn rtl_run(seed: u64, cycles: u64) -> Result<(), CliError> {
    use onerma_rtl_tests::nic_rig::{BUS, SLOTS, both_halves_with};
    use std::collections::BTreeMap;
    let fail =
        |e: onerma_rtl_tests::nic_rig::RigError| CliError::CheckFailed(format!("RTL NIC: {e}"));
    let t = std::time::Instant::now();
    let rig = both_halves_with(seed, 0.4, 0.02, cycles).map_err(fail)?;
    let secs = t.elapsed().as_secs_f64();
    println!(
        "\nRTL NIC 0 (onerma_nic small: {SLOTS} slots, {}-bit datapath, 1 iterative GCM engine) \
         with model NIC 1 on a fabric with drops, reordering, duplicates and jitter: {} cycles \
         in {secs:.1} s ({:.0} cycles/s)",
        BUS * 8,
        rig.cycle,
        rig.cycle as f64 / secs.max(1e-9)
    );
    let st = &rig.stats;
    println!(
        "initiated by the RTL NIC: {} commands, {} records, {} payload bytes landed",
        st.submitted, st.records, st.host_bytes
    );
    for (i, n) in st.statuses.iter().enumerate() {
        if *n > 0 {
            let name = u8::try_from(i)
                .ok()
                .and_then(|b| Status::try_from(b).ok())
                .map_or_else(|| format!("status {i}"), |s| format!("{s:?}"));
            println!("  {name:<32} {n:>8}");
        }
    }
    let mut served: BTreeMap<String, u64> = BTreeMap::new();
    for (op, s) in &rig.client_done {
        *served.entry(format!("{:?} {s:?}", op.op)).or_default() += 1;
    }
    println!(
        "served by the RTL NIC (NIC 1's ops on it): {} ops",
        rig.client_done.len()
    );
    for (k, n) in &served {
        println!("  {k:<32} {n:>8}");
    }
    let os = rig.obs.stats();
    println!(
        "checked by the model's observer: {} frames, {} host writes ({} bytes), {} host reads, \
         {} completion records; divergences: 0",
        os.frames, os.host_writes, os.host_write_bytes, os.host_reads, os.records
    );
    let ok_rd = rig
        .client_done
        .iter()
        .any(|(o, s)| o.op == OpType::Read && *s == Status::Ok);
    if st.ok == 0 || !ok_rd {
        return Err(CliError::CheckFailed(
            "RTL NIC: no op completed OK in the demo run".into(),
        ));
    }
    Ok(())
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
