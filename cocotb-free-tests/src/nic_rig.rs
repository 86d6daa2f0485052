//! The mixed-mode rig (issue 15): the Verilated `onerma_nic` (small configuration,
//! harness/rtl/tops/nic.json) as NIC 0 of a golden-model `System` (an external NIC), among
//! model NICs that serve it, checked by the model's `Observer`. Used by the mixed-mode suite
//! (`tests/nic_mixed.rs`) and the NIC benchmarks of `onerma bench`.
//!
//! Frames the fabric delivers to the RTL NIC's address enter its AXI4-Stream receive port; every
//! frame it transmits crosses the fabric to the model NICs. Its host memory is [`AxiMem`]; its
//! registers are programmed over AXI4-Lite ([`AxilMaster`]) and its commands written as 64-byte
//! bursts ([`AxiWriteMaster`]). The observer is shown every input the RTL NIC gets and every
//! output it makes, held back [`HOLD`] cycles so inputs learnt late (a B answer) still arrive in
//! cycle order. Nothing expected is read from the DUT.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

use onerma_layouts::{Cmd, Cpl, Hdr, OpType, RrtEntry, Status};
use onerma_model::crypto::{self, Key};
use onerma_model::{FabricConfig, NicConfig, Observer, ObserverConfig, Seen, System};
use onerma_regs as regs;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::Throttle;
use crate::axi::{Addr, AxiMem, BResp, MasterOut, MemConfig, Resp, SlaveOut, WBeat};
use crate::axi_wmaster::{AxiWriteMaster, WriteBurst};
use crate::axil::{AxilMaster, LiteMasterOut, LiteSlaveOut};
use crate::bits::{get_bits, put_bits};

/// Why a mixed-mode run stopped: the observer's divergence, a bus protocol error, a model error
/// or a bench check.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RigError(pub String);

fn fail(e: impl Into<String>) -> RigError {
    RigError(e.into())
}

/// The small configuration's Verilated top.
pub type Dut = onerma_rtl::nic::Model;

/// The small top's constants (the tests use them; [`SMALL`] holds the same values for the rig).
pub const BUS: usize = 16; // DataWidth 128
pub const WORDS: usize = 4;
pub const SLOTS: u16 = 8;
pub const RTL_ADDR: u32 = 0x0a00_0001;
pub const SERVER_ADDR: u32 = 0x0a00_0002;
pub const PID: u32 = 0x77;
pub const DATA_BASE: u64 = 0x1_0000;
pub const DATA_SIZE: u64 = SLOTS as u64 * 8192;
pub const CQ_BASE: u64 = 0x4_0000;
pub const CQ_SIZE: u64 = 4096;
pub const SERVED_BASE: u64 = 0x10_0000;
pub const SERVED_SIZE: u64 = 64 * 1024;
pub const REGIONS_SERVED: u16 = 2;
/// The RTL NIC's served regions (responder suite): region `RTL_REGION + i` at
/// `RTL_SERVED_BASE + i * RTL_SERVED_SIZE`, filled with random bytes at [`Rig::serve_setup`].
/// Region `RTL_REGION` allows remote READ, WRITE and REKEY; `RTL_REGION + 1` only remote WRITE.
/// (The small top's map; [`TopConfig::rtl_served_base`] is the rig's.)
pub const RTL_REGION: u16 = 2;
pub const RTL_SERVED_BASE: u64 = 0x8_0000;
pub const RTL_SERVED_SIZE: u64 = 0x1_0000;
/// The model client (NIC 1) when it initiates to the RTL NIC: its PID, its landing buffer
/// region (`slot * 8192` per slot) and its completion region.
pub const CLIENT_PID: u32 = 0x99;
pub const CLIENT_BUF_REGION: u16 = 14;
pub const CLIENT_CQ_REGION: u16 = 15;
pub const CLIENT_BUF_BASE: u64 = 0x20_0000;
pub const CLIENT_CQ_BASE: u64 = 0x30_0000;
/// Cycles the observer's inputs are held back, so that events learnt late (a command write's
/// bus answer, a host write's data, shown at its AW) are still shown in cycle order: more than a
/// 4 KB burst takes on the slowest memory the tests use.
pub const HOLD: u64 = 4096;

/// The widest data port of a NIC top the rig drives, in 32-bit words (`DataWidth` 512).
pub const MAX_WORDS: usize = 16;

/// A Verilated `onerma_nic` top's parameters (its `harness/rtl/tops/*.json`) and the rig's host
/// memory map for it: the model's view of the top ([`rtl_config_for`], [`server_config_for`])
/// and the rig's setup derive from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopConfig {
    /// The top's name (for reports).
    pub name: &'static str,
    /// `DataWidth / 8`: every AXI4 / AXI4-Stream data port's bytes.
    pub bus: usize,
    pub slots: u16,
    pub regions: u16,
    pub window_lines: u32,
    pub classes: u8,
    pub max_starve: u32,
    /// `InQueueDepth` (the responder's inbound queue) and `NumWriteCtx` (its write contexts).
    pub in_queue_depth: u16,
    pub write_ctx: u16,
    /// `NumEngines` and `Pipelined` (GCM engines of the pool).
    pub engines: u8,
    pub pipelined: bool,
    /// Host memory map: the slots' source / landing buffers (8 KB per slot) at `data_base`,
    /// the completion records (16 B per slot, 4 KB) at `cq_base`, the two served regions
    /// (`RTL_SERVED_SIZE` each) at `rtl_served_base`, in a memory of `mem_size` bytes.
    pub data_base: u64,
    pub cq_base: u64,
    pub rtl_served_base: u64,
    pub mem_size: usize,
}

impl TopConfig {
    /// Bytes of the slots' buffers (8 KB per slot).
    pub fn data_size(&self) -> u64 {
        u64::from(self.slots) * 8192
    }
    /// 32-bit words of a data port.
    pub fn words(&self) -> usize {
        self.bus / 4
    }
}

/// `harness/rtl/tops/nic.json`: 8 slots, 2 classes, 16 regions, 128 lines, 128-bit data, one
/// iterative engine.
pub const SMALL: TopConfig = TopConfig {
    name: "onerma_nic small",
    bus: BUS,
    slots: SLOTS,
    regions: 16,
    window_lines: 128,
    classes: 2,
    max_starve: 4,
    in_queue_depth: 32,
    write_ctx: 4,
    engines: 1,
    pipelined: false,
    data_base: DATA_BASE,
    cq_base: CQ_BASE,
    rtl_served_base: RTL_SERVED_BASE,
    mem_size: 1 << 20,
};

/// `harness/rtl/tops/nic_default.json` (group `nic-bench`): 64 slots, 4 classes, 256 regions,
/// 1,024 lines, 512-bit data, 4 pipelined engines.
pub const DEFAULT: TopConfig = TopConfig {
    name: "onerma_nic default",
    bus: 64,
    slots: 64,
    regions: 256,
    window_lines: 1024,
    classes: 4,
    max_starve: 16,
    in_queue_depth: 32,
    write_ctx: 16,
    engines: 4,
    pipelined: true,
    data_base: 0x1_0000,
    cq_base: 0xa_0000,
    rtl_served_base: 0x10_0000,
    mem_size: 2 << 20,
};

/// Calls `$cb!($($pre)* [narrow inputs] [narrow outputs] [wide inputs] [wide outputs])` with
/// the NIC top's ports the rig drives, so the trait and its impls list them once.
macro_rules! with_nic_ports {
    ($cb:ident!($($pre:tt)*)) => {
        $cb!($($pre)*
            [set_s_axil_awvalid_i, set_s_axil_awaddr_i, set_s_axil_wvalid_i, set_s_axil_wdata_i,
             set_s_axil_wstrb_i, set_s_axil_bready_i, set_s_axil_arvalid_i, set_s_axil_araddr_i,
             set_s_axil_rready_i, set_s_axi_awvalid_i, set_s_axi_awid_i, set_s_axi_awaddr_i,
             set_s_axi_awlen_i, set_s_axi_awsize_i, set_s_axi_wvalid_i, set_s_axi_wstrb_i,
             set_s_axi_wlast_i, set_s_axi_bready_i, set_s_axi_arvalid_i, set_s_axi_rready_i,
             set_m_axi_awready_i, set_m_axi_wready_i, set_m_axi_bvalid_i, set_m_axi_bid_i,
             set_m_axi_bresp_i, set_m_axi_arready_i, set_m_axi_rvalid_i, set_m_axi_rid_i,
             set_m_axi_rresp_i, set_m_axi_rlast_i, set_s_axis_rx_tvalid_i,
             set_s_axis_rx_tkeep_i, set_s_axis_rx_tlast_i, set_m_axis_tx_tready_i]
            [s_axil_awready_o, s_axil_wready_o, s_axil_bvalid_o, s_axil_bresp_o,
             s_axil_arready_o, s_axil_rvalid_o, s_axil_rdata_o, s_axil_rresp_o, s_axi_awready_o,
             s_axi_wready_o, s_axi_bvalid_o, s_axi_bid_o, s_axi_bresp_o, m_axi_arvalid_o,
             m_axi_arid_o, m_axi_araddr_o, m_axi_arlen_o, m_axi_arsize_o, m_axi_awvalid_o,
             m_axi_awid_o, m_axi_awaddr_o, m_axi_awlen_o, m_axi_awsize_o, m_axi_wvalid_o,
             m_axi_wstrb_o, m_axi_wlast_o, m_axi_rready_o, m_axi_bready_o, s_axis_rx_tready_o,
             m_axis_tx_tvalid_o, m_axis_tx_tkeep_o, m_axis_tx_tlast_o]
            [set_s_axi_wdata_i, set_m_axi_rdata_i, set_s_axis_rx_tdata_i]
            [m_axi_wdata_o, m_axis_tx_tdata_o]
        );
    };
}

