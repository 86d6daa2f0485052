//! NIC benchmarks (issue 15) on the mixed-mode rig (`onerma_rtl_tests::nic_rig`): the Verilated
//! `onerma_nic` in its small configuration (8 slots, 128-bit datapath, one iterative GCM engine)
//! on the golden model's fabric with a model server, every output checked by the observer while
//! it is measured. The default configuration (512 bits, 4 pipelined engines) is a `bench`-group
//! top not driven by the rig yet.

use crate::bench::Measurement;
use crate::error::CliError;
use onerma_layouts::{MsgType, OpType, Status};
use onerma_rtl_tests::nic_rig::{BUS, ClientOp, RTL_REGION, Rig, SLOTS, fabric, memory};
use std::time::Instant;

fn rig_err(e: impl std::fmt::Display) -> CliError {
    CliError::CheckFailed(format!("nic bench: {e}"))
}

/// A rig on a fabric without latency or faults and a host memory that answers at once.
fn fast_rig(seed: u64) -> Result<Rig, CliError> {
    let mut f = fabric(seed, false, false);
    f.latency = 0;
    let mut rig = Rig::new(seed, f, memory(seed, 1, 1.0), 1.0);
    rig.setup().map_err(rig_err)?;
    rig.reuse_after = 4;
    rig.p_submit = 1.0;
    Ok(rig)
}

/// Closed-loop READs of `len` bytes for `cycles`; returns (records, payload bytes written,
/// cycles, wall seconds).
fn closed_loop(len: u16, cycles: u64) -> Result<(u64, u64, u64, f64), CliError> {
    let mut rig = fast_rig(7)?;
    // Warm up, then measure a window of steady load; then drain and let the observer finish.
    rig.load(2_000, &[len]).map_err(rig_err)?;
    let (r0, b0, c0) = (rig.stats.records, rig.stats.host_bytes, rig.cycle);
    let t = Instant::now();
    rig.load(cycles, &[len]).map_err(rig_err)?;
    let secs = t.elapsed().as_secs_f64();
    let records = rig.stats.records - r0;
    let bytes = rig.stats.host_bytes - b0 - 16 * records;
    let window = rig.cycle - c0;
    rig.drain().map_err(rig_err)?;
    // Closed loop on every slot can queue more work than the one iterative engine clears within
    // the dispatch timeout: a DISPATCH_TIMEOUT is a legal outcome of the load (it writes no
    // payload); anything else is a failure.
    let st = &rig.stats;
    if st.refused != 0 || st.ok + st.statuses[4] != st.records {
        return Err(rig_err(format!("an op failed: {st:?}")));
    }
    Ok((records, bytes, window, secs))
}

/// `initiator_ops_per_cycle_64b`: 64-byte READs, responsive server, no fabric latency.
pub fn ops_per_cycle_64b() -> Result<Measurement, CliError> {
    let (records, _, cycles, _) = closed_loop(64, 40_000)?;
    Ok(Measurement {
        value: records as f64 / cycles as f64,
        unit: "ops/cycle",
        config: format!(
            "onerma_nic small: {SLOTS} slots, 1 iterative GCM engine, 64 B READs closed loop, \
             {records} ops in a window of {cycles} cycles"
        ),
        limit: Some(1.0),
    })
}

/// `initiator_goodput_frac_4k`: 4 KB READs, payload bytes written to host memory per cycle as a
/// fraction of the datapath width.
pub fn goodput_frac_4k() -> Result<Measurement, CliError> {
    let (records, bytes, cycles, _) = closed_loop(4096, 60_000)?;
    Ok(Measurement {
        value: bytes as f64 / cycles as f64 / BUS as f64,
        unit: "of width",
        config: format!(
            "onerma_nic small: {BUS}-byte datapath, 1 iterative GCM engine, 4 KB READs closed \
             loop, {records} ops, {bytes} payload bytes in {cycles} cycles"
        ),
        limit: Some(1.0),
    })
}

/// `cmd_to_wire_cycles`: last beat of a command to the first beat of its request, idle NIC.
pub fn cmd_to_wire_cycles() -> Result<Measurement, CliError> {
    let mut rig = fast_rig(3)?;
    rig.submit_read(0, 0, 0, 64, 0);
    rig.run_reads(0, &[64]).map_err(rig_err)?;
    let (Some(&db), Some(&tx)) = (rig.doorbells.first(), rig.tx_starts.first()) else {
        return Err(rig_err("no command or no request seen"));
    };
    Ok(Measurement {
        value: (tx - db) as f64,
        unit: "cycles",
        config: "onerma_nic small, 1 iterative GCM engine, one 64 B READ on an idle NIC".into(),
        limit: None,
    })
}

/// `nic_sim_cycles_per_s`: simulated cycles per wall second of the small top in the rig
/// (Verilated model, bus models, fabric, model server and observer).
pub fn sim_cycles_per_s() -> Result<Measurement, CliError> {
    let (_, _, cycles, secs) = closed_loop(1024, 60_000)?;
    Ok(Measurement {
        value: cycles as f64 / secs,
        unit: "cycles/s",
        config: "onerma_nic small in the mixed-mode rig, 1 KB READs closed loop, observer on"
            .into(),
        limit: None,
    })
}

