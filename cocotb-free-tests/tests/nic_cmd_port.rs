//! `onerma_cmd_port` (protocol.md §2.1, §13 H10) on the Verilated tops `cmd_port` (8 slots,
//! 128-bit data, 16-bit addresses: pages 8..15 are out of range) and `cmd_port_default`
//! (64 slots, 512-bit data, 19-bit addresses), driven by the test library's AXI4 write master.
//!
//! The reference below is written from protocol §2.1 and the port's documented interface
//! (docs/nic.md, "Command port"): per slot `enabled`, `pid`, 64 staged bytes and a written-byte
//! mask; a beat to an out-of-range page, a disabled slot, a busy slot (input or its submission
//! still offered) or beyond byte 63 is ignored and makes its burst's B SLVERR; the beat that
//! completes the mask submits the 64 bytes with the slot's pid and clears the mask; a commit
//! clears the mask. Timing contract used to line the reference up with the DUT: a W beat is
//! decided in the first cycle after its handshake in which the submission register is free or
//! taken (and, for a burst's last beat, the B register too); submissions and B responses are
//! offered from the cycle after the decision; a commit applies after a same-cycle decision.
//! Nothing expected is read from the DUT.

use onerma_layouts::Cmd;
use onerma_rtl_tests::Throttle;
use onerma_rtl_tests::axi::{Addr, BResp, MasterOut, Resp, SlaveOut, WBeat};
use onerma_rtl_tests::axi_wmaster::{AxiWriteMaster, WriteBurst};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const CMD_BYTES: usize = 64;
const PAGE: u64 = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Commit {
    slot: usize,
    enable: bool,
    pid: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sub {
    slot: usize,
    cmd: [u8; CMD_BYTES],
    pid: u32,
}

trait Dut {
    const SLOTS: usize;
    const BUS: usize;
    const ADDR_BITS: u32;
    fn fresh() -> Self;
    /// `nic_enable` low: the NIC is stopped and every beat is refused as to a disabled slot.
    fn drive(
        &mut self,
        m: &MasterOut,
        cfg: Option<Commit>,
        busy: u64,
        sub_ready: bool,
        nic_enable: bool,
    );
    fn drive_read(&mut self, ar: Option<(u32, u8)>, r_ready: bool);
    fn eval(&mut self);
    fn tick(&mut self);
    fn slave(&self) -> SlaveOut;
    fn sub(&self) -> Option<Sub>;
    /// (err_disabled_o, err_busy_o)
    fn errs(&self) -> (bool, bool);
    /// arready, and the R beat offered: (id, data all zero, resp, last).
    fn read(&self) -> (bool, Option<(u32, bool, Resp, bool)>);
}

fn resp(bits: u8) -> Resp {
    match bits {
        0 => Resp::Okay,
        2 => Resp::SlvErr,
        3 => Resp::DecErr,
        other => panic!("unexpected response encoding {other}"),
    }
}

/// Bus bytes (lane order) to the model's 32-bit words, word 0 = bits 31:0.
fn words<const N: usize>(data: &[u8]) -> [u32; N] {
    let mut w = [0u32; N];
    for (i, b) in data.iter().enumerate() {
        w[i / 4] |= u32::from(*b) << (8 * (i % 4));
    }
    w
}

/// `sub_cmd_o` (a 512-bit packed `cmd_t`) to command bytes: byte 0 is bits 511:504.
fn cmd_bytes(w: &[u32; 16]) -> [u8; CMD_BYTES] {
    let mut b = [0u8; CMD_BYTES];
    onerma_rtl_tests::bits::words_to_be(w, &mut b);
    b
}

macro_rules! dut {
    ($m:ident, $slots:expr, $bus:expr, $addr:expr, $words:expr) => {
        impl Dut for onerma_rtl::$m::Model {
            const SLOTS: usize = $slots;
            const BUS: usize = $bus;
            const ADDR_BITS: u32 = $addr;
            fn fresh() -> Self {
                let mut m = Self::new();
                m.reset(2);
                m
            }
            fn drive(
                &mut self,
                m: &MasterOut,
                cfg: Option<Commit>,
                busy: u64,
                sub_ready: bool,
                nic_enable: bool,
            ) {
                self.set_nic_enable_i(u8::from(nic_enable));
                let aw = m.aw.clone();
                self.set_s_axi_awvalid_i(u8::from(aw.is_some()));
                self.set_s_axi_awid_i(aw.as_ref().map_or(0, |a| a.id) as _);
                self.set_s_axi_awaddr_i(aw.as_ref().map_or(0, |a| a.addr) as _);
                self.set_s_axi_awlen_i(aw.as_ref().map_or(0, |a| a.len));
                self.set_s_axi_awsize_i(aw.as_ref().map_or(0, |a| a.size));
                let w = m.w.clone();
                self.set_s_axi_wvalid_i(u8::from(w.is_some()));
                let data = w.as_ref().map_or(vec![0; $bus], |w| w.data.clone());
                self.set_s_axi_wdata_i(&words::<$words>(&data));
                self.set_s_axi_wstrb_i(w.as_ref().map_or(0, |w| w.strb) as _);
                self.set_s_axi_wlast_i(u8::from(w.as_ref().is_some_and(|w| w.last)));
                self.set_s_axi_bready_i(u8::from(m.b_ready));
                self.set_cfg_valid_i(u8::from(cfg.is_some()));
                self.set_cfg_slot_i(cfg.map_or(0, |c| c.slot) as u8);
                self.set_cfg_enable_i(u8::from(cfg.is_some_and(|c| c.enable)));
                self.set_cfg_pid_i(cfg.map_or(0, |c| c.pid));
                self.set_busy_i(busy as _);
                self.set_sub_ready_i(u8::from(sub_ready));
            }
            fn drive_read(&mut self, ar: Option<(u32, u8)>, r_ready: bool) {
                self.set_s_axi_arvalid_i(u8::from(ar.is_some()));
                self.set_s_axi_arid_i(ar.map_or(0, |a| a.0) as _);
                self.set_s_axi_arlen_i(ar.map_or(0, |a| a.1));
                self.set_s_axi_rready_i(u8::from(r_ready));
            }
            fn eval(&mut self) {
                onerma_rtl::$m::Model::eval(self);
            }
            fn tick(&mut self) {
                onerma_rtl::$m::Model::tick(self);
            }
            fn slave(&self) -> SlaveOut {
                SlaveOut {
                    ar_ready: false,
                    aw_ready: self.s_axi_awready_o() != 0,
                    w_ready: self.s_axi_wready_o() != 0,
                    r: None,
                    b: (self.s_axi_bvalid_o() != 0).then(|| BResp {
                        id: u32::from(self.s_axi_bid_o()),
                        resp: resp(self.s_axi_bresp_o()),
                    }),
                }
            }
            fn sub(&self) -> Option<Sub> {
                (self.sub_valid_o() != 0).then(|| Sub {
                    slot: usize::from(self.sub_slot_o()),
                    cmd: cmd_bytes(&self.sub_cmd_o()),
                    pid: self.sub_pid_o(),
                })
            }
            fn errs(&self) -> (bool, bool) {
                (self.err_disabled_o() != 0, self.err_busy_o() != 0)
            }
            fn read(&self) -> (bool, Option<(u32, bool, Resp, bool)>) {
                let r = (self.s_axi_rvalid_o() != 0).then(|| {
                    let data = self.s_axi_rdata_o();
                    (
                        u32::from(self.s_axi_rid_o()),
                        data.iter().all(|w| *w == 0),
                        resp(self.s_axi_rresp_o()),
                        self.s_axi_rlast_o() != 0,
                    )
                });
                (self.s_axi_arready_o() != 0, r)
            }
        }
    };
}

dut!(cmd_port, 8, 16, 16, 4);
dut!(cmd_port_default, 64, 64, 19, 16);

// ---- The reference of protocol §2.1 -----------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    OutOfRange,
    Disabled,
    Busy,
    Beyond,
    Written,
}