macro_rules! nic_ports_trait {
    ([$($si:ident),*] [$($go:ident),*] [$($sw:ident),*] [$($gw:ident),*]) => {
        /// The ports of a Verilated `onerma_nic` top that the rig drives, implemented by every
        /// NIC top's generated `Model` (the same method names). Narrow ports carry `u64` (a
        /// setter takes any unsigned integer and truncates to the port's width); wide data ports are word slices of
        /// [`TopConfig::words`] words, bit 0 in word 0's bit 0.
        pub trait NicPorts {
            /// The top's parameters and the rig's memory map for it.
            const TOP: TopConfig;
            /// A new model held in reset for two cycles.
            fn fresh() -> Self;
            fn eval(&mut self);
            fn tick(&mut self);
            /// Starts a VCD of the top at `path` (debugging, [`Rig`]'s `ONERMA_RIG_VCD`).
            fn trace_start(&mut self, path: &std::path::Path) -> Result<(), String>;
            fn trace_stop(&mut self);
            $(fn $si(&mut self, v: impl Into<u64>);)*
            $(fn $go(&self) -> u64;)*
            $(
                /// Words past the slice are zero; words past the port are ignored.
                fn $sw(&mut self, v: &[u32]);
            )*
            $(
                /// Fills `dst` (as many words as both have).
                fn $gw(&self, dst: &mut [u32]);
            )*
        }
    };
}
with_nic_ports!(nic_ports_trait!());

macro_rules! nic_ports_impl {
    ($t:ty, $words:expr, $top:expr,
     [$($si:ident),*] [$($go:ident),*] [$($sw:ident),*] [$($gw:ident),*]) => {
        #[allow(clippy::unnecessary_cast)]
        impl NicPorts for $t {
            const TOP: TopConfig = $top;
            $crate::model_basics!($t);
            fn trace_start(&mut self, path: &std::path::Path) -> Result<(), String> {
                <$t>::trace_start(self, path).map_err(|e| e.to_string())
            }
            fn trace_stop(&mut self) {
                <$t>::trace_stop(self);
            }
            $(fn $si(&mut self, v: impl Into<u64>) {
                <$t>::$si(self, v.into() as _);
            })*
            $(fn $go(&self) -> u64 {
                <$t>::$go(self) as u64
            })*
            $(fn $sw(&mut self, v: &[u32]) {
                let mut a = [0u32; $words];
                let n = v.len().min($words);
                a[..n].copy_from_slice(&v[..n]);
                <$t>::$sw(self, &a);
            })*
            $(fn $gw(&self, dst: &mut [u32]) {
                let a = <$t>::$gw(self);
                let n = dst.len().min($words);
                dst[..n].copy_from_slice(&a[..n]);
            })*
        }
    };
}
with_nic_ports!(nic_ports_impl!(onerma_rtl::nic::Model, WORDS, SMALL,));
#[cfg(feature = "nic-bench")]
with_nic_ports!(nic_ports_impl!(onerma_rtl::nic_default::Model, 16, DEFAULT,));
/// `nic_default` with `n` engines (`nic_default_e1.json`, ...; feature `nic-curve`).
#[cfg(feature = "nic-curve")]
const fn default_with(n: u8) -> TopConfig {
    TopConfig {
        engines: n,
        ..DEFAULT
    }
}
#[cfg(feature = "nic-curve")]
with_nic_ports!(nic_ports_impl!(
    onerma_rtl::nic_default_e1::Model,
    16,
    default_with(1),
));
#[cfg(feature = "nic-curve")]
with_nic_ports!(nic_ports_impl!(
    onerma_rtl::nic_default_e2::Model,
    16,
    default_with(2),
));
#[cfg(feature = "nic-curve")]
with_nic_ports!(nic_ports_impl!(
    onerma_rtl::nic_default_e8::Model,
    16,
    default_with(8),
));

fn resp(bits: u64) -> Resp {
    match bits {
        0 => Resp::Okay,
        2 => Resp::SlvErr,
        _ => Resp::DecErr,
    }
}

/// The small RTL NIC's configuration as the model sees it ([`rtl_config_for`] of [`SMALL`]).
pub fn rtl_config() -> NicConfig {
    rtl_config_for(&SMALL)
}

/// The RTL NIC's configuration as the model sees it (the top's parameters and the registers the
/// test programs). The timeouts were sized for the small top's one iterative engine; a top with
/// more or faster engines only finishes sooner.
pub fn rtl_config_for(top: &TopConfig) -> NicConfig {
    NicConfig {
        nic_addr: RTL_ADDR,
        num_slots: top.slots,
        num_regions: top.regions,
        num_classes: top.classes,
        window_lines: top.window_lines,
        max_starve: top.max_starve,
        in_queue_depth: top.in_queue_depth,
        num_write_ctx: top.write_ctx,
        // Doorbell to class queue head: the command port, three cycles of submission checks,
        // the queue's push register.
        starve_slack: 8,
        timer_slack: u64::from(top.slots),
        // One iterative engine, shared by the sealer and three openers: a 1 KB chunk spends
        // about 1,000 cycles in it, and a frame may wait behind the sealer's 4 staged messages
        // and the openers' chunks (the observer's `tx_lag` is this bound too: a request can leave
        // that long after its dispatch).
        rx_crypto_max: 12_000,
        rx_crypto_latency: 0,
        dispatch_timeout: 30_000,
        op_timeout: 40_000,
        host_write_bytes_per_cycle: top.bus as u32,
        host_write_max: 400,
        host_read_max: 400,
        // Accepts the model server's hold (`server_config`): its server_timeout covers 4 KB of
        // WR_DATA through the one iterative engine.
        max_hold_ns: 200_000,
        // Served READs wait behind 4 KB ones (about 4,500 cycles each through the one
        // iterative engine): the age limit is the protocol's op_timeout - 1,250 for the client's
        // timer (`server_config`'s op_timeout equals this NIC's).
        inq_max_age: 38_750,
        ..NicConfig::default()
    }
}

/// The model server of the small rig ([`server_config_for`] of [`SMALL`]).
pub fn server_config() -> NicConfig {
    server_config_for(&SMALL)
}

/// The model server's configuration: a WRITE context lives long enough for 4 KB of WR_DATA
/// from the small RTL NIC (one iterative engine, about 1,000 cycles per 1 KB chunk). As a
/// client of the RTL NIC it has as many slots as the RTL NIC (at least 8).
pub fn server_config_for(top: &TopConfig) -> NicConfig {
    NicConfig {
        nic_addr: SERVER_ADDR,
        num_slots: top.slots.max(8),
        num_regions: 16,
        server_timeout: 30_000,
        // As a client of the RTL NIC: a 4 KB READ served through its one iterative engine.
        op_timeout: 40_000,
        dispatch_timeout: 30_000,
        // Accepts the RTL NIC's hold (`rtl_config`: its RxCryptoMax covers 4 KB of WR_DATA
        // through the one iterative engine).
        max_hold_ns: 200_000,
        ..NicConfig::default()
    }
}

#[derive(Debug)]
enum ObsEv {
    Cmd {
        slot: u16,
        bytes: [u8; 64],
        ok: bool,
    },
    Receive(Vec<u8>),
    Frame(Vec<u8>),
    Write {
        addr: u64,
        data: Vec<u8>,
    },
    Read {
        addr: u64,
        len: u64,
    },
    Software {
        addr: u64,
        data: Vec<u8>,
    },
    Rrt {
        index: u16,
        e: RrtEntry,
    },
    Enable {
        slot: u16,
    },
}

/// Observer inputs in cycle order, held back [`HOLD`] cycles.
struct Delayed {
    heap: BinaryHeap<Reverse<(u64, u64)>>,
    evs: HashMap<u64, ObsEv>,
    seq: u64,
}

impl Delayed {
    fn push(&mut self, cycle: u64, ev: ObsEv) {
        self.heap.push(Reverse((cycle, self.seq)));
        self.evs.insert(self.seq, ev);
        self.seq += 1;
    }
    fn pop_until(&mut self, until: u64) -> Option<(u64, ObsEv)> {
        let Reverse((c, s)) = *self.heap.peek()?;
        if c > until {
            return None;
        }
        self.heap.pop();
        self.evs.remove(&s).map(|e| (c, e))
    }
}

