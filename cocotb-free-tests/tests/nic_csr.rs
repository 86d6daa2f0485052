//! `onerma_csr` (the register map of spec/onerma_regs.rdl behind the protocol §1 write guard)
//! on the Verilated top `csr` (harness/rtl/tops/csr.json, small parameters), driven by the test
//! library's AXI4-Lite master. Every address, field and reset value comes from `onerma-regs`
//! (generated from the same RDL), the parameters from the top's JSON, the defaults and rules
//! from docs/protocol.md; nothing expected is read from the DUT.

use onerma_layouts::RrtEntry;
use onerma_regs::{self as regs, Access, COUNTERS, REGS, Reg};
use onerma_rtl::csr::Model;
use onerma_rtl_tests::Throttle;
use onerma_rtl_tests::axi::Resp;
use onerma_rtl_tests::axil::{AxilMaster, LiteSlaveOut};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The top's parameters, from harness/rtl/tops/csr.json.
struct Params {
    num_slots: u32,
    num_regions: u32,
    in_queue_depth: u32,
}

fn params() -> Params {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../harness/rtl/tops/csr.json");
    let text = std::fs::read_to_string(path).expect("tops/csr.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("csr.json is JSON");
    let p = |k: &str| -> u32 {
        v["params"][k]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("csr.json: param {k}"))
    };
    Params {
        num_slots: p("NumSlots"),
        num_regions: p("NumRegions"),
        in_queue_depth: p("InQueueDepth"),
    }
}