#[derive(Debug, Clone)]
struct SlotRef {
    enabled: bool,
    pid: u32,
    bytes: [u8; CMD_BYTES],
    mask: u64,
}

struct Reference {
    slots: Vec<SlotRef>,
    bus: usize,
}

impl Reference {
    fn new(slots: usize, bus: usize) -> Self {
        let s = SlotRef {
            enabled: false,
            pid: 0,
            bytes: [0; CMD_BYTES],
            mask: 0,
        };
        Self {
            slots: vec![s; slots],
            bus,
        }
    }

    /// The driver's commit: enabling (or disabling) clears the staging buffer's mask.
    fn commit(&mut self, c: Commit) {
        let s = &mut self.slots[c.slot];
        s.enabled = c.enable;
        s.pid = c.pid;
        s.mask = 0;
    }

    /// One W beat (beat `n` of the burst `aw`); `busy` = the busy inputs, `offered` = the slot of
    /// the submission still offered to the slot table. Returns the outcome and a submission.
    fn beat(
        &mut self,
        aw: &Addr,
        n: usize,
        w: &WBeat,
        busy: u64,
        offered: Option<usize>,
        stopped: bool,
    ) -> (Outcome, Option<Sub>) {
        let bytes = aw.beat_bytes(n);
        let page = bytes.start / PAGE;
        if page >= self.slots.len() as u64 {
            return (Outcome::OutOfRange, None);
        }
        let slot = page as usize;
        let s = &mut self.slots[slot];
        // A stopped NIC treats every slot as disabled (protocol §1.1).
        if !s.enabled || stopped {
            return (Outcome::Disabled, None);
        }
        if busy >> slot & 1 == 1 || offered == Some(slot) {
            return (Outcome::Busy, None);
        }
        if bytes.start % PAGE >= CMD_BYTES as u64 {
            return (Outcome::Beyond, None);
        }
        for a in bytes {
            let lane = (a % self.bus as u64) as usize;
            if w.strb >> lane & 1 == 1 {
                let off = (a % PAGE) as usize;
                s.bytes[off] = w.data[lane];
                s.mask |= 1 << off;
            }
        }
        if s.mask == u64::MAX {
            s.mask = 0;
            let sub = Sub {
                slot,
                cmd: s.bytes,
                pid: s.pid,
            };
            return (Outcome::Written, Some(sub));
        }
        (Outcome::Written, None)
    }
}