#[derive(Default, Debug)]
pub struct Stats {
    pub submitted: u64,
    pub refused: u64,
    pub records: u64,
    pub ok: u64,
    pub statuses: [u64; 8],
    pub frames_out: u64,
    pub frames_in: u64,
    pub host_bytes: u64,
    pub rekeys: u64,
    /// Payload bytes of the frames the RTL NIC sent (RD_RESP and WR_DATA chunks).
    pub tx_payload: u64,
    /// Host read beats answered SLVERR or DECERR.
    pub read_errors: u64,
    /// Client READ / WRITE completions whose bytes the rig did not check: a concurrent WRITE
    /// overlapped them (the observer checked them).
    pub raced_checks: u64,
    /// Most frames at once that the fabric had delivered to the RTL NIC and its receive port
    /// had not yet taken (a backlog here means the RTL's receive path, not the model, is slow).
    pub rx_backlog_max: u64,
}

pub struct Rig<D: NicPorts = Dut> {
    pub m: D,
    /// The top's parameters and memory map (`D::TOP`).
    pub top: TopConfig,
    lite: AxilMaster,
    cmd: AxiWriteMaster,
    pub mem: AxiMem,
    pub sys: System,
    pub obs: Observer,
    ev: Delayed,
    pub cycle: u64,
    rng: StdRng,
    /// Frames waiting for the receive port, and the one being driven (bytes, next offset).
    rx_q: VecDeque<Vec<u8>>,
    rx_cur: Option<(Vec<u8>, usize)>,
    tx_buf: Vec<u8>,
    /// Host write bursts: AW seen, beats so far.
    /// Addresses of the host write bursts whose B is outstanding, in AW order.
    b_addrs: VecDeque<u64>,
    /// AWs taken, with the cycle of their handshake (a host write is shown at its issue).
    w_aws: VecDeque<(Addr, u64)>,
    w_beats: Vec<WBeat>,
    w_done: VecDeque<Vec<WBeat>>,
    /// Command bursts written, waiting for their B: (slot, bytes, cycle of the last W beat).
    cmd_open: VecDeque<(u16, [u8; 64], Option<u64>)>,
    /// Per slot: the command in flight and the cycle it may be reused.
    pub busy: Vec<Option<u64>>,
    server_keys: Vec<Key>,
    pub stats: Stats,
    p_tx_ready: f64,
    rx_valid: bool,
    tx_ready: bool,
    /// Cycle of every command's doorbell beat (the last W beat of its burst), in order.
    pub doorbells: Vec<u64>,
    /// Cycle of the first beat of every frame the RTL NIC sent, in order.
    pub tx_starts: Vec<u64>,
    /// Cycles after a record's B before its slot gets a new command (the RTL frees the slot at
    /// that B; the margin covers its way to the command port).
    pub reuse_after: u64,
    /// Chance per cycle that a free slot gets a new command in [`Rig::run_reads`].
    pub p_submit: f64,
    /// Of those commands, the share of WRITEs and of REKEYs (the rest are READs).
    pub p_write: f64,
    pub p_rekey: f64,
    /// Per slot: the REKEY in flight `(region, new key)`, installed in the rig's key table when
    /// it completes OK.
    rekeys: Vec<Option<(u16, Key)>>,
    /// Per slot: the end of the source bytes of its last WRITE / REKEY ([`Rig::load_source`]).
    src_end: Vec<u64>,
    /// The RTL NIC's configuration as programmed (and as the observer's shadow has it).
    cfg: NicConfig,
    /// The RTL NIC's served regions: their keys and contents (the rig's own copy).
    pub rtl_keys: Vec<Key>,
    pub rtl_served: Vec<Vec<u8>>,
    /// Host ranges of served READs requested so far (a DMA read past a range's end reads whole
    /// bus beats: the observer is shown the read trimmed to the range).
    served_ranges: Vec<(u64, u64)>,
    /// The end of the served chunk being read.
    served_chunk_end: Option<u64>,
    /// The model client's ops on the RTL NIC, per client slot: the op in flight.
    pub client_ops: Vec<Option<ClientOp>>,
    /// Their completions, in order: (op, status).
    pub client_done: Vec<(ClientOp, Status)>,
    /// Per client slot: the source bytes of its WRITE / REKEY in flight (the new key for a
    /// REKEY), in NIC 1's memory at the slot's buffer.
    client_src: Vec<Vec<u8>>,
    /// Per client slot: the cycle its REKEY was submitted.
    client_t_sub: Vec<u64>,
    /// Served REKEYs that completed OK: (submission, completion) cycles.
    pub rekey_spans: Vec<(u64, u64)>,
    /// Served WRITEs completed: (op, submission, completion).
    write_spans: Vec<(ClientOp, u64, u64)>,
    /// With [`Rig::log_frames`] set: every frame the RTL NIC received (`false`) or sent (`true`)
    /// as (cycle of its last beat, sent, header).
    pub frame_log: Vec<(u64, bool, Hdr)>,
    pub log_frames: bool,
    /// Share of WRITEs among the client's ops in [`Rig::client_load`] / [`Rig::load_both`].
    pub client_p_write: f64,
}

/// An op the model client (NIC 1) issued to the RTL NIC.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientOp {
    pub op: OpType,
    pub slot: u16,
    pub region: u16,
    pub offset: u64,
    pub len: u16,
}

impl Rig<Dut> {
    /// The rig on the small top.
    pub fn new(seed: u64, fabric: FabricConfig, mem_cfg: MemConfig, p_tx_ready: f64) -> Self {
        Self::with_config(seed, fabric, mem_cfg, p_tx_ready, rtl_config())
    }

    /// [`Rig::new`] with the RTL NIC's registers (and the model's view of them) from `rcfg`,
    /// a variant of [`rtl_config`] (the top's parameters must stay as they are).
    pub fn with_config(
        seed: u64,
        fabric: FabricConfig,
        mem_cfg: MemConfig,
        p_tx_ready: f64,
        rcfg: NicConfig,
    ) -> Self {
        Self::on_top(seed, fabric, mem_cfg, p_tx_ready, rcfg)
    }
}

impl<D: NicPorts> Rig<D> {
    /// The rig on top `D` with the RTL NIC's registers (and the model's view of them) from
    /// `rcfg`, [`rtl_config_for`] `D::TOP` or a variant of it. The host memory's bus width and
    /// size are the top's (`mem_cfg`'s other fields are kept).
    pub fn on_top(
        seed: u64,
        fabric: FabricConfig,
        mut mem_cfg: MemConfig,
        p_tx_ready: f64,
        rcfg: NicConfig,
    ) -> Self {
        let top = D::TOP;
        mem_cfg.bus_bytes = top.bus;
        mem_cfg.size = mem_cfg.size.max(top.mem_size);
        let m = D::fresh();
        let scfg = server_config_for(&top);
        let mut sys = System::new(vec![rcfg.clone(), scfg], fabric).expect("system");
        sys.set_external(0).expect("external NIC 0");
        let mut rng = StdRng::seed_from_u64(seed);
        let mut server_keys = Vec::new();
        for r in 0..REGIONS_SERVED {
            let k: Key = rng.random();
            server_keys.push(k);
            sys.nics[1]
                .write_rrt(
                    r,
                    RrtEntry {
                        valid: 1,
                        perm_remote_read: 1,
                        perm_remote_write: 1,
                        perm_remote_rekey: 1,
                        perm_local_read: 0,
                        perm_local_write: 0,
                        owner_pid: 0,
                        base_addr: SERVED_BASE + u64::from(r) * SERVED_SIZE,
                        size: SERVED_SIZE,
                        key: crypto::key_to_u128(&k),
                    },
                )
                .expect("server region");
            let fill: Vec<u8> = (0..SERVED_SIZE).map(|_| rng.random()).collect();
            if let Some(mm) = sys.nics[1].mem_mut() {
                mm.write(SERVED_BASE + u64::from(r) * SERVED_SIZE, &fill);
            }
        }
        let obs = Observer::new(&rcfg, ObserverConfig::for_nic(&rcfg), None).expect("observer");
        let cfg = rcfg.clone();
        let thr = |s: u64| Throttle::new(seed ^ s, 1.0).expect("throttle");
        let slots = usize::from(top.slots);
        Self {
            m,
            top,
            lite: AxilMaster::new(thr(1)),
            cmd: AxiWriteMaster::new(thr(2), thr(3), thr(4)),
            mem: AxiMem::new(mem_cfg).expect("memory"),
            sys,
            obs,
            ev: Delayed {
                heap: BinaryHeap::new(),
                evs: HashMap::new(),
                seq: 0,
            },
            cycle: 0,
            rng,
            rx_q: VecDeque::new(),
            rx_cur: None,
            tx_buf: Vec::new(),
            w_aws: VecDeque::new(),
            b_addrs: VecDeque::new(),
            w_beats: Vec::new(),
            w_done: VecDeque::new(),
            cmd_open: VecDeque::new(),
            busy: vec![None; slots],
            server_keys,
            stats: Stats::default(),
            p_tx_ready,
            rx_valid: false,
            tx_ready: false,
            doorbells: Vec::new(),
            tx_starts: Vec::new(),
            reuse_after: 8,
            p_submit: 0.125,
            p_write: 0.0,
            p_rekey: 0.0,
            rekeys: vec![None; slots],
            src_end: vec![0; slots],
            cfg,
            rtl_keys: Vec::new(),
            rtl_served: Vec::new(),
            served_ranges: Vec::new(),
            served_chunk_end: None,
            client_ops: vec![None; slots],
            client_done: Vec::new(),
            client_src: vec![Vec::new(); slots],
            client_t_sub: vec![0; slots],
            rekey_spans: Vec::new(),
            write_spans: Vec::new(),
            frame_log: Vec::new(),
            log_frames: false,
            client_p_write: 0.0,
        }
    }

