//! NIC benchmarks (issues 15, 16) on the mixed-mode rig (`onerma_rtl_tests::nic_rig`): a
//! Verilated `onerma_nic` on the golden model's fabric with a model server, every output checked
//! by the observer while it is measured. The plain names run the small top (8 slots, 128-bit
//! datapath, one iterative GCM engine); the `_default` names (feature `nic-bench`, which builds
//! the `nic_default` top) run the default one (64 slots, 512 bits, 4 pipelined engines).

use crate::bench::Measurement;
use crate::error::CliError;
use onerma_layouts::{MsgType, OpType, Status};
use onerma_model::{HostConfig, NicConfig};
use onerma_rtl_tests::nic_rig::{
    ClientOp, Dut, NicPorts, RTL_REGION, Rig, TopConfig, fabric, memory, rtl_config_for,
    server_config_for,
};
use std::time::Instant;

fn rig_err(e: impl std::fmt::Display) -> CliError {
    CliError::CheckFailed(format!("nic bench: {e}"))
}

/// The GCM engines of a top, for the reports.
fn engines(t: &TopConfig) -> String {
    format!(
        "{} {} GCM engine{}",
        t.engines,
        if t.pipelined {
            "pipelined"
        } else {
            "iterative"
        },
        if t.engines == 1 { "" } else { "s" }
    )
}

/// A rig on top `D` on a fabric without latency or faults, as wide as the datapath, and a host
/// memory that answers at once.
fn fast_rig<D: NicPorts>(seed: u64) -> Result<Rig<D>, CliError> {
    fast_rig_served::<D>(seed, server_config_for(&D::TOP))
}

/// The model server with host memory that answers at once: a server that is never the
/// initiator's limit (its default host reads take 100 cycles, a PCIe round trip).
fn responsive_server<D: NicPorts>() -> NicConfig {
    let mut s = server_config_for(&D::TOP);
    s.host = HostConfig {
        read_latency: 0,
        write_latency: 0,
        ..s.host
    };
    s
}

/// [`fast_rig`] with the model server's configuration `scfg`.
fn fast_rig_served<D: NicPorts>(seed: u64, scfg: NicConfig) -> Result<Rig<D>, CliError> {
    let mut f = fabric(seed, false, false);
    f.latency = 0;
    f.bytes_per_cycle = D::TOP.bus as u32;
    let mut rig = Rig::<D>::on_top_served(
        seed,
        f,
        memory(seed, 1, 1.0),
        1.0,
        rtl_config_for(&D::TOP),
        scfg,
    );
    rig.setup().map_err(rig_err)?;
    rig.reuse_after = 4;
    rig.p_submit = 1.0;
    Ok(rig)
}

/// One closed loop's figures.
struct Loop {
    records: u64,
    bytes: u64,
    cycles: u64,
    secs: f64,
    /// Records with DISPATCH_TIMEOUT (status 4) over the whole run.
    dispatch_timeouts: u64,
    /// Records with NACK (status 2) over the whole run.
    nacks: u64,
    /// Most frames waiting at once for the RTL NIC's receive port.
    rx_backlog: u64,
}

/// Closed-loop READs of `len` bytes on every slot for `cycles`, after a warm-up.
fn closed_loop<D: NicPorts>(len: u16, cycles: u64, scfg: NicConfig) -> Result<Loop, CliError> {
    let mut rig = fast_rig_served::<D>(7, scfg)?;
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
    // the dispatch timeout, and more requests than the model server's NACK depth: a
    // DISPATCH_TIMEOUT or a NACK is a legal outcome of the load (it writes no payload, and the
    // observer checked that it was due); anything else (a TIMEOUT among them) is a failure.
    let st = &rig.stats;
    if st.refused != 0 || st.ok + st.statuses[2] + st.statuses[4] != st.records {
        return Err(rig_err(format!("an op failed: {st:?}")));
    }
    Ok(Loop {
        records,
        bytes,
        cycles: window,
        secs,
        dispatch_timeouts: st.statuses[4],
        nacks: st.statuses[2],
        rx_backlog: st.rx_backlog_max,
    })
}

/// The crypto limit of ops (or served requests) per cycle for 64-byte ones: `min(1, E / 14)`
/// for `E` pipelined engines (docs/performance.md), about 1/100 for one iterative engine.
fn crypto_limit(t: &TopConfig) -> f64 {
    if t.pipelined {
        (f64::from(t.engines) / 14.0).min(1.0)
    } else {
        1.0
    }
}