// ---- The bench ----------------------------------------------------------------------------------

#[derive(Debug, Default, Clone)]
struct Stats {
    beats: [usize; 5],
    subs: usize,
    bursts: usize,
}

/// A W beat handshaken and not yet decided.
struct Pending {
    aw: Addr,
    n: usize,
    w: WBeat,
}

struct Bench<D: Dut> {
    dut: D,
    master: AxiWriteMaster,
    reference: Reference,
    sub_thr: Throttle,
    pending: Option<Pending>,
    /// Burst error so far (a refused beat), per the burst being decided.
    burst_err: bool,
    exp_sub: Option<Sub>,
    exp_b: Option<BResp>,
    subs: Vec<(Sub, u64)>,
    stats: Stats,
    cycle: u64,
    first_w: Option<u64>,
    /// `nic_enable` driven in the next cycles.
    nic_enable: bool,
}

impl<D: Dut> Bench<D> {
    fn new(master: AxiWriteMaster, sub_thr: Throttle) -> Self {
        Self {
            dut: D::fresh(),
            master,
            reference: Reference::new(D::SLOTS, D::BUS),
            sub_thr,
            pending: None,
            burst_err: false,
            exp_sub: None,
            exp_b: None,
            subs: Vec::new(),
            stats: Stats::default(),
            cycle: 0,
            first_w: None,
            nic_enable: true,
        }
    }

    fn idle(&self) -> bool {
        self.master.is_idle() && self.pending.is_none() && self.exp_sub.is_none()
    }