    /// The responder's setup, after [`Rig::setup`]: the RTL NIC's two served regions (random
    /// keys and contents, shown to the observer as software writes), and the model client's
    /// slots and regions on NIC 1.
    pub fn serve_setup(&mut self) -> Result<(), RigError> {
        for i in 0..2u16 {
            let key: Key = self.rng.random();
            let base = self.top.rtl_served_base + u64::from(i) * RTL_SERVED_SIZE;
            let fill: Vec<u8> = (0..RTL_SERVED_SIZE).map(|_| self.rng.random()).collect();
            let _ = self.mem.load(base as usize, &fill);
            self.ev.push(
                self.cycle,
                ObsEv::Software {
                    addr: base,
                    data: fill.clone(),
                },
            );
            self.rtl_keys.push(key);
            self.rtl_served.push(fill);
            let e = self.served_entry(i, true);
            self.rrt(RTL_REGION + i, &e)?;
        }
        let slots = self.top.slots;
        let c = &mut self.sys.nics[1];
        for (index, base, size) in [
            (CLIENT_BUF_REGION, CLIENT_BUF_BASE, u64::from(slots) * 8192),
            (CLIENT_CQ_REGION, CLIENT_CQ_BASE, 4096),
        ] {
            c.write_rrt(
                index,
                RrtEntry {
                    valid: 1,
                    perm_remote_read: 0,
                    perm_remote_write: 0,
                    perm_remote_rekey: 0,
                    perm_local_read: 1,
                    perm_local_write: 1,
                    owner_pid: CLIENT_PID,
                    base_addr: base,
                    size,
                    key: 0,
                },
            )
            .map_err(|e| fail(format!("client region: {e}")))?;
        }
        for s in 0..slots {
            c.enable_slot(s, CLIENT_PID)
                .map_err(|e| fail(format!("client slot: {e}")))?;
        }
        Ok(())
    }

    /// The RRT entry of the RTL NIC's served region `RTL_REGION + i` (its key as the rig holds
    /// it), valid or not.
    pub fn served_entry(&self, i: u16, valid: bool) -> RrtEntry {
        let key = self
            .rtl_keys
            .get(usize::from(i))
            .copied()
            .unwrap_or_default();
        RrtEntry {
            valid: u8::from(valid),
            perm_remote_read: u8::from(i == 0),
            perm_remote_write: 1,
            perm_remote_rekey: u8::from(i == 0),
            perm_local_read: 0,
            perm_local_write: 0,
            owner_pid: CLIENT_PID,
            base_addr: self.top.rtl_served_base + u64::from(i) * RTL_SERVED_SIZE,
            size: RTL_SERVED_SIZE,
            key: crypto::key_to_u128(&key),
        }
    }

    /// The model client issues `op` on client slot `slot` to RTL region `region` (K_d derived
    /// from `key`, the region's key unless a test forges another).
    pub fn client_op(&mut self, op: ClientOp, key: Key) -> Result<(), RigError> {
        let kd = crypto::derive_kd(&key, SERVER_ADDR, CLIENT_PID, op.op)
            .map_err(|e| fail(format!("derive: {e}")))?;
        let cmd = Cmd {
            op_type: op.op as u8,
            cos: 0,
            length: op.len,
            remote_nic: RTL_ADDR,
            remote_region: op.region,
            local_region: CLIENT_BUF_REGION,
            cq_region: CLIENT_CQ_REGION,
            remote_offset: op.offset,
            local_offset: u64::from(op.slot) * 8192,
            cq_offset: u64::from(op.slot) * 16,
            kd: crypto::key_to_u128(&kd),
        };
        let bytes = cmd
            .to_bytes()
            .map_err(|e| fail(format!("client command: {e}")))?;
        if op.op == OpType::Read
            && let Some(i) = op.region.checked_sub(RTL_REGION).filter(|i| *i < 2)
        {
            let a = self.top.rtl_served_base + u64::from(i) * RTL_SERVED_SIZE + op.offset;
            self.served_ranges.push((a, a + u64::from(op.len)));
        }
        let slot = usize::from(op.slot);
        if self.client_ops.get(slot).is_none_or(Option::is_some) {
            return Err(fail(format!("client slot {slot} busy")));
        }
        if op.op != OpType::Read {
            // WRITE data or the new key, random, in the client's buffer until the completion.
            let src: Vec<u8> = (0..op.len).map(|_| self.rng.random()).collect();
            if let Some(m) = self.sys.nics[1].mem_mut() {
                m.write(CLIENT_BUF_BASE + u64::from(op.slot) * 8192, &src);
            }
            self.client_src[slot] = src;
        }
        self.client_t_sub[slot] = self.cycle;
        self.client_ops[slot] = Some(op.clone());
        self.sys.schedule_submit(self.cycle, 1, op.slot, bytes);
        Ok(())
    }

    /// Whether client slot `slot` may take a new op (its last op completed and the model NIC
    /// freed the slot).
    pub fn client_free(&self, slot: u16) -> bool {
        self.client_ops
            .get(usize::from(slot))
            .is_some_and(Option::is_none)
            && !self.sys.nics[1].slot_busy(slot)
            && self.sys.nics[1].slot_free_at(slot) <= self.cycle
    }