/// The wire's limit of 64-byte READs per cycle: each puts one RD_RESP on a network stream (the
/// initiator's receive port, the responder's transmit port), a packet of header, 64 payload
/// bytes and tag at one `DataWidth` beat per cycle (one message per packet, AXI4-Stream):
/// 1 / 3 at 512 bits, 1 / 9 at 128.
fn wire_limit(t: &TopConfig) -> f64 {
    let frame = onerma_layouts::HDR_BYTES + 64 + onerma_model::crypto::TAG_LEN;
    1.0 / frame.div_ceil(t.bus.max(1)) as f64
}

/// What bounds 64-byte READs per cycle whatever the design behind the ports: the smaller of
/// [`crypto_limit`] and [`wire_limit`].
fn read_64b_limit(t: &TopConfig) -> f64 {
    crypto_limit(t).min(wire_limit(t))
}

/// `initiator_ops_per_cycle_64b`: 64-byte READs, responsive server, no fabric latency.
pub fn ops_per_cycle_64b_on<D: NicPorts>() -> Result<Measurement, CliError> {
    let t = D::TOP;
    let l = closed_loop::<D>(64, 40_000, responsive_server::<D>())?;
    Ok(Measurement {
        value: l.records as f64 / l.cycles as f64,
        unit: "ops/cycle",
        config: format!(
            "{}: {} slots, {}, 64 B READs closed loop to a model server with instant host memory, \
             {} ops in a window of {} cycles, {} \
             DISPATCH_TIMEOUT and {} NACK in the run, at most {} frames waiting for the receive \
             port",
            t.name,
            t.slots,
            engines(&t),
            l.records,
            l.cycles,
            l.dispatch_timeouts,
            l.nacks,
            l.rx_backlog
        ),
        limit: Some(read_64b_limit(&t)),
    })
}

/// `initiator_goodput_frac_4k`: 4 KB READs, payload bytes written to host memory per cycle as a
/// fraction of the datapath width.
pub fn goodput_frac_4k_on<D: NicPorts>() -> Result<Measurement, CliError> {
    let t = D::TOP;
    let l = closed_loop::<D>(4096, 60_000, server_config_for(&D::TOP))?;
    Ok(Measurement {
        value: l.bytes as f64 / l.cycles as f64 / t.bus as f64,
        unit: "of width",
        config: format!(
            "{}: {}-byte datapath, {} slots, {}, 4 KB READs closed loop, {} ops, {} payload bytes \
             in {} cycles, {} DISPATCH_TIMEOUT and {} NACK in the run",
            t.name,
            t.bus,
            t.slots,
            engines(&t),
            l.records,
            l.bytes,
            l.cycles,
            l.dispatch_timeouts,
            l.nacks
        ),
        limit: Some(1.0),
    })
}

/// `cmd_to_wire_cycles`: last beat of a command to the first beat of its request, idle NIC.
pub fn cmd_to_wire_cycles_on<D: NicPorts>() -> Result<Measurement, CliError> {
    let t = D::TOP;
    let mut rig = fast_rig::<D>(3)?;
    rig.submit_read(0, 0, 0, 64, 0);
    rig.run_reads(0, &[64]).map_err(rig_err)?;
    let (Some(&db), Some(&tx)) = (rig.doorbells.first(), rig.tx_starts.first()) else {
        return Err(rig_err("no command or no request seen"));
    };
    Ok(Measurement {
        value: (tx - db) as f64,
        unit: "cycles",
        config: format!("{}, {}, one 64 B READ on an idle NIC", t.name, engines(&t)),
        limit: None,
    })
}

/// `nic_sim_cycles_per_s`: simulated cycles per wall second of the top in the rig (Verilated
/// model, bus models, fabric, model server and observer).
pub fn sim_cycles_per_s_on<D: NicPorts>() -> Result<Measurement, CliError> {
    let t = D::TOP;
    let l = closed_loop::<D>(1024, 60_000, server_config_for(&D::TOP))?;
    Ok(Measurement {
        value: l.cycles as f64 / l.secs,
        unit: "cycles/s",
        config: format!(
            "{} in the mixed-mode rig, 1 KB READs closed loop ({} ops, {} NACK by the model \
             server), observer on",
            t.name, l.records, l.nacks
        ),
        limit: None,
    })
}

/// Closed-loop served READs of `len` bytes from the model client (as many client slots as the
/// RTL NIC has) for `cycles`, after a warm-up; returns (READs completed OK, RD_RESP payload
/// bytes sent, cycles, most frames waiting at once for the RTL NIC's receive port).
fn served_loop<D: NicPorts>(len: u16, cycles: u64) -> Result<(u64, u64, u64, u64), CliError> {
    let mut scfg = server_config_for(&D::TOP);
    scfg.num_slots = client_slots(&D::TOP);
    let mut rig = fast_rig_served::<D>(9, scfg)?;
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
    if let Some((op, s)) = rig.client_done.iter().find(|(_, s)| *s != Status::Ok) {
        return Err(rig_err(format!("a served READ failed: {op:?} {s:?}")));
    }
    let backlog = rig.stats.rx_backlog_max;
    rig.run_reads(0, &[1]).map_err(rig_err)?;
    Ok((ok, bytes, window, backlog))
}