    /// One cycle, every output checked against the reference.
    fn step(&mut self, commit: Option<Commit>, busy: u64) -> Result<(), TestCaseError> {
        let cycle = self.cycle;
        let mo = self.master.outputs();
        let sub_ready = self.sub_thr.go();
        self.dut
            .drive(&mo, commit, busy, sub_ready, self.nic_enable);
        self.dut.drive_read(None, false);
        self.dut.eval();
        let so = self.dut.slave();
        prop_assert_eq!(self.dut.sub(), self.exp_sub, "cycle {}: submission", cycle);
        prop_assert_eq!(so.b.clone(), self.exp_b.clone(), "cycle {}: B", cycle);

        // The decision of the pending beat.
        let mut errs = (false, false);
        let mut new_sub = None;
        let mut new_b = None;
        if let Some(p) = self.pending.take() {
            let last = p.n + 1 == p.aw.beats();
            let decide = (self.exp_sub.is_none() || sub_ready)
                && (!last || self.exp_b.is_none() || mo.b_ready);
            if decide {
                let offered = self.exp_sub.map(|s| s.slot);
                let (out, sub) =
                    self.reference
                        .beat(&p.aw, p.n, &p.w, busy, offered, !self.nic_enable);
                self.stats.beats[out as usize] += 1;
                errs = (out == Outcome::Disabled, out == Outcome::Busy);
                let err = self.burst_err || out != Outcome::Written;
                if last {
                    new_b = Some(BResp {
                        id: p.aw.id,
                        resp: if err { Resp::SlvErr } else { Resp::Okay },
                    });
                    self.burst_err = false;
                    self.stats.bursts += 1;
                } else {
                    self.burst_err = err;
                }
                new_sub = sub;
            } else {
                self.pending = Some(p);
            }
        }
        prop_assert_eq!(self.dut.errs(), errs, "cycle {}: refusal pulses", cycle);
        if let Some(c) = commit {
            self.reference.commit(c);
        }
        if let (Some(s), true) = (self.exp_sub, sub_ready) {
            self.subs.push((s, cycle));
            self.stats.subs += 1;
        }
        if new_sub.is_some() {
            self.exp_sub = new_sub;
        } else if sub_ready {
            self.exp_sub = None;
        }
        if new_b.is_some() {
            self.exp_b = new_b;
        } else if mo.b_ready {
            self.exp_b = None;
        }

        let ev = self
            .master
            .tick(&so)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Some((aw, n, w)) = ev.w {
            prop_assert!(
                self.pending.is_none(),
                "cycle {}: W taken while a beat waits",
                cycle
            );
            self.first_w.get_or_insert(cycle);
            self.pending = Some(Pending { aw, n, w });
        }
        self.dut.tick();
        self.cycle += 1;
        Ok(())
    }

    /// Enables every slot (one commit per cycle), pid = 0x1000 + slot.
    fn enable_all(&mut self) -> Result<(), TestCaseError> {
        for slot in 0..D::SLOTS {
            let c = Commit {
                slot,
                enable: true,
                pid: 0x1000 + slot as u32,
            };
            self.step(Some(c), 0)?;
        }
        Ok(())
    }

    /// Runs until idle (at most `limit` cycles) with no commit and fixed busy inputs.
    fn drain(&mut self, busy: u64, limit: u64) -> Result<(), TestCaseError> {
        let end = self.cycle + limit;
        while !self.idle() {
            prop_assert!(self.cycle < end, "not idle after {} cycles", limit);
            self.step(None, busy)?;
        }
        Ok(())
    }
}

fn log2(bus: usize) -> u8 {
    bus.trailing_zeros() as u8
}

/// A whole command in one burst (one beat at 512 bits).
fn whole(slot: usize, cmd: &[u8; CMD_BYTES], bus: usize) -> WriteBurst {
    WriteBurst::range(slot as u64 * PAGE, cmd, log2(bus), bus).expect("whole command burst")
}

// ---- Random streams ---------------------------------------------------------------------------