/// Closed-loop served READs of `len` bytes from the model client for `cycles`, after a warm-up;
/// returns (READs completed OK, RD_RESP payload bytes sent, cycles).
fn served_loop(len: u16, cycles: u64) -> Result<(u64, u64, u64), CliError> {
    let mut rig = fast_rig(9)?;
    rig.serve_setup().map_err(rig_err)?;
    rig.client_load(3_000, len, 1.0).map_err(rig_err)?;
    let (n0, b0, c0) = (rig.client_done.len(), rig.stats.tx_payload, rig.cycle);
    rig.client_load(cycles, len, 1.0).map_err(rig_err)?;
    let done = &rig.client_done[n0..];
    let ok = done.iter().filter(|(_, s)| *s == Status::Ok).count() as u64;
    if ok as usize != done.len() {
        return Err(rig_err(format!("a served READ failed: {done:?}")));
    }
    let (bytes, window) = (rig.stats.tx_payload - b0, rig.cycle - c0);
    rig.client_drain(200_000).map_err(rig_err)?;
    rig.run_reads(0, &[1]).map_err(rig_err)?;
    Ok((ok, bytes, window))
}

/// `responder_goodput_frac_4k`: served 4 KB READs, RD_RESP payload bytes on the network per
/// cycle as a fraction of the datapath width.
pub fn responder_goodput_frac_4k() -> Result<Measurement, CliError> {
    let (ok, bytes, cycles) = served_loop(4096, 60_000)?;
    Ok(Measurement {
        value: bytes as f64 / cycles as f64 / BUS as f64,
        unit: "of width",
        config: format!(
            "onerma_nic small serving a model client: {BUS}-byte datapath, 1 iterative GCM \
             engine, 4 KB READs closed loop on 8 client slots, {ok} READs, {bytes} payload \
             bytes in {cycles} cycles"
        ),
        limit: Some(1.0),
    })
}

/// `responder_reqs_per_cycle_64b`: served 64-byte READs completed per cycle.
pub fn responder_reqs_per_cycle_64b() -> Result<Measurement, CliError> {
    let (ok, _, cycles) = served_loop(64, 40_000)?;
    Ok(Measurement {
        value: ok as f64 / cycles as f64,
        unit: "reqs/cycle",
        config: format!(
            "onerma_nic small serving a model client: 1 iterative GCM engine, 64 B READs \
             closed loop on 8 client slots, {ok} READs in a window of {cycles} cycles"
        ),
        limit: Some(1.0),
    })
}

/// `rekey_cycles`: served REKEYs one at a time, clean fabric without latency. The key is in force
/// from the install, which the WR_CMPL follows; the figure is the bound the wire shows: the
/// REKEY's last message (its WR_DATA, last beat in) to its WR_CMPL's last beat out. The whole op
/// (the client's submission to its completion, 4 hops) is in the config text.
pub fn rekey_cycles() -> Result<Measurement, CliError> {
    let mut rig = fast_rig(11)?;
    rig.serve_setup().map_err(rig_err)?;
    rig.log_frames = true;
    let n = 8u16;
    for i in 0..n {
        let op = ClientOp {
            op: OpType::Rekey,
            slot: i % SLOTS,
            region: RTL_REGION,
            offset: 0,
            len: 16,
        };
        let key = rig.rtl_keys[0];
        rig.client_op(op, key).map_err(rig_err)?;
        rig.client_drain(20_000).map_err(rig_err)?;
    }
    rig.run_reads(0, &[1]).map_err(rig_err)?;
    if rig.rekey_spans.len() != usize::from(n) {
        return Err(rig_err(format!("a REKEY failed: {:?}", rig.client_done)));
    }
    // Per REKEY: its WR_DATA in, then the WR_CMPL out that answers it (same slot, next).
    let mut spans = Vec::new();
    for (k, (t, sent, h)) in rig.frame_log.iter().enumerate() {
        if !*sent && h.msg_type == MsgType::WrData {
            let out = rig.frame_log[k..]
                .iter()
                .find(|(_, s, g)| *s && g.msg_type == MsgType::WrCmpl && g.slot == h.slot);
            if let Some((t2, _, _)) = out {
                spans.push(t2 - t);
            }
        }
    }
    if spans.len() != usize::from(n) {
        return Err(rig_err(format!("{} WR_DATA / WR_CMPL pairs", spans.len())));
    }
    let install = spans.iter().sum::<u64>() as f64 / spans.len() as f64;
    let op = rig.rekey_spans.iter().map(|(a, b)| b - a).sum::<u64>() as f64 / f64::from(n);
    Ok(Measurement {
        value: install,
        unit: "cycles",
        config: format!(
            "onerma_nic small serving a model client: 1 iterative GCM engine, {n} REKEYs one at \
             a time; WR_DATA in to WR_CMPL out (the install is between) {install:.0} cycles = \
             {:.2} us at 250 MHz; whole op at the client (submit to completion, 4 hops, no \
             fabric latency) {op:.0} cycles = {:.2} us",
            install * 0.004,
            op * 0.004
        ),
        limit: None,
    })
}