/// The model client's slots in the served loops: twice the top's (at most the rig's 128), so
/// that the closed loop's concurrency (slots over the round trip: the RTL NIC's checks, service
/// and seal, the client's open and completion, about 315 cycles for a 64 B READ on the default
/// top) is not the limit of the served rate; a real responder serves many initiators. A top with
/// one iterative engine keeps the top's slots: it serves a 4 KB READ in about 4,500 cycles, so
/// 16 queued ones wait past the client's op timeout, and 8 already keep its engine busy.
fn client_slots(t: &TopConfig) -> u16 {
    if t.pipelined {
        (t.slots.max(8) * 2).min(128)
    } else {
        t.slots
    }
}

/// `responder_goodput_frac_4k`: served 4 KB READs, RD_RESP payload bytes on the network per
/// cycle as a fraction of the datapath width.
pub fn responder_goodput_frac_4k_on<D: NicPorts>() -> Result<Measurement, CliError> {
    let t = D::TOP;
    let (ok, bytes, cycles, _) = served_loop::<D>(4096, 60_000)?;
    Ok(Measurement {
        value: bytes as f64 / cycles as f64 / t.bus as f64,
        unit: "of width",
        config: format!(
            "{} serving a model client: {}-byte datapath, {}, 4 KB READs closed loop on {} \
             client slots, {ok} READs, {bytes} payload bytes in {cycles} cycles",
            t.name,
            t.bus,
            engines(&t),
            client_slots(&t)
        ),
        limit: Some(1.0),
    })
}

/// `responder_reqs_per_cycle_64b`: served 64-byte READs completed per cycle.
pub fn responder_reqs_per_cycle_64b_on<D: NicPorts>() -> Result<Measurement, CliError> {
    let t = D::TOP;
    let (ok, _, cycles, backlog) = served_loop::<D>(64, 40_000)?;
    Ok(Measurement {
        value: ok as f64 / cycles as f64,
        unit: "reqs/cycle",
        config: format!(
            "{} serving a model client: {}, 64 B READs closed loop on {} client slots, {ok} \
             READs in a window of {cycles} cycles, at most {backlog} frames waiting for the \
             receive port",
            t.name,
            engines(&t),
            client_slots(&t)
        ),
        limit: Some(read_64b_limit(&t)),
    })
}

/// `rekey_cycles`: served REKEYs one at a time, clean fabric without latency. The key is in force
/// from the install, which the WR_CMPL follows; the figure is the bound the wire shows: the
/// REKEY's last message (its WR_DATA, last beat in) to its WR_CMPL's last beat out. The whole op
/// (the client's submission to its completion, 4 hops) is in the config text.
pub fn rekey_cycles_on<D: NicPorts>() -> Result<Measurement, CliError> {
    let t = D::TOP;
    let mut rig = fast_rig::<D>(11)?;
    rig.serve_setup().map_err(rig_err)?;
    rig.log_frames = true;
    let n = 8u16;
    for i in 0..n {
        let op = ClientOp {
            op: OpType::Rekey,
            slot: i % t.slots,
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
            "{} serving a model client: {}, {n} REKEYs one at a time; WR_DATA in to WR_CMPL \
             out (the install is between) {install:.0} cycles = {:.2} us at 250 MHz; whole op \
             at the client (submit to completion, 4 hops, no fabric latency) {op:.0} cycles = \
             {:.2} us",
            t.name,
            engines(&t),
            install * 0.004,
            op * 0.004
        ),
        limit: None,
    })
}

/// The small top's model, the type argument of every `*_on` benchmark for it.
pub type Small = Dut;
/// The default top's model (feature `nic-bench`).
#[cfg(feature = "nic-bench")]
pub type Default = onerma_rtl::nic_default::Model;

/// The many-RTL-NIC system (`onerma_rtl_tests::nic_sys`) of `n` small tops, the demo's mix on a
/// clean fabric for `cycles`, then drained; every output of every NIC checked by its observer
/// while it is measured. Returns (cycles, wall seconds, ops completed OK).
fn system_loop(n: usize, cycles: u64) -> Result<(u64, f64, u64, usize), CliError> {
    system_loop_with(
        n,
        cycles,
        onerma_rtl_tests::nic_sys::Mix {
            p_submit: 0.0006,
            ..onerma_rtl_tests::nic_sys::Mix::default()
        },
    )
}