/// A random stream of bursts: whole commands, commands in shuffled pieces of random sizes with
/// overlapping rewrites, and stray writes (out-of-range pages, beyond byte 63, partial writes).
fn stream<D: Dut>(rng: &mut StdRng, items: usize) -> Vec<WriteBurst> {
    let bus = D::BUS;
    let pages = 1usize << (D::ADDR_BITS - 12);
    let mut out = Vec::new();
    let piece = |rng: &mut StdRng, slot: usize, start: usize, data: &[u8]| {
        let size = rng.random_range(0..=log2(bus));
        let b = WriteBurst::range(slot as u64 * PAGE + start as u64, data, size, bus)
            .expect("piece fits its page");
        b.with_id(rng.random_range(0..16))
    };
    for _ in 0..items {
        let slot = rng.random_range(0..D::SLOTS);
        let mut cmd = [0u8; CMD_BYTES];
        rng.fill(&mut cmd[..]);
        match rng.random_range(0..10) {
            0..=3 => out.push(whole(slot, &cmd, bus).with_id(rng.random_range(0..16))),
            4..=6 => {
                let mut cuts: Vec<usize> =
                    (1..CMD_BYTES).filter(|_| rng.random_bool(0.15)).collect();
                cuts.insert(0, 0);
                cuts.push(CMD_BYTES);
                let mut pieces: Vec<(usize, usize)> =
                    cuts.windows(2).map(|w| (w[0], w[1])).collect();
                pieces.shuffle(rng);
                let last = pieces.pop().expect("at least one piece");
                for (a, b) in pieces {
                    out.push(piece(rng, slot, a, &cmd[a..b]));
                    if rng.random_bool(0.2) {
                        // An overlapping rewrite with other bytes.
                        let a = rng.random_range(0..CMD_BYTES);
                        let b = rng.random_range(a + 1..=CMD_BYTES);
                        let mut junk = vec![0u8; b - a];
                        rng.fill(&mut junk[..]);
                        out.push(piece(rng, slot, a, &junk));
                    }
                }
                out.push(piece(rng, slot, last.0, &cmd[last.0..last.1]));
            }
            7 => {
                // Anywhere: any page (also out of range), any offset, 1..=64 bytes.
                let page = rng.random_range(0..pages);
                let len = rng.random_range(1..=CMD_BYTES);
                let start = rng.random_range(0..=(PAGE as usize - len));
                out.push(piece(rng, page, start, &cmd[..len]));
            }
            _ => {
                let a = rng.random_range(0..CMD_BYTES);
                let b = rng.random_range(a + 1..=CMD_BYTES);
                out.push(piece(rng, slot, a, &cmd[a..b]));
            }
        }
    }
    out
}

/// Knobs of one random run, in eighths of a cycle.
#[derive(Debug, Clone, Copy)]
struct Knobs {
    aw: u8,
    w: u8,
    b: u8,
    sub: u8,
    /// Chance per cycle (in 1/256) of a commit to a random slot, and of a busy-bit toggle.
    commit: u8,
    busy: u8,
}

fn random_run<D: Dut>(seed: u64, items: usize, k: Knobs) -> Result<Stats, TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let thr = |s: u64, e: u8| Throttle::eighths(seed ^ s, e).expect("eighths");
    let master = AxiWriteMaster::new(thr(1, k.aw), thr(2, k.w), thr(3, k.b));
    let mut bench: Bench<D> = Bench::new(master, thr(4, k.sub));
    bench.enable_all()?;
    for b in stream::<D>(&mut rng, items) {
        bench.master.push(b);
    }
    let mut busy = 0u64;
    let limit = bench.cycle + 200 * items as u64 + 1000;
    while !bench.idle() {
        prop_assert!(
            bench.cycle < limit,
            "stream not finished by cycle {}",
            limit
        );
        let commit = (rng.random_range(0..256u32) < u32::from(k.commit)).then(|| Commit {
            slot: rng.random_range(0..D::SLOTS),
            enable: rng.random_bool(0.8),
            pid: rng.random(),
        });
        if rng.random_range(0..256u32) < u32::from(k.busy) {
            busy ^= 1 << rng.random_range(0..D::SLOTS);
        }
        // The NIC is stopped now and then, for a few dozen cycles.
        if rng.random_range(0..256u32) < if bench.nic_enable { 2 } else { 16 } {
            bench.nic_enable = !bench.nic_enable;
        }
        bench.step(commit, busy)?;
    }
    prop_assert_eq!(bench.master.done().len(), bench.stats.bursts);
    Ok(bench.stats)
}