    /// The model client's completions since the last call: each checked (a READ that
    /// completed OK landed exactly the served bytes) and recorded in [`Rig::client_done`].
    fn client_completions(&mut self) -> Result<(), RigError> {
        for r in std::mem::take(&mut self.sys.reports) {
            match r {
                onerma_model::sim::Report::Completion { nic: 1, c } => {
                    let slot = usize::from(c.slot);
                    let Some(op) = self.client_ops.get_mut(slot).and_then(Option::take) else {
                        return Err(fail(format!("client completion of idle slot {slot}")));
                    };
                    if op.op != OpType::Read {
                        self.client_write_done(&op, c.cpl.status)?;
                    }
                    if op.op == OpType::Write {
                        self.write_spans
                            .push((op.clone(), self.client_t_sub[slot], self.cycle));
                    }
                    let t_sub = self.client_t_sub[slot];
                    if c.cpl.status == Status::Ok && op.op == OpType::Read && self.raced(&op, t_sub)
                    {
                        self.stats.raced_checks += 1;
                    } else if c.cpl.status == Status::Ok && op.op == OpType::Read {
                        let i = usize::from(op.region - RTL_REGION);
                        let off = op.offset as usize;
                        let want = &self.rtl_served[i][off..off + usize::from(op.len)];
                        let at = CLIENT_BUF_BASE + u64::from(op.slot) * 8192;
                        let mut got = vec![0u8; usize::from(op.len)];
                        if let Some(m) = self.sys.nics[1].mem() {
                            m.read(at, &mut got);
                        }
                        if got != want {
                            return Err(fail(format!("client READ {op:?}: landed bytes differ")));
                        }
                    }
                    self.client_done.push((op, c.cpl.status));
                }
                onerma_model::sim::Report::Submitted {
                    nic: 1,
                    slot,
                    result: Err(e),
                } => return Err(fail(format!("client submit on slot {slot}: {e}"))),
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether a served WRITE overlapping `op`'s bytes was in flight at some time since `t_sub`
    /// (`op`'s submission): `op`'s bytes are then a legal mix the rig's copy does not know (the
    /// observer, which sees every host write in order, checks them exactly).
    fn raced(&self, op: &ClientOp, t_sub: u64) -> bool {
        let hits = |w: &ClientOp| {
            w.op == OpType::Write
                && w.region == op.region
                && w.slot != op.slot
                && w.offset < op.offset + u64::from(op.len)
                && op.offset < w.offset + u64::from(w.len)
        };
        self.client_ops.iter().flatten().any(hits)
            || self
                .write_spans
                .iter()
                .any(|(w, _, done)| *done >= t_sub && hits(w))
    }

    /// A served WRITE / REKEY completed at the client. WRITE OK: the RTL NIC's host memory holds
    /// the source bytes (checked here; the observer checked each host write as it happened),
    /// and the rig's copy of the region takes them. Another status: what was written is what
    /// the observer accepted, so the rig's copy of the range is taken from host memory. REKEY
    /// OK: the rig's key of the region becomes the new key.
    fn client_write_done(&mut self, op: &ClientOp, st: Status) -> Result<(), RigError> {
        let Some(i) = op.region.checked_sub(RTL_REGION).map(usize::from) else {
            return Ok(());
        };
        if i >= self.rtl_served.len() {
            return Ok(());
        }
        let src = std::mem::take(&mut self.client_src[usize::from(op.slot)]);
        match op.op {
            OpType::Write => {
                let off = op.offset as usize;
                let end = off + usize::from(op.len);
                if end > self.rtl_served[i].len() {
                    return Ok(());
                }
                let at = (self.top.rtl_served_base + i as u64 * RTL_SERVED_SIZE) as usize + off;
                let host = self.mem.bytes()[at..at + usize::from(op.len)].to_vec();
                let t_sub = self.client_t_sub[usize::from(op.slot)];
                if self.raced(op, t_sub) {
                    self.stats.raced_checks += 1;
                } else if st == Status::Ok && host != src {
                    return Err(fail(format!(
                        "client WRITE {op:?} OK, but host memory differs from its data"
                    )));
                }
                self.rtl_served[i][off..end].copy_from_slice(&host);
            }
            OpType::Rekey if st == Status::Ok => {
                let key: Key = src
                    .get(..16)
                    .and_then(|k| k.try_into().ok())
                    .ok_or_else(|| fail("REKEY source shorter than a key"))?;
                self.rtl_keys[i] = key;
                let t = self.client_t_sub[usize::from(op.slot)];
                self.rekey_spans.push((t, self.cycle));
            }
            _ => {}
        }
        Ok(())
    }

    fn log_frame(&mut self, cycle: u64, sent: bool, f: &[u8]) {
        if self.log_frames
            && let Some(Ok(h)) = f.get(..64).map(Hdr::from_bytes)
        {
            self.frame_log.push((cycle, sent, h));
        }
    }

    /// With `ONERMA_RIG_VCD=path:from:to`, a VCD of the top for cycles `[from, to)` (debugging).
    fn vcd_window(&mut self) {
        let Some(v) = std::env::var_os("ONERMA_RIG_VCD") else {
            return;
        };
        let v = v.to_string_lossy().into_owned();
        let mut it = v.rsplitn(3, ':');
        let (Some(to), Some(from), Some(path)) = (it.next(), it.next(), it.next()) else {
            return;
        };
        let (Ok(from), Ok(to)) = (from.parse::<u64>(), to.parse::<u64>()) else {
            return;
        };
        if self.cycle == from {
            if let Err(e) = self.m.trace_start(std::path::Path::new(path)) {
                eprintln!("vcd: {e}");
            }
        } else if self.cycle == to {
            self.m.trace_stop();
        }
    }

    /// Closed loop for `cycles`: each free client slot gets a READ of `len` bytes at a random
    /// offset of the readable served region with chance `p` per cycle.
    pub fn client_load(&mut self, cycles: u64, len: u16, p: f64) -> Result<(), RigError> {
        let end = self.cycle + cycles;
        while self.cycle < end {
            self.client_submit_some(&[len], p)?;
            self.step()?;
        }
        Ok(())
    }

    /// Both halves at once for `cycles`: the RTL NIC's own ops as [`Rig::load`] (sizes
    /// `sizes`) and the client's READs of the RTL NIC as [`Rig::client_load`] (sizes
    /// `client_sizes`, chance `p` per free client slot and cycle).
    pub fn load_both(
        &mut self,
        cycles: u64,
        sizes: &[u16],
        client_sizes: &[u16],
        p: f64,
    ) -> Result<(), RigError> {
        let end = self.cycle + cycles;
        while self.cycle < end {
            self.submit_some(sizes);
            self.client_submit_some(client_sizes, p)?;
            self.step()?;
        }
        Ok(())
    }

    /// One cycle's client submissions: READs at random offsets of the readable served region,
    /// or with chance [`Rig::client_p_write`] WRITEs to the write-only one.
    fn client_submit_some(&mut self, sizes: &[u16], p: f64) -> Result<(), RigError> {
        let key = *self
            .rtl_keys
            .first()
            .ok_or_else(|| fail("client ops before serve_setup"))?;
        for s in 0..self.top.slots {
            if self.client_free(s) && self.rng.random_bool(p) {
                let len = sizes[self.rng.random_range(0..sizes.len())];
                let offset = self.rng.random_range(0..=RTL_SERVED_SIZE - u64::from(len));
                // WRITEs go to the write-only region: no READ races them.
                let write = self.rng.random_bool(self.client_p_write);
                let op = ClientOp {
                    op: if write { OpType::Write } else { OpType::Read },
                    slot: s,
                    region: if write { RTL_REGION + 1 } else { RTL_REGION },
                    offset,
                    len,
                };
                let key = if write {
                    *self.rtl_keys.get(1).unwrap_or(&key)
                } else {
                    key
                };
                self.client_op(op, key)?;
            }
        }
        Ok(())
    }

    /// Host access errors in the RTL NIC's memory: `ranges` answer SLVERR (or DECERR) to reads
    /// and writes, in the AXI memory model and in the observer's shadow alike. Call before the first step.
    pub fn host_errors(&mut self, ranges: &[(u64, u64, bool)]) {
        for &(start, end, slv) in ranges {
            self.mem
                .add_error(start..end, if slv { Resp::SlvErr } else { Resp::DecErr });
            // The AXI memory answers reads and writes of the range alike.
            for reads in [true, false] {
                self.obs.error_range(onerma_model::ErrorRange {
                    start,
                    end,
                    error: if slv {
                        onerma_model::DmaError::SlvErr
                    } else {
                        onerma_model::DmaError::DecErr
                    },
                    reads,
                });
            }
        }
    }

    /// Steps until every client op completed (or `bound` cycles passed: an error).
    pub fn client_drain(&mut self, bound: u64) -> Result<(), RigError> {
        let end = self.cycle + bound;
        while self.client_ops.iter().any(Option::is_some) {
            if self.cycle >= end {
                return Err(fail(format!(
                    "client ops still in flight: {:?}",
                    self.client_ops
                )));
            }
            self.step()?;
        }
        Ok(())
    }

    pub fn lite_write(&mut self, addr: u64, data: u32) -> Result<(), RigError> {
        self.lite.write(addr, data, 0xf);
        let n = self.lite.done().len();
        for _ in 0..200 {
            self.step()?;
            if self.lite.done().len() > n {
                let d = &self.lite.done()[n];
                if d.resp != Resp::Okay {
                    return Err(fail(format!("register write {addr:#x}: {:?}", d.resp)));
                }
                return Ok(());
            }
        }
        Err(fail(format!("register write {addr:#x} never answered")))
    }

    pub fn rrt(&mut self, index: u16, e: &RrtEntry) -> Result<(), RigError> {
        let flags = regs::rrt_flags::VALID.place(e.valid.into())
            | regs::rrt_flags::PERM_REMOTE_READ.place(e.perm_remote_read.into())
            | regs::rrt_flags::PERM_REMOTE_WRITE.place(e.perm_remote_write.into())
            | regs::rrt_flags::PERM_REMOTE_REKEY.place(e.perm_remote_rekey.into())
            | regs::rrt_flags::PERM_LOCAL_READ.place(e.perm_local_read.into())
            | regs::rrt_flags::PERM_LOCAL_WRITE.place(e.perm_local_write.into());
        for (a, v) in [
            (regs::rrt_index::ADDR, u32::from(index)),
            (regs::rrt_flags::ADDR, flags),
            (regs::rrt_owner_pid::ADDR, e.owner_pid),
            (regs::rrt_base_lo::ADDR, e.base_addr as u32),
            (regs::rrt_base_hi::ADDR, (e.base_addr >> 32) as u32),
            (regs::rrt_size_lo::ADDR, e.size as u32),
            (regs::rrt_size_hi::ADDR, (e.size >> 32) as u32),
            (regs::rrt_key0::ADDR, (e.key >> 96) as u32),
            (regs::rrt_key1::ADDR, (e.key >> 64) as u32),
            (regs::rrt_key2::ADDR, (e.key >> 32) as u32),
            (regs::rrt_key3::ADDR, e.key as u32),
        ] {
            self.lite_write(a, v)?;
        }
        self.lite_write(regs::rrt_commit::ADDR, regs::rrt_commit::COMMIT.place(1))?;
        // The commit took effect at the write's handshake, a cycle or two before its B: the
        // observer learns it at the B (no frame can name the region in between).
        self.ev.push(
            self.cycle,
            ObsEv::Rrt {
                index,
                e: e.clone(),
            },
        );
        Ok(())
    }

    /// Registers, regions and slots, as a driver would program them.
    pub fn setup(&mut self) -> Result<(), RigError> {
        let c = self.cfg.clone();
        for (a, v) in [
            (regs::nic_addr::ADDR, c.nic_addr),
            (regs::clk_period_ps::ADDR, c.clk_period_ps),
            (regs::dispatch_timeout::ADDR, c.dispatch_timeout as u32),
            (regs::op_timeout::ADDR, c.op_timeout as u32),
            (regs::server_timeout::ADDR, c.server_timeout as u32),
            (regs::max_hold_ns::ADDR, c.max_hold_ns),
            (regs::hold_ns::ADDR, c.hold_ns()),
            (regs::inq_max_age::ADDR, c.inq_max_age as u32),
            (regs::nack_depth::ADDR, u32::from(c.nack_depth)),
        ] {
            self.lite_write(a, v)?;
        }
        let t = self.top;
        for (index, base, size, rd) in [
            (0u16, t.data_base, t.data_size(), 1u8),
            (1, t.cq_base, CQ_SIZE, 0),
        ] {
            self.rrt(
                index,
                &RrtEntry {
                    valid: 1,
                    perm_remote_read: 0,
                    perm_remote_write: 0,
                    perm_remote_rekey: 0,
                    perm_local_read: rd,
                    perm_local_write: 1,
                    owner_pid: PID,
                    base_addr: base,
                    size,
                    key: 0,
                },
            )?;
        }
        for s in 0..t.slots {
            self.lite_write(regs::slot_index::ADDR, u32::from(s))?;
            self.lite_write(regs::slot_cfg::ADDR, regs::slot_cfg::ENABLE.place(1))?;
            self.lite_write(regs::slot_pid::ADDR, PID)?;
            self.lite_write(regs::slot_commit::ADDR, regs::slot_commit::COMMIT.place(1))?;
            self.ev.push(self.cycle, ObsEv::Enable { slot: s });
        }
        self.lite_write(regs::nic_enable::ADDR, regs::nic_enable::ENABLE.place(1))?;
        Ok(())
    }

    /// A READ of `len` bytes at `offset` of served region `region`, on `slot`.
    pub fn submit_read(&mut self, slot: u16, region: u16, offset: u64, len: u16, cos: u8) {
        self.submit_read_cq(slot, region, offset, len, cos, 1);
    }

    /// [`Rig::submit_read`] with its record in region `cq_region` (1 is the registered one).
    pub fn submit_read_cq(
        &mut self,
        slot: u16,
        region: u16,
        offset: u64,
        len: u16,
        cos: u8,
        cq_region: u16,
    ) {
        self.submit_op(OpType::Read, slot, region, offset, len, cos, cq_region);
    }

    /// Software writes `data` at `addr` of the RTL NIC's host memory (e.g. a WRITE's source),
    /// shown to the observer.
    pub fn load_source(&mut self, addr: u64, data: &[u8]) {
        let (db, ds) = (self.top.data_base, self.top.data_size());
        if (db..db + ds).contains(&addr) {
            let slot = ((addr - db) / 8192) as usize;
            if let Some(e) = self.src_end.get_mut(slot) {
                *e = addr + data.len() as u64;
            }
        }
        let _ = self.mem.load(addr as usize, data);
        self.ev.push(
            self.cycle,
            ObsEv::Software {
                addr,
                data: data.to_vec(),
            },
        );
    }

    /// A READ or WRITE of `len` bytes at `offset` of served region `region`, on `slot` (the
    /// local buffer at `slot * 8192` of region 0), its record in the registered region.
    pub fn submit(&mut self, op: OpType, slot: u16, region: u16, offset: u64, len: u16, cos: u8) {
        self.submit_op(op, slot, region, offset, len, cos, 1);
    }

    /// [`Rig::submit`] with its record in region `cq_region`.
    #[allow(clippy::too_many_arguments)]
    pub fn submit_op(
        &mut self,
        op: OpType,
        slot: u16,
        region: u16,
        offset: u64,
        len: u16,
        cos: u8,
        cq_region: u16,
    ) {
        let kr = self.server_keys[usize::from(region)];
        let kd = crypto::derive_kd(&kr, RTL_ADDR, PID, op).unwrap_or_default();
        let cmd = Cmd {
            op_type: op as u8,
            cos,
            length: len,
            remote_nic: SERVER_ADDR,
            remote_region: region,
            local_region: 0,
            cq_region,
            remote_offset: offset,
            local_offset: u64::from(slot) * 8192,
            cq_offset: u64::from(slot) * 16,
            kd: crypto::key_to_u128(&kd),
        };
        let Ok(bytes) = cmd.to_bytes() else { return };
        // Software clears the slot's record first (mirrored to the observer).
        let cq = self.top.cq_base + u64::from(slot) * 16;
        let _ = self.mem.load(cq as usize, &[0; 16]);
        self.ev.push(
            self.cycle,
            ObsEv::Software {
                addr: cq,
                data: vec![0; 16],
            },
        );
        // One bus-wide beat after another (the small top: four 16-byte beats; the default: one).
        let size = self.top.bus.min(64).trailing_zeros() as u8;
        if let Some(b) = WriteBurst::range(u64::from(slot) * 4096, &bytes, size, self.top.bus) {
            self.cmd.push(b);
            self.cmd_open.push_back((slot, bytes, None));
            self.busy[usize::from(slot)] = Some(u64::MAX);
            self.stats.submitted += 1;
        }
    }

    fn drive(&mut self) -> (MasterOut, SlaveOut, LiteMasterOut) {
        let (bus, words) = (self.top.bus, self.top.words());
        let m = &mut self.m;
        let lo = self.lite.outputs();
        m.set_s_axil_awvalid_i(u8::from(lo.aw.is_some()));
        m.set_s_axil_awaddr_i(lo.aw.unwrap_or(0));
        m.set_s_axil_wvalid_i(u8::from(lo.w.is_some()));
        m.set_s_axil_wdata_i(lo.w.map_or(0, |w| w.0));
        m.set_s_axil_wstrb_i(lo.w.map_or(0, |w| w.1));
        m.set_s_axil_bready_i(u8::from(lo.b_ready));
        m.set_s_axil_arvalid_i(u8::from(lo.ar.is_some()));
        m.set_s_axil_araddr_i(lo.ar.unwrap_or(0));
        m.set_s_axil_rready_i(u8::from(lo.r_ready));
        let co = self.cmd.outputs();
        let aw = co.aw.clone();
        m.set_s_axi_awvalid_i(u8::from(aw.is_some()));
        m.set_s_axi_awid_i(aw.as_ref().map_or(0, |a| a.id));
        m.set_s_axi_awaddr_i(aw.as_ref().map_or(0, |a| a.addr));
        m.set_s_axi_awlen_i(aw.as_ref().map_or(0, |a| a.len));
        m.set_s_axi_awsize_i(aw.as_ref().map_or(0, |a| a.size));
        let w = co.w.clone();
        m.set_s_axi_wvalid_i(u8::from(w.is_some()));
        let mut wd = [0u32; MAX_WORDS];
        if let Some(w) = &w {
            for (k, b) in w.data.iter().enumerate() {
                put_bits(&mut wd, 8 * k, 8, u128::from(*b));
            }
        }
        m.set_s_axi_wdata_i(&wd[..words]);
        m.set_s_axi_wstrb_i(w.as_ref().map_or(0, |w| w.strb));
        m.set_s_axi_wlast_i(u8::from(w.as_ref().is_some_and(|w| w.last)));
        m.set_s_axi_bready_i(u8::from(co.b_ready));
        m.set_s_axi_arvalid_i(0u8);
        m.set_s_axi_rready_i(1u8);
        let so = self.mem.outputs();
        m.set_m_axi_awready_i(u8::from(so.aw_ready));
        m.set_m_axi_wready_i(u8::from(so.w_ready));
        m.set_m_axi_bvalid_i(u8::from(so.b.is_some()));
        m.set_m_axi_bid_i(so.b.as_ref().map_or(0, |b| b.id));
        m.set_m_axi_bresp_i(so.b.as_ref().map_or(0, |b| b.resp.bits()));
        m.set_m_axi_arready_i(u8::from(so.ar_ready));
        m.set_m_axi_rvalid_i(u8::from(so.r.is_some()));
        m.set_m_axi_rid_i(so.r.as_ref().map_or(0, |r| r.id));
        let mut rd = [0u32; MAX_WORDS];
        if let Some(r) = &so.r {
            for (k, b) in r.data.iter().enumerate() {
                put_bits(&mut rd, 8 * k, 8, u128::from(*b));
            }
        }
        m.set_m_axi_rdata_i(&rd[..words]);
        m.set_m_axi_rresp_i(so.r.as_ref().map_or(0, |r| r.resp.bits()));
        m.set_m_axi_rlast_i(u8::from(so.r.as_ref().is_some_and(|r| r.last)));
        // Receive: one frame at a time, BUS bytes per beat, first byte in lane 0.
        if self.rx_cur.is_none() {
            self.rx_cur = self.rx_q.pop_front().map(|f| (f, 0));
        }
        let mut rx = [0u32; MAX_WORDS];
        let mut keep = 0u64;
        let mut last = false;
        if let Some((f, off)) = &self.rx_cur {
            let n = (f.len() - off).min(bus);
            for k in 0..n {
                put_bits(&mut rx, 8 * k, 8, u128::from(f[off + k]));
                keep |= 1 << k;
            }
            last = off + n == f.len();
        }
        self.rx_valid = self.rx_cur.is_some();
        m.set_s_axis_rx_tvalid_i(u8::from(self.rx_valid));
        m.set_s_axis_rx_tdata_i(&rx[..words]);
        m.set_s_axis_rx_tkeep_i(keep);
        m.set_s_axis_rx_tlast_i(u8::from(last));
        self.tx_ready = self.rng.random_bool(self.p_tx_ready);
        m.set_m_axis_tx_tready_i(u8::from(self.tx_ready));
        m.eval();
        let mo = MasterOut {
            ar: (m.m_axi_arvalid_o() != 0).then(|| {
                Addr::incr(
                    m.m_axi_arid_o() as u32,
                    m.m_axi_araddr_o(),
                    m.m_axi_arlen_o() as u16 + 1,
                    m.m_axi_arsize_o() as u8,
                )
            }),
            aw: (m.m_axi_awvalid_o() != 0).then(|| {
                Addr::incr(
                    m.m_axi_awid_o() as u32,
                    m.m_axi_awaddr_o(),
                    m.m_axi_awlen_o() as u16 + 1,
                    m.m_axi_awsize_o() as u8,
                )
            }),
            w: (m.m_axi_wvalid_o() != 0).then(|| {
                let mut wd = [0u32; MAX_WORDS];
                m.m_axi_wdata_o(&mut wd[..words]);
                WBeat {
                    data: (0..bus).map(|k| get_bits(&wd, 8 * k, 8) as u8).collect(),
                    strb: m.m_axi_wstrb_o(),
                    last: m.m_axi_wlast_o() != 0,
                }
            }),
            r_ready: m.m_axi_rready_o() != 0,
            b_ready: m.m_axi_bready_o() != 0,
        };
        (mo, so, lo)
    }

    /// One clock cycle of everything.
    pub fn step(&mut self) -> Result<(), RigError> {
        self.vcd_window();
        let (mo, so, _lo) = self.drive();
        let cyc = self.cycle;
        // Configuration and command buses.
        let ls = LiteSlaveOut {
            aw_ready: self.m.s_axil_awready_o() != 0,
            w_ready: self.m.s_axil_wready_o() != 0,
            b: (self.m.s_axil_bvalid_o() != 0).then(|| resp(self.m.s_axil_bresp_o())),
            ar_ready: self.m.s_axil_arready_o() != 0,
            r: (self.m.s_axil_rvalid_o() != 0).then(|| {
                (
                    self.m.s_axil_rdata_o() as u32,
                    resp(self.m.s_axil_rresp_o()),
                )
            }),
        };
        self.lite
            .tick(&ls)
            .map_err(|e| fail(format!("axil: {e}")))?;
        let cs = SlaveOut {
            aw_ready: self.m.s_axi_awready_o() != 0,
            w_ready: self.m.s_axi_wready_o() != 0,
            b: (self.m.s_axi_bvalid_o() != 0).then(|| BResp {
                id: self.m.s_axi_bid_o() as u32,
                resp: resp(self.m.s_axi_bresp_o()),
            }),
            ar_ready: false,
            r: None,
        };
        let we = self
            .cmd
            .tick(&cs)
            .map_err(|e| fail(format!("cmd bus: {e}")))?;
        if let Some((_, _, w)) = &we.w
            && w.last
            && let Some(o) = self.cmd_open.iter_mut().find(|o| o.2.is_none())
        {
            o.2 = Some(cyc);
            self.doorbells.push(cyc);
        }
        if let Some((_, r)) = &we.b {
            let (slot, bytes, at) = self
                .cmd_open
                .pop_front()
                .ok_or_else(|| fail("command B without a burst"))?;
            let ok = *r == Resp::Okay;
            if !ok {
                self.stats.refused += 1;
                self.busy[usize::from(slot)] = Some(cyc + 50);
            }
            self.ev
                .push(at.unwrap_or(cyc), ObsEv::Cmd { slot, bytes, ok });
        }
        // Host memory.
        if let Some(a) = &mo.ar
            && so.ar_ready
        {
            let len = (a.beats() as u64) << a.size;
            let mut len = len - (a.addr & ((1 << a.size) - 1));
            // The DMA reads whole bus beats; the bytes past the op's source range in the last
            // beat are never used, and the observer grants exactly the source range.
            let (db, ds) = (self.top.data_base, self.top.data_size());
            if (db..db + ds).contains(&a.addr) {
                let slot = ((a.addr - db) / 8192) as usize;
                if let Some(&end) = self.src_end.get(slot) {
                    len = len.min(end.saturating_sub(a.addr));
                }
            }
            // A served READ reads chunk by chunk (1 KB from the op's start), one READ at a
            // time: a burst at a chunk's start opens that chunk, and every burst is trimmed to
            // the open chunk's end (the observer grants each byte once; the last beat of a chunk
            // also holds the next chunk's first bytes). Of READs whose chunks start at the same
            // address, the one whose chunk length fits the burst's beat count (a burst ends at
            // its chunk's end unless a 4 KB page ends first).
            let bus = self.top.bus as u64;
            let fits = |e: u64| {
                let l = e.min(a.addr + 1024) - a.addr;
                let page_end = (a.addr | 0xfff) + 1;
                let burst_end = (a.addr & !(bus - 1)) + a.beats() as u64 * bus;
                burst_end == page_end || (a.addr % bus + l).div_ceil(bus) == a.beats() as u64
            };
            let starts: Vec<u64> = self
                .served_ranges
                .iter()
                .filter(|&&(s, e)| (s..e).contains(&a.addr) && (a.addr - s).is_multiple_of(1024))
                .map(|&(_, e)| e)
                .collect();
            if let Some(e) = starts.iter().find(|&&e| fits(e)).or(starts.first()) {
                self.served_chunk_end = Some((*e).min(a.addr + 1024));
            }
            if let Some(end) = self.served_chunk_end.filter(|&e| a.addr < e) {
                len = len.min(end - a.addr);
            }
            self.ev.push(cyc, ObsEv::Read { addr: a.addr, len });
        }
        if let Some(a) = &mo.aw
            && so.aw_ready
        {
            self.w_aws.push_back((a.clone(), cyc));
            self.b_addrs.push_back(a.addr);
        }
        if let Some(w) = &mo.w
            && so.w_ready
        {
            self.w_beats.push(w.clone());
            if w.last {
                let done = std::mem::take(&mut self.w_beats);
                self.w_done.push_back(done);
            }
        }
        // A record's B frees its slot in the RTL NIC (and, by then, in the model): the slot may
        // get its next command `reuse_after` cycles later.
        if so.b.is_some() && mo.b_ready {
            let a = self
                .b_addrs
                .pop_front()
                .ok_or_else(|| fail("B without an AW"))?;
            let cq = self.top.cq_base;
            if (cq..cq + CQ_SIZE).contains(&a) {
                let slot = ((a - cq) / 16) as usize;
                if let Some(b) = self.busy.get_mut(slot) {
                    *b = Some(cyc + self.reuse_after);
                }
            }
        }
        // W beats may come before their AW (AXI4): pair whole bursts with AWs in order.
        while !self.w_aws.is_empty() && !self.w_done.is_empty() {
            let (Some((a, issued)), Some(beats)) =
                (self.w_aws.pop_front(), self.w_done.pop_front())
            else {
                break;
            };
            {
                // Every strobed run of bytes is one host write as the observer sees them.
                let mut run: Option<(u64, Vec<u8>)> = None;
                for (n, b) in beats.iter().enumerate() {
                    for addr in a.beat_bytes(n) {
                        let lane = (addr % self.top.bus as u64) as usize;
                        if b.strb >> lane & 1 == 1 {
                            match run.as_mut() {
                                Some((s, d)) if *s + d.len() as u64 == addr => d.push(b.data[lane]),
                                _ => {
                                    if let Some((s, d)) = run.take() {
                                        self.host_write(issued, s, d);
                                    }
                                    run = Some((addr, vec![b.data[lane]]));
                                }
                            }
                        }
                    }
                }
                if let Some((s, d)) = run {
                    self.host_write(issued, s, d);
                }
            }
        }
        if let Some(r) = &so.r
            && mo.r_ready
            && r.resp != Resp::Okay
        {
            self.stats.read_errors += 1;
        }
        self.mem
            .tick(&mo)
            .map_err(|e| fail(format!("host memory: {e}")))?;
        // Network.
        if self.rx_valid
            && self.m.s_axis_rx_tready_o() != 0
            && let Some((f, off)) = self.rx_cur.as_mut()
        {
            *off = (*off + self.top.bus).min(f.len());
            if *off == f.len() {
                let f = std::mem::take(f);
                self.rx_cur = None;
                self.stats.frames_in += 1;
                self.log_frame(cyc, false, &f);
                self.ev.push(cyc, ObsEv::Receive(f));
            }
        }
        if self.m.m_axis_tx_tvalid_o() != 0 && self.tx_ready {
            if self.tx_buf.is_empty() {
                self.tx_starts.push(cyc);
            }
            let mut words = [0u32; MAX_WORDS];
            self.m.m_axis_tx_tdata_o(&mut words[..self.top.words()]);
            let keep = self.m.m_axis_tx_tkeep_o();
            for k in 0..self.top.bus {
                if keep >> k & 1 == 1 {
                    self.tx_buf.push(get_bits(&words, 8 * k, 8) as u8);
                }
            }
            if self.m.m_axis_tx_tlast_o() != 0 {
                let f = std::mem::take(&mut self.tx_buf);
                self.stats.frames_out += 1;
                self.stats.tx_payload += f.len().saturating_sub(80) as u64;
                self.sys.send_external(cyc, 0, f.clone());
                self.log_frame(cyc, true, &f);
                self.ev.push(cyc, ObsEv::Frame(f));
            }
        }
        self.m.tick();
        self.cycle += 1;
        // The model side up to this cycle; frames for the RTL NIC queue at its port.
        self.sys.run_until(self.cycle);
        for (_, _, f) in self.sys.external_rx.drain(..) {
            self.rx_q.push_back(f);
        }
        self.stats.rx_backlog_max = self.stats.rx_backlog_max.max(self.rx_q.len() as u64);
        if !self.sys.errors.is_empty() {
            return Err(fail(format!("model errors: {:?}", self.sys.errors)));
        }
        self.client_completions()?;
        self.feed_observer(self.cycle.saturating_sub(HOLD))
    }

    fn host_write(&mut self, cyc: u64, addr: u64, data: Vec<u8>) {
        self.stats.host_bytes += data.len() as u64;
        // A completion record: the slot may be reused once its write is answered.
        let cq = self.top.cq_base;
        if (cq..cq + CQ_SIZE).contains(&addr)
            && data.len() == 16
            && let Ok(c) = Cpl::from_bytes(&data)
        {
            self.stats.records += 1;
            if let Some(n) = self.stats.statuses.get_mut(c.status as usize) {
                *n += 1;
            }
            if c.status == Status::Ok {
                self.stats.ok += 1;
                if let Some((region, key)) = self
                    .rekeys
                    .get_mut(usize::from(c.slot))
                    .and_then(Option::take)
                {
                    self.server_keys[usize::from(region)] = key;
                    self.stats.rekeys += 1;
                }
            }
        }
        self.ev.push(cyc, ObsEv::Write { addr, data });
    }

    fn feed_observer(&mut self, until: u64) -> Result<(), RigError> {
        while let Some((c, e)) = self.ev.pop_until(until) {
            let r = match e {
                ObsEv::Cmd { slot, bytes, ok } => self.obs.cmd_write(c, slot, 0, &bytes, ok),
                ObsEv::Receive(f) => {
                    trace(c, "in ", &f);
                    self.obs.receive(c, &f).map(|_| ())
                }
                ObsEv::Frame(f) => {
                    trace(c, "out", &f);
                    self.obs.seen(c, Seen::Frame(&f))
                }
                ObsEv::Write { addr, data } => {
                    self.obs.seen(c, Seen::HostWrite { addr, data: &data })
                }
                ObsEv::Read { addr, len } => self.obs.seen(c, Seen::HostRead { addr, len }),
                ObsEv::Software { addr, data } => {
                    self.obs.software_write(addr, &data);
                    Ok(())
                }
                ObsEv::Rrt { index, e } => self.obs.commit_rrt(c, index, e),
                ObsEv::Enable { slot } => self.obs.enable_slot(slot, PID),
            };
            r.map_err(|e| fail(format!("observer: {e}")))?;
        }
        if until.is_multiple_of(32) {
            self.obs
                .advance(until)
                .map_err(|e| fail(format!("observer: {e}")))?;
        }
        Ok(())
    }

    /// Closed loop: free slots get a new READ; run for `cycles`, then drain.
    pub fn run_reads(&mut self, cycles: u64, sizes: &[u16]) -> Result<(), RigError> {
        self.load(cycles, sizes)?;
        self.drain()
    }

    /// Closed loop for `cycles`: each free slot gets a new READ (size from `sizes`, random
    /// served region, offset and class) with chance [`Rig::p_submit`] per cycle.
    pub fn load(&mut self, cycles: u64, sizes: &[u16]) -> Result<(), RigError> {
        let start = self.cycle;
        while self.cycle < start + cycles {
            self.submit_some(sizes);
            self.step()?;
        }
        Ok(())
    }

    /// One cycle's submissions of [`Rig::load`].
    fn submit_some(&mut self, sizes: &[u16]) {
        for s in 0..self.top.slots {
            let free = self.busy[usize::from(s)].is_none_or(|t| t <= self.cycle);
            if free && self.rng.random_bool(self.p_submit) {
                let region = self.rng.random_range(0..REGIONS_SERVED);
                let cos = self.rng.random_range(0..self.top.classes.min(2));
                let pick: f64 = self.rng.random();
                if pick < self.p_rekey {
                    // The new key is the slot's source bytes; later commands use it once
                    // the REKEY completed OK (commands in between fail authentication).
                    let key: Key = self.rng.random();
                    self.load_source(self.top.data_base + u64::from(s) * 8192, &key);
                    self.rekeys[usize::from(s)] = Some((region, key));
                    self.submit(OpType::Rekey, s, region, 0, 16, cos);
                    continue;
                }
                let len = sizes[self.rng.random_range(0..sizes.len())];
                let offset = self.rng.random_range(0..=SERVED_SIZE - u64::from(len));
                if pick < self.p_rekey + self.p_write {
                    let data: Vec<u8> = (0..len).map(|_| self.rng.random()).collect();
                    self.load_source(self.top.data_base + u64::from(s) * 8192, &data);
                    self.rekeys[usize::from(s)] = None;
                    self.submit(OpType::Write, s, region, offset, len, cos);
                } else {
                    self.rekeys[usize::from(s)] = None;
                    self.submit_read(s, region, offset, len, cos);
                }
            }
        }
    }

    /// Every op completes (within the completion bound), every held observer input is shown,
    /// and the observer ends: whatever the RTL NIC still owes is an error.
    pub fn drain(&mut self) -> Result<(), RigError> {
        // Drain: every op completes within the completion bound.
        let bound = self.cycle + 200_000;
        while self.busy.iter().any(|b| b.is_some_and(|t| t > self.cycle)) {
            if self.cycle >= bound {
                return Err(fail(format!("ops still in flight: {:?}", self.busy)));
            }
            self.step()?;
        }
        for _ in 0..2 * HOLD {
            self.step()?;
        }
        self.feed_observer(self.cycle)?;
        self.obs
            .finish(self.cycle)
            .map_err(|e| fail(format!("observer at the end: {e}")))?;
        Ok(())
    }
}

/// Both halves at once (the mixed-mode suites' tests of it): on a faulty fabric with host memory
/// back-pressure, the RTL NIC's own closed loop (READs and 30 % WRITEs to the model server) and
/// the client's ops on the RTL NIC (`client_p_write` of them WRITEs to the write-only region) for
/// `cycles`, then everything drained and the observer finished. Returns the rig for the caller's
/// checks.
pub fn both_halves(seed: u64, client_p_write: f64, cycles: u64) -> Result<Rig, RigError> {
    both_halves_with(seed, client_p_write, 0.0, cycles)
}

/// [`both_halves`] with a share `p_rekey` of REKEYs among the RTL NIC's own ops (to the model
/// server's regions).
pub fn both_halves_with(
    seed: u64,
    client_p_write: f64,
    p_rekey: f64,
    cycles: u64,
) -> Result<Rig, RigError> {
    let mut rig = Rig::new(seed, fabric(seed, true, false), memory(seed, 6, 0.8), 0.9);
    rig.setup()?;
    rig.serve_setup()?;
    rig.p_submit = 0.02;
    rig.p_write = 0.3;
    rig.p_rekey = p_rekey;
    rig.client_p_write = client_p_write;
    rig.load_both(
        cycles,
        &[1, 64, 700, 1024, 2048],
        &[1, 64, 1000, 4096],
        0.02,
    )?;
    rig.client_drain(120_000)?;
    rig.run_reads(0, &[1])?;
    Ok(rig)
}

/// With `ONERMA_RIG_TRACE` set, every frame the RTL NIC receives and sends, one line each
/// (debugging a divergence the observer reports).
fn trace(cycle: u64, dir: &str, f: &[u8]) {
    if std::env::var_os("ONERMA_RIG_TRACE").is_none() {
        return;
    }
    match f.get(..64).map(Hdr::from_bytes) {
        Some(Ok(h)) => eprintln!(
            "{cycle:>8} {dir} {} src {:#x} counter {:#x} status {:?}",
            onerma_model::hdr_text(&h),
            h.src_nic,
            h.counter,
            h.status
        ),
        _ => eprintln!("{cycle:>8} {dir} {} bytes, no header", f.len()),
    }
}

/// The fabric of the mixed-mode runs. `faults`: jitter, 2 % drops, 5 % reordering, and either
/// 2 % duplicates or 2 % corrupted frames (`corrupt`). Not both: whether a genuine copy behind a
/// corrupted one is a duplicate (S1) depends on the device's receive-crypto latency, which the
/// observer's shadow models as one fixed number while the RTL's varies with the engine queue.
pub fn fabric(seed: u64, faults: bool, corrupt: bool) -> FabricConfig {
    FabricConfig {
        seed,
        latency: 40,
        bytes_per_cycle: 16,
        jitter_mean: if faults { 10.0 } else { 0.0 },
        drop: if faults { 0.02 } else { 0.0 },
        duplicate: if faults && !corrupt { 0.02 } else { 0.0 },
        corrupt: if faults && corrupt { 0.02 } else { 0.0 },
        reorder: if faults { 0.05 } else { 0.0 },
        reorder_window: 200,
        ..FabricConfig::default()
    }
}

pub fn memory(seed: u64, latency: u64, p: f64) -> MemConfig {
    MemConfig {
        bus_bytes: BUS,
        size: 1 << 20,
        read_latency: latency,
        write_latency: latency,
        p_ready: p,
        p_resp: p,
        seed,
        errors: Vec::new(),
    }
}