fn system_loop_with(
    n: usize,
    cycles: u64,
    mix: onerma_rtl_tests::nic_sys::Mix,
) -> Result<(u64, f64, u64, usize), CliError> {
    use onerma_rtl_tests::nic_sys::MultiRig;
    let mut r = MultiRig::<Dut>::new(n, 5, fabric(5, false, false), memory(5, 4, 1.0), 1.0)
        .map_err(rig_err)?;
    r.mix = mix;
    let threads = onerma_rtl_tests::par::default_threads(n);
    r.set_threads(threads);
    let t = Instant::now();
    r.setup().map_err(rig_err)?;
    r.load(cycles).map_err(rig_err)?;
    r.drain(400_000).map_err(rig_err)?;
    let secs = t.elapsed().as_secs_f64();
    let ok = r.done.iter().filter(|(_, s)| *s == Status::Ok).count() as u64;
    if ok == 0 {
        return Err(rig_err("no op of the system run completed OK"));
    }
    Ok((r.cycle(), secs, ok, threads))
}

fn sim_cycles_per_s_per_nic(n: usize) -> Result<Measurement, CliError> {
    let (cycles, secs, ok, threads) = system_loop(n, 40_000)?;
    Ok(Measurement {
        value: cycles as f64 / secs,
        unit: "cycles/s",
        config: format!(
            "{n} x onerma_nic small on one model fabric (nic_sys), READ / WRITE / REKEY between \
             them, {cycles} cycles, {ok} ops OK, every NIC's observer on, nodes stepped on \
             {threads} threads; per NIC (each NIC simulates every cycle)"
        ),
        limit: None,
    })
}

/// `sim_cycles_per_s_per_nic_2nic`: simulated cycles per wall second, per NIC, of 2 RTL NICs.
pub fn sim_cycles_per_s_per_nic_2nic() -> Result<Measurement, CliError> {
    sim_cycles_per_s_per_nic(2)
}

/// `sim_cycles_per_s_per_nic_8nic`: the same with 8 RTL NICs.
pub fn sim_cycles_per_s_per_nic_8nic() -> Result<Measurement, CliError> {
    sim_cycles_per_s_per_nic(8)
}

/// `soak_ops_per_s`: ops completed OK (each checked by both NICs' observers and end to end) per
/// wall second of the 2-NIC system.
pub fn soak_ops_per_s() -> Result<Measurement, CliError> {
    // Closed loop without think time: a slot gets its next op as soon as it is free.
    let mix = onerma_rtl_tests::nic_sys::Mix {
        p_submit: 1.0,
        p_write: 0.4,
        p_rekey: 0.0,
        sizes: vec![1, 16, 64],
    };
    let (cycles, secs, ok, threads) = system_loop_with(2, 40_000, mix)?;
    Ok(Measurement {
        value: ok as f64 / secs,
        unit: "ops/s",
        config: format!(
            "2 x onerma_nic small (nic_sys), closed loop without think time (8 slots a NIC), \
             READ / WRITE of 1, 16 or 64 B, clean fabric, {ok} ops OK in {cycles} cycles, every \
             output checked, nodes stepped on {threads} threads"
        ),
        limit: None,
    })
}

/// The default top with 1, 2 and 8 engines (feature `nic-curve`).
#[cfg(feature = "nic-curve")]
pub type DefaultE1 = onerma_rtl::nic_default_e1::Model;
#[cfg(feature = "nic-curve")]
pub type DefaultE2 = onerma_rtl::nic_default_e2::Model;
#[cfg(feature = "nic-curve")]
pub type DefaultE8 = onerma_rtl::nic_default_e8::Model;

/// `nic_eval_cycles_per_s`: the bare Verilated small top (idle inputs, no bus models, fabric or
/// observer) ticked on its own: the Verilator share of the rig's and the system's per-NIC cost.
pub fn nic_eval_cycles_per_s() -> Result<Measurement, CliError> {
    use onerma_rtl_tests::nic_rig::NicPorts;
    let mut m = <Dut as NicPorts>::fresh();
    let n = 400_000u64;
    let t = Instant::now();
    for _ in 0..n {
        m.tick();
    }
    let secs = t.elapsed().as_secs_f64();
    Ok(Measurement {
        value: n as f64 / secs,
        unit: "cycles/s",
        config: format!(
            "onerma_nic small alone, idle inputs, {n} ticks (eval on both clock edges), no bus \
             models, fabric or observer"
        ),
        limit: None,
    })
}