fn knobs() -> impl Strategy<Value = Knobs> {
    (1u8..=8, 1u8..=8, 1u8..=8, 1u8..=8, 0u8..=8, 0u8..=12).prop_map(
        |(aw, w, b, sub, commit, busy)| Knobs {
            aw,
            w,
            b,
            sub,
            commit,
            busy,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_streams_small(seed in any::<u64>(), k in knobs()) {
        random_run::<onerma_rtl::cmd_port::Model>(seed, 200, k)?;
    }

    #[test]
    fn random_streams_default(seed in any::<u64>(), k in knobs()) {
        random_run::<onerma_rtl::cmd_port_default::Model>(seed, 200, k)?;
    }
}

/// Fixed seeds with every kind of beat counted, so the random streams are known to reach each
/// refusal and many submissions.
#[test]
fn streams_reach_every_case() {
    let k = Knobs {
        aw: 6,
        w: 6,
        b: 6,
        sub: 5,
        commit: 4,
        busy: 6,
    };
    let mut total = Stats::default();
    for seed in 0..4 {
        let s = random_run::<onerma_rtl::cmd_port::Model>(seed, 300, k).expect("run");
        for i in 0..5 {
            total.beats[i] += s.beats[i];
        }
        total.subs += s.subs;
        total.bursts += s.bursts;
    }
    println!(
        "beats (out of range, disabled, busy, beyond, written) {:?}, bursts {}, submissions {}",
        total.beats, total.bursts, total.subs
    );
    assert!(
        total.beats.iter().all(|&n| n > 0),
        "every outcome reached: {:?}",
        total.beats
    );
    assert!(total.subs > 100, "submissions: {}", total.subs);
}

// ---- Directed cases -----------------------------------------------------------------------------

fn always_bench<D: Dut>() -> Bench<D> {
    let master = AxiWriteMaster::new(Throttle::always(), Throttle::always(), Throttle::always());
    Bench::new(master, Throttle::always())
}

/// A torn command of a previous tenant is never completed after a re-enable: the old tenant
/// writes bytes 0..48, the slot is disabled and enabled again, the new tenant writes 48..64
/// (nothing is submitted: the old bytes were discarded) and then 0..48, which submits the new
/// tenant's 64 bytes only, with the new pid.
#[test]
fn reenable_discards_torn_command() {
    let mut b: Bench<onerma_rtl::cmd_port::Model> = always_bench();
    b.enable_all().expect("enable");
    let old = [0xa5u8; CMD_BYTES];
    // Bytes 0..63 numbered, the reserved fields (bytes 14-15 and 56-63) zero.
    let new: [u8; CMD_BYTES] = std::array::from_fn(|i| {
        if i == 14 || i == 15 || i >= 56 {
            0
        } else {
            i as u8
        }
    });
    let base = 3 * PAGE;
    b.master
        .push(WriteBurst::range(base, &old[..48], 4, 16).expect("burst"));
    b.drain(0, 100).expect("old tenant");
    b.step(
        Some(Commit {
            slot: 3,
            enable: false,
            pid: 7,
        }),
        0,
    )
    .expect("disable");
    b.step(
        Some(Commit {
            slot: 3,
            enable: true,
            pid: 9,
        }),
        0,
    )
    .expect("enable");
    b.master
        .push(WriteBurst::range(base + 48, &new[48..], 4, 16).expect("burst"));
    b.drain(0, 100).expect("new tenant, tail");
    assert!(b.subs.is_empty(), "torn command submitted: {:?}", b.subs);
    b.master
        .push(WriteBurst::range(base, &new[..48], 4, 16).expect("burst"));
    b.drain(0, 100).expect("new tenant, head");
    assert_eq!(b.subs.len(), 1);
    assert_eq!(
        b.subs[0].0,
        Sub {
            slot: 3,
            cmd: new,
            pid: 9
        }
    );
    // The byte order is the generated layout's: command byte 0 is op_type.
    let c = Cmd::from_bytes(&new).expect("a well-formed cmd");
    assert_eq!((c.op_type, c.cos, c.length), (0, 1, 0x0203));
}

/// Each refusal: out-of-range page, disabled slot, busy slot, beyond byte 63; SLVERR, the
/// right pulse, nothing staged (the reference checks every cycle; here the B list).
#[test]
fn refusals_answer_slverr() {
    let mut b: Bench<onerma_rtl::cmd_port_default::Model> = always_bench();
    b.enable_all().expect("enable");
    b.step(
        Some(Commit {
            slot: 5,
            enable: false,
            pid: 0,
        }),
        0,
    )
    .expect("disable 5");
    let cmd = [0x11u8; CMD_BYTES];
    b.master.push(whole(64, &cmd, 64).with_id(1)); // page 64 >= NumSlots
    b.master.push(whole(5, &cmd, 64).with_id(2)); // disabled
    b.master.push(whole(6, &cmd, 64).with_id(3)); // busy (below)
    b.master.push(
        WriteBurst::range(7 * PAGE + 64, &cmd, 6, 64)
            .expect("b")
            .with_id(4),
    );
    b.master.push(whole(8, &cmd, 64).with_id(5)); // accepted
    b.drain(1 << 6, 100).expect("drain");
    let got: Vec<(u32, Resp)> = b.master.done().iter().map(|(a, r, _)| (a.id, *r)).collect();
    assert_eq!(
        got,
        vec![
            (1, Resp::SlvErr),
            (2, Resp::SlvErr),
            (3, Resp::SlvErr),
            (4, Resp::SlvErr),
            (5, Resp::Okay)
        ]
    );
    assert_eq!(b.stats.beats, [1, 1, 1, 1, 1]);
    assert_eq!(b.subs.len(), 1);
    assert_eq!(b.subs[0].0.slot, 8);
}

/// Reads of a command page return zero with OKAY, one R beat per burst beat.
#[test]
fn reads_return_zero() {
    let mut m = <onerma_rtl::cmd_port::Model as Dut>::fresh();
    let mut rng = StdRng::seed_from_u64(5);
    for (id, len) in [(5u32, 3u8), (2, 0), (9, 15)] {
        let mut got = Vec::new();
        let mut ar_done = false;
        for _ in 0..200 {
            let rr = rng.random_bool(0.6);
            m.drive_read((!ar_done).then_some((id, len)), rr);
            m.drive(&MasterOut::default(), None, 0, true, true);
            Dut::eval(&mut m);
            let (ar_ready, r) = m.read();
            if ar_ready && !ar_done {
                ar_done = true;
            } else if let (Some(beat), true) = (r, rr) {
                got.push(beat);
            }
            Dut::tick(&mut m);
            if got.last().is_some_and(|b| b.3) {
                break;
            }
        }
        let want: Vec<_> = (0..=len)
            .map(|n| (id, true, Resp::Okay, n == len))
            .collect();
        assert_eq!(got, want);
    }
}

/// H10: one 64-byte command per cycle at 512 bits with `sub_ready_i` high. 1,024 whole commands
/// round-robin over the 64 slots; printed: commands per cycle from the first W handshake to the
/// last submission (figures are not assertions; every submission is checked).
#[test]
fn throughput_one_command_per_cycle() {
    let mut b: Bench<onerma_rtl::cmd_port_default::Model> = always_bench();
    b.enable_all().expect("enable");
    let mut rng = StdRng::seed_from_u64(10);
    let n = 1024;
    for i in 0..n {
        let mut cmd = [0u8; CMD_BYTES];
        rng.fill(&mut cmd[..]);
        b.master
            .push(whole(i % 64, &cmd, 64).with_id((i % 16) as u32));
    }
    b.drain(0, 10 * n as u64).expect("drain");
    assert_eq!(b.subs.len(), n);
    assert!(b.master.done().iter().all(|(_, r, _)| *r == Resp::Okay));
    let first = b.first_w.expect("some W");
    let last = b.subs.last().map(|s| s.1).expect("subs");
    let cycles = last - first + 1;
    println!(
        "cmd_port 64 slots x 512 bit: {n} commands in {cycles} cycles (first W to last submission): {:.3} commands/cycle",
        n as f64 / cycles as f64
    );
}