fn resp(bits: u8) -> Resp {
    match bits {
        0 => Resp::Okay,
        2 => Resp::SlvErr,
        3 => Resp::DecErr,
        other => panic!("unexpected response encoding {other}"),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SlotCommit {
    index: u8,
    enable: bool,
    pid: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RrtCommit {
    index: u8,
    entry: [u32; 10],
}

/// The model, the master, and what the model's pulse outputs did.
struct Bench {
    m: Model,
    master: AxilMaster,
    /// Inputs held until changed.
    cnt_incr: u32,
    err_set: u8,
    slot_busy: u8,
    msg_count: u64,
    slot_commits: Vec<(u64, SlotCommit)>,
    rrt_commits: Vec<(u64, RrtCommit)>,
    epoch_written: Vec<u64>,
    /// nic_time_o seen each cycle (checked against the cycle count).
    last_time: Option<u64>,
}

impl Bench {
    fn new(seed: u64, p_ready: f64) -> Self {
        let mut m = Model::new();
        m.reset(2);
        Self {
            m,
            master: AxilMaster::new(Throttle::new(seed, p_ready).expect("p")),
            cnt_incr: 0,
            err_set: 0,
            slot_busy: 0,
            msg_count: 0,
            slot_commits: Vec::new(),
            rrt_commits: Vec::new(),
            epoch_written: Vec::new(),
            last_time: None,
        }
    }

    fn step(&mut self) {
        let o = self.master.outputs();
        let m = &mut self.m;
        m.set_s_axil_awvalid_i(u8::from(o.aw.is_some()));
        m.set_s_axil_awaddr_i(o.aw.unwrap_or(0) as u16);
        m.set_s_axil_wvalid_i(u8::from(o.w.is_some()));
        m.set_s_axil_wdata_i(o.w.map_or(0, |w| w.0));
        m.set_s_axil_wstrb_i(o.w.map_or(0, |w| w.1));
        m.set_s_axil_bready_i(u8::from(o.b_ready));
        m.set_s_axil_arvalid_i(u8::from(o.ar.is_some()));
        m.set_s_axil_araddr_i(o.ar.unwrap_or(0) as u16);
        m.set_s_axil_rready_i(u8::from(o.r_ready));
        m.set_cnt_incr_i(self.cnt_incr);
        m.set_err_set_i(self.err_set);
        m.set_slot_busy_i(self.slot_busy);
        m.set_msg_count_i(self.msg_count);
        m.eval();
        let s = LiteSlaveOut {
            aw_ready: m.s_axil_awready_o() != 0,
            w_ready: m.s_axil_wready_o() != 0,
            b: (m.s_axil_bvalid_o() != 0).then(|| resp(m.s_axil_bresp_o())),
            ar_ready: m.s_axil_arready_o() != 0,
            r: (m.s_axil_rvalid_o() != 0).then(|| (m.s_axil_rdata_o(), resp(m.s_axil_rresp_o()))),
        };
        let cycle = m.cycle();
        if m.slot_commit_o() != 0 {
            let c = SlotCommit {
                index: m.slot_commit_index_o(),
                enable: m.slot_commit_enable_o() != 0,
                pid: m.slot_commit_pid_o(),
            };
            self.slot_commits.push((cycle, c));
        }
        if m.rrt_commit_o() != 0 {
            let c = RrtCommit {
                index: m.rrt_commit_index_o(),
                entry: m.rrt_commit_entry_o(),
            };
            self.rrt_commits.push((cycle, c));
        }
        if m.epoch_written_o() != 0 {
            self.epoch_written.push(cycle);
        }
        // nic_time_o: +1 per cycle, free running.
        let t = m.nic_time_o();
        if let Some(prev) = self.last_time {
            assert_eq!(t, prev + 1, "nic_time_o at cycle {cycle}");
        }
        self.last_time = Some(t);
        self.master.tick(&s).expect("AXI4-Lite stream rule");
        self.m.tick();
    }

    fn idle(&mut self, cycles: u32) {
        for _ in 0..cycles {
            self.step();
        }
    }

    /// Runs the queued operations; returns the response and read data of the last one.
    fn finish(&mut self) -> (Resp, u32) {
        let before = self.master.done().len();
        let mut n = 0;
        while !self.master.is_idle() {
            self.step();
            n += 1;
            assert!(n < 1000, "AXI4-Lite operation did not finish");
        }
        let done = &self.master.done()[before..];
        let last = done.last().expect("an operation ran");
        (last.resp, last.data)
    }

    fn read(&mut self, addr: u64) -> (Resp, u32) {
        self.master.read(addr);
        self.finish()
    }

    fn read_ok(&mut self, addr: u64) -> u32 {
        let (r, d) = self.read(addr);
        assert_eq!(r, Resp::Okay, "read {addr:#x}");
        d
    }

    fn write_strb(&mut self, addr: u64, data: u32, strb: u8) -> Resp {
        self.master.write(addr, data, strb);
        self.finish().0
    }

    fn write(&mut self, addr: u64, data: u32) -> Resp {
        self.write_strb(addr, data, 0xf)
    }

    fn write_ok(&mut self, addr: u64, data: u32) {
        assert_eq!(
            self.write(addr, data),
            Resp::Okay,
            "write {addr:#x} <- {data:#x}"
        );
    }

    fn bad_config(&mut self) -> bool {
        let v = self.read_ok(regs::err_status::ADDR);
        regs::err_status::BAD_CONFIG.get(v) == 1
    }

    /// The value of a configuration register on the module's output port, if it has one.
    fn output_of(&self, r: &Reg) -> Option<u32> {
        let m = &self.m;
        Some(match r.name {
            "nic_enable" => u32::from(m.nic_enable_o()),
            "nic_addr" => m.nic_addr_o(),
            "epoch" => u32::from(m.epoch_o()),
            "clk_period_ps" => m.clk_period_ps_o(),
            "dispatch_timeout" => m.dispatch_timeout_o(),
            "op_timeout" => m.op_timeout_o(),
            "server_timeout" => m.server_timeout_o(),
            "inq_max_age" => m.inq_max_age_o(),
            "max_hold_ns" => m.max_hold_ns_o(),
            "hold_ns" => m.hold_ns_o(),
            "nack_depth" => u32::from(m.nack_depth_o()),
            _ => return None,
        })
    }
}

/// Registers holding a plain driver-written value: every field read/write, none changed by
/// hardware.
fn plain(r: &Reg) -> bool {
    r.fields
        .iter()
        .all(|f| f.access == Access::ReadWrite && !f.hw_writes && !f.counter)
}

fn writable_mask(r: &Reg) -> u32 {
    r.fields
        .iter()
        .filter(|f| f.access.writable())
        .fold(0, |m, f| m | f.mask())
}

#[test]
fn reset_values_match_the_rdl_and_the_protocol_defaults() {
    let mut b = Bench::new(1, 1.0);
    for r in REGS {
        let (resp, data) = b.read(r.addr);
        if !r.readable() {
            assert_eq!((resp, data), (Resp::SlvErr, 0), "{} is write-only", r.name);
            continue;
        }
        assert_eq!(resp, Resp::Okay, "{}", r.name);
        if let Some(reset) = r.reset() {
            assert_eq!(data, reset, "{} after reset", r.name);
        }
        if let (Some(reset), Some(out)) = (r.reset(), b.output_of(r)) {
            assert_eq!(out, reset, "{} output after reset", r.name);
        }
    }
    // Protocol §6.4 defaults and §9 nack_depth, as the protocol text states them.
    for (r, want) in [
        (&regs::dispatch_timeout::REG, 2500),
        (&regs::op_timeout::REG, 5000),
        (&regs::server_timeout::REG, 2000),
        (&regs::inq_max_age::REG, 3750),
        (&regs::max_hold_ns::REG, 14200),
        (&regs::hold_ns::REG, 14158),
        (&regs::nack_depth::REG, 16),
        (&regs::clk_period_ps::REG, 4000),
    ] {
        assert_eq!(r.reset(), Some(want), "{} default", r.name);
        assert_eq!(b.read_ok(r.addr), want, "{} reads its default", r.name);
    }
    // The live values: nothing is pending, msg_count_i is 0.
    assert_eq!(b.read_ok(regs::rrt_quiesce::ADDR), 0);
    assert_eq!(b.read_ok(regs::msg_count_lo::ADDR), 0);
    assert!(b.slot_commits.is_empty() && b.rrt_commits.is_empty());
    assert!(b.epoch_written.is_empty());
}

#[test]
fn every_configuration_register_reads_back_what_was_written() {
    let p = params();
    for (seed, p_ready) in [(1u64, 1.0), (2, 0.5), (3, 0.2)] {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut b = Bench::new(seed, p_ready);
        for r in REGS.iter().filter(|r| plain(r)) {
            for _ in 0..4 {
                let mut v = rng.random::<u32>() & writable_mask(r);
                if r.addr == regs::nack_depth::ADDR {
                    v = rng.random_range(0..=p.in_queue_depth);
                }
                if r.addr == regs::nic_enable::ADDR {
                    // Left at 0 so epoch and nic_addr stay writable; enable is covered below.
                    v = 0;
                }
                b.write_ok(r.addr, v);
                assert_eq!(b.read_ok(r.addr), v, "{} read back", r.name);
                if let Some(out) = b.output_of(r) {
                    assert_eq!(out, v, "{} output", r.name);
                }
            }
        }
        b.write_ok(regs::nic_enable::ADDR, regs::nic_enable::ENABLE.place(1));
        assert_eq!(b.m.nic_enable_o(), 1);
        assert_eq!(b.read_ok(regs::nic_enable::ADDR), 1);
        // Byte strobes: only the strobed bytes change.
        let a = regs::op_timeout::ADDR;
        b.write_ok(a, 0x1122_3344);
        assert_eq!(b.write_strb(a, 0xaabb_ccdd, 0b0101), Resp::Okay);
        assert_eq!(b.read_ok(a), 0x11bb_33dd);
        assert!(!b.bad_config(), "no write was refused");
        assert!(b.slot_commits.is_empty() && b.rrt_commits.is_empty());
    }
}

/// Writes `data` to `addr` expecting the guard's refusal: SLVERR, `check_reg` unchanged,
/// bad_config set; then clears bad_config by W1C.
fn expect_refused(b: &mut Bench, addr: u64, data: u32, strb: u8, check_reg: u64, what: &str) {
    let before = b.read_ok(check_reg);
    let commits = (b.slot_commits.len(), b.rrt_commits.len());
    assert!(!b.bad_config(), "{what}: bad_config clear before");
    assert_eq!(b.write_strb(addr, data, strb), Resp::SlvErr, "{what}");
    assert_eq!(
        b.read_ok(check_reg),
        before,
        "{what}: register kept its value"
    );
    assert!(b.bad_config(), "{what}: bad_config set");
    assert_eq!(
        (b.slot_commits.len(), b.rrt_commits.len()),
        commits,
        "{what}: no commit"
    );
    // W1C: writing 0 keeps it, writing 1 clears it.
    b.write_ok(regs::err_status::ADDR, 0);
    assert!(b.bad_config(), "{what}: W0 keeps bad_config");
    b.write_ok(
        regs::err_status::ADDR,
        regs::err_status::BAD_CONFIG.place(1),
    );
    assert!(!b.bad_config(), "{what}: W1C clears bad_config");
}

#[test]
fn protocol_refusals_answer_slverr_keep_the_value_and_set_bad_config() {
    let p = params();
    let mut b = Bench::new(7, 0.6);
    let enable = regs::nic_enable::ENABLE.place(1);

    // epoch and nic_addr: writable while disabled, refused while enabled.
    b.write_ok(regs::epoch::ADDR, 0x0102);
    b.write_ok(regs::nic_addr::ADDR, 0xdead_0001);
    b.write_ok(regs::nic_enable::ADDR, enable);
    expect_refused(
        &mut b,
        regs::epoch::ADDR,
        0x0a0b,
        0xf,
        regs::epoch::ADDR,
        "epoch",
    );
    // Any byte of it, at any byte address of the word.
    expect_refused(
        &mut b,
        regs::epoch::ADDR + 1,
        0x0a0b,
        0x2,
        regs::epoch::ADDR,
        "epoch byte 1",
    );
    expect_refused(
        &mut b,
        regs::nic_addr::ADDR,
        7,
        0xf,
        regs::nic_addr::ADDR,
        "nic_addr",
    );
    expect_refused(
        &mut b,
        regs::dispatch_timeout::ADDR,
        100,
        0xf,
        regs::dispatch_timeout::ADDR,
        "dispatch_timeout",
    );
    assert_eq!(b.m.epoch_o(), 0x0102);
    assert_eq!(b.m.nic_addr_o(), 0xdead_0001);
    b.write_ok(regs::nic_enable::ADDR, 0);
    let written = b.epoch_written.len();
    b.write_ok(regs::epoch::ADDR, 0x0a0b);
    assert_eq!(
        b.epoch_written.len(),
        written + 1,
        "epoch_written_o pulses once"
    );
    assert_eq!(b.m.epoch_o(), 0x0a0b);
    b.write_ok(regs::nic_addr::ADDR, 7);
    b.write_ok(regs::dispatch_timeout::ADDR, 100);
    assert_eq!(b.m.dispatch_timeout_o(), 100);
    assert!(!b.bad_config());

    // nack_depth <= InQueueDepth (protocol §1, §9), also through a partial write.
    let nd = regs::nack_depth::ADDR;
    b.write_ok(nd, p.in_queue_depth);
    expect_refused(
        &mut b,
        nd,
        p.in_queue_depth + 1,
        0xf,
        nd,
        "nack_depth = InQueueDepth + 1",
    );
    expect_refused(&mut b, nd, 0x0100, 0x2, nd, "nack_depth byte 1");
    b.write_ok(nd, 0);
    assert_eq!(b.m.nack_depth_o(), 0);

    // slot_commit: index out of range, or the slot busy.
    let commit = regs::slot_commit::COMMIT.place(1);
    b.write_ok(regs::slot_cfg::ADDR, regs::slot_cfg::ENABLE.place(1));
    b.write_ok(regs::slot_pid::ADDR, 42);
    b.write_ok(regs::slot_index::ADDR, p.num_slots);
    let si = regs::slot_index::ADDR;
    expect_refused(
        &mut b,
        regs::slot_commit::ADDR,
        commit,
        0xf,
        si,
        "slot_index = NumSlots",
    );
    b.write_ok(regs::slot_index::ADDR, 0xffff);
    expect_refused(
        &mut b,
        regs::slot_commit::ADDR,
        commit,
        0xf,
        si,
        "slot_index = 0xffff",
    );
    // Writing 0 commits nothing and is not refused.
    b.write_ok(regs::slot_commit::ADDR, 0);
    assert!(!b.bad_config());
    let last = p.num_slots - 1;
    b.write_ok(regs::slot_index::ADDR, last);
    b.slot_busy = 1 << last;
    expect_refused(
        &mut b,
        regs::slot_commit::ADDR,
        commit,
        0xf,
        si,
        "busy slot",
    );
    b.slot_busy = !(1 << last) as u8; // every other slot busy: this one is free
    b.write_ok(regs::slot_commit::ADDR, commit);
    assert_eq!(
        b.slot_commits.iter().map(|c| c.1).collect::<Vec<_>>(),
        [SlotCommit {
            index: last as u8,
            enable: true,
            pid: 42
        }]
    );

    // rrt_commit: index out of range.
    let ri = regs::rrt_index::ADDR;
    let commit = regs::rrt_commit::COMMIT.place(1);
    b.write_ok(ri, p.num_regions);
    expect_refused(
        &mut b,
        regs::rrt_commit::ADDR,
        commit,
        0xf,
        ri,
        "rrt_index = NumRegions",
    );
    b.write_ok(ri, p.num_regions - 1);
    b.write_ok(regs::rrt_commit::ADDR, commit);
    assert_eq!(b.rrt_commits.len(), 1);
    assert_eq!(b.rrt_commits[0].1.index as u32, p.num_regions - 1);
    assert!(!b.bad_config());
}

#[test]
fn commits_carry_exactly_the_staged_values() {
    let p = params();
    let mut rng = StdRng::seed_from_u64(11);
    let mut b = Bench::new(11, 0.7);
    // What a slot table / RRT would hold: the payload of every commit pulse, per index.
    let mut slots = vec![None; p.num_slots as usize];
    let mut rrt = vec![None; p.num_regions as usize];
    for round in 0..12 {
        // Slot: stage, commit, then stage other values without a commit.
        let (index, enable, pid) = (
            rng.random_range(0..p.num_slots),
            rng.random::<bool>(),
            rng.random::<u32>(),
        );
        b.write_ok(regs::slot_index::ADDR, index);
        b.write_ok(
            regs::slot_cfg::ADDR,
            regs::slot_cfg::ENABLE.place(u32::from(enable)),
        );
        b.write_ok(regs::slot_pid::ADDR, pid);
        let n = b.slot_commits.len();
        b.write_ok(regs::slot_commit::ADDR, regs::slot_commit::COMMIT.place(1));
        assert_eq!(b.slot_commits.len(), n + 1, "round {round}: one slot pulse");
        let c = b.slot_commits[n].1;
        assert_eq!(
            c,
            SlotCommit {
                index: index as u8,
                enable,
                pid
            },
            "round {round}"
        );
        slots[index as usize] = Some(c);

        // RRT: a random entry, its words staged in a random order.
        let e = RrtEntry {
            valid: rng.random_range(0..2),
            perm_remote_read: rng.random_range(0..2),
            perm_remote_write: rng.random_range(0..2),
            perm_remote_rekey: rng.random_range(0..2),
            perm_local_read: rng.random_range(0..2),
            perm_local_write: rng.random_range(0..2),
            owner_pid: rng.random(),
            base_addr: rng.random(),
            size: rng.random(),
            key: rng.random(),
        };
        let index = rng.random_range(0..p.num_regions);
        let mut writes = onerma_rtl_tests::nic_node::rrt_writes(index, &e);
        for i in (1..writes.len()).rev() {
            writes.swap(i, rng.random_range(0..=i));
        }
        for (a, v) in writes {
            b.write_ok(a, v);
        }
        let n = b.rrt_commits.len();
        b.write_ok(regs::rrt_commit::ADDR, regs::rrt_commit::COMMIT.place(1));
        assert_eq!(b.rrt_commits.len(), n + 1, "round {round}: one RRT pulse");
        let c = b.rrt_commits[n].1;
        // The packed rrt_entry_t: port word i holds bits 32i+31..32i, i.e. serialised bytes
        // 36-4i..40-4i (byte 0 = most significant, spec/layouts.json).
        let bytes = e.to_bytes().expect("entry packs");
        let want: Vec<u32> = onerma_rtl_tests::bits::be_to_words::<10>(&bytes).to_vec();
        assert_eq!(c.index as u32, index, "round {round}");
        assert_eq!(c.entry.to_vec(), want, "round {round}: entry");
        rrt[index as usize] = Some(c);

        // Stage new values everywhere without committing: no pulse, nothing held changes.
        let (ns, nr) = (b.slot_commits.len(), b.rrt_commits.len());
        for a in [
            regs::slot_index::ADDR,
            regs::slot_pid::ADDR,
            regs::rrt_index::ADDR,
            regs::rrt_owner_pid::ADDR,
            regs::rrt_base_lo::ADDR,
            regs::rrt_key2::ADDR,
        ] {
            b.write_ok(a, rng.random::<u32>() & 0x7);
        }
        b.write_ok(regs::slot_commit::ADDR, 0);
        b.write_ok(regs::rrt_commit::ADDR, 0);
        b.idle(5);
        assert_eq!((b.slot_commits.len(), b.rrt_commits.len()), (ns, nr));
    }
    // Every commit pulse lasted one cycle.
    for w in b.slot_commits.windows(2) {
        assert!(w[1].0 > w[0].0 + 1);
    }
    assert!(slots.iter().any(Option::is_some) && rrt.iter().any(Option::is_some));
    assert!(!b.bad_config());
}

#[test]
fn counters_increment_and_saturate() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut b = Bench::new(5, 0.8);
    assert_eq!(COUNTERS.len(), 19, "protocol §12 lists 19 counters");
    let mut want = vec![0u32; COUNTERS.len()];
    // Each input bit alone: exactly its counter moves.
    for (i, w) in want.iter_mut().enumerate() {
        let k = rng.random_range(1..6);
        b.cnt_incr = 1 << i;
        b.idle(k);
        b.cnt_incr = 0;
        *w += k;
    }
    // All together.
    b.cnt_incr = (1 << COUNTERS.len()) - 1;
    b.idle(3);
    b.cnt_incr = 0;
    for (r, w) in COUNTERS.iter().zip(&want) {
        assert_eq!(b.read_ok(r.addr), w + 3, "{}", r.name);
    }
    // Clear every counter by writing 0 (the RDL makes them software-writable), then count.
    for r in COUNTERS {
        assert!(r.fields[0].counter && r.fields[0].access.writable());
        b.write_ok(r.addr, 0);
    }
    for (i, r) in COUNTERS.iter().enumerate() {
        b.cnt_incr = 1 << i;
        b.idle(i as u32 + 1);
        b.cnt_incr = 0;
        assert_eq!(b.read_ok(r.addr), i as u32 + 1, "{}", r.name);
    }
    for (i, r) in COUNTERS.iter().enumerate() {
        assert_eq!(b.read_ok(r.addr), i as u32 + 1, "{} unchanged", r.name);
    }
    // Saturation: 0xFFFF_FFFD + 5 events = 0xFFFF_FFFF (never wraps).
    for r in COUNTERS {
        b.write_ok(r.addr, 0xffff_fffd);
    }
    b.cnt_incr = (1 << COUNTERS.len()) - 1;
    b.idle(5);
    b.cnt_incr = 0;
    for r in COUNTERS {
        assert_eq!(b.read_ok(r.addr), u32::MAX, "{} saturates", r.name);
    }
    // An event in the cycle of a software write adds to the written value: hold the input
    // through a write of 100; the count afterwards is 100 + the cycles after the write.
    let r = &regs::drop_auth::REG;
    b.cnt_incr = 1 << COUNTERS.iter().position(|c| c == r).expect("drop_auth");
    b.write_ok(r.addr, 100);
    b.cnt_incr = 0;
    let v = b.read_ok(r.addr);
    assert!(
        (101..120).contains(&v),
        "drop_auth after write + events: {v}"
    );
}

#[test]
fn err_status_bits_are_sticky_and_write_one_to_clear() {
    let mut b = Bench::new(9, 1.0);
    let es = regs::err_status::ADDR;
    let bits = [
        regs::err_status::BAD_CONFIG,
        regs::err_status::BAD_CQ,
        regs::err_status::CQ_WRITE,
        regs::err_status::COUNTER_EXHAUSTED,
    ];
    // err_set_i bit i sets the field at bit i; one cycle is enough and it stays.
    for (i, f) in bits.iter().enumerate() {
        assert_eq!(f.lsb, i as u32, "err_set_i bit {i} is {}", f.name);
        b.err_set = 1 << i;
        b.idle(1);
        b.err_set = 0;
        b.idle(3);
        assert_eq!(
            b.read_ok(es),
            bits[..=i].iter().fold(0, |m, f| m | f.mask())
        );
    }
    // W1C of one bit leaves the others.
    b.write_ok(es, regs::err_status::BAD_CQ.place(1));
    let all = bits.iter().fold(0, |m, f| m | f.mask());
    assert_eq!(b.read_ok(es), all & !regs::err_status::BAD_CQ.mask());
    // A set during the clearing write wins (precedence = hw in the RDL).
    b.err_set = 1 << 2;
    b.write_ok(es, all);
    b.err_set = 0;
    assert_eq!(b.read_ok(es), regs::err_status::CQ_WRITE.mask());
    b.write_ok(es, all);
    assert_eq!(b.read_ok(es), 0);
}

#[test]
fn nic_time_counts_cycles_and_lo_latches_hi() {
    let mut b = Bench::new(3, 1.0);
    // nic_time_o is checked against +1 per cycle in every step; here its start: reset value 0,
    // so after reset(2) it equals the cycles since reset was released.
    let t0 = b.m.nic_time_o();
    b.idle(100);
    assert_eq!(b.m.nic_time_o(), t0 + 100);
    // A lo-then-hi read gives a value within the read's cycles.
    let before = b.m.nic_time_o();
    let lo = b.read_ok(regs::nic_time_lo::ADDR);
    let after = b.m.nic_time_o();
    let hi = b.read_ok(regs::nic_time_hi::ADDR);
    let t = (u64::from(hi) << 32) | u64::from(lo);
    assert!(before <= t && t <= after, "{before} <= {t} <= {after}");
    // The latch itself, with a carry between the two reads: nic_time cannot be set (and 2^32
    // cycles are too many to simulate), so the same latch on msg_count shows it.
    b.msg_count = 0x0000_0001_ffff_fff0;
    assert_eq!(b.read_ok(regs::msg_count_lo::ADDR), 0xffff_fff0);
    b.msg_count = 0x0000_0002_0000_0003;
    assert_eq!(
        b.read_ok(regs::msg_count_hi::ADDR),
        1,
        "hi as latched by the lo read"
    );
    assert_eq!(b.read_ok(regs::msg_count_lo::ADDR), 3);
    assert_eq!(b.read_ok(regs::msg_count_hi::ADDR), 2);
    // rrt_quiesce shows its input live.
    b.m.set_rrt_quiesce_i(1);
    assert_eq!(b.read_ok(regs::rrt_quiesce::ADDR), 1);
}

#[test]
fn unmapped_and_wrong_direction_accesses_answer_slverr_and_change_nothing() {
    let mut b = Bench::new(4, 1.0);
    let mapped = |a: u64| REGS.iter().any(|r| r.addr == a);
    // Every unmapped word of the 9-bit address space: reads and writes answer SLVERR, data 0.
    let holes: Vec<u64> = (0..512u64).step_by(4).filter(|&a| !mapped(a)).collect();
    assert!(holes.len() > 10);
    for &a in &holes {
        assert_eq!(b.read(a), (Resp::SlvErr, 0), "read {a:#x}");
        assert_eq!(b.write(a, 0xffff_ffff), Resp::SlvErr, "write {a:#x}");
    }
    // Writes to read-only registers and reads of write-only ones: SLVERR, nothing changes.
    for r in REGS {
        if !r.writable() {
            let before = b.read_ok(r.addr);
            assert_eq!(b.write(r.addr, !before), Resp::SlvErr, "write {}", r.name);
            if r.reset().is_some() && !r.fields.iter().any(|f| f.hw_writes) {
                assert_eq!(b.read_ok(r.addr), before, "{} unchanged", r.name);
            }
        }
        if !r.readable() {
            assert_eq!(b.read(r.addr), (Resp::SlvErr, 0), "read {}", r.name);
        }
    }
    // Bus errors are not configuration refusals, and nothing else moved.
    assert!(!b.bad_config());
    for r in REGS.iter().filter(|r| plain(r)) {
        assert_eq!(Some(b.read_ok(r.addr)), r.reset(), "{}", r.name);
    }
    assert!(b.slot_commits.is_empty() && b.rrt_commits.is_empty());
    // The ID register (no guess: from the RDL): magic "RM", protocol version 2.
    let id = b.read_ok(regs::id::ADDR);
    assert_eq!(regs::id::MAGIC.get(id), 0x524d);
    assert_eq!(regs::id::VERSION.get(id), 2);
}
