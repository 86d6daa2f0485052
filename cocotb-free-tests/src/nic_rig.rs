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

use std::ops::{Deref, DerefMut};

use onerma_layouts::{Cmd, OpType, RrtEntry, Status};
use onerma_model::crypto::{self, Key};
use onerma_model::{FabricConfig, NicConfig, System};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::axi::MemConfig;
pub use crate::nic_node::{Node, Stats};

/// Why a mixed-mode run stopped: the observer's divergence, a bus protocol error, a model error
/// or a bench check.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RigError(pub String);

pub(crate) fn fail(e: impl Into<String>) -> RigError {
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
    /// `RspInFlight`: requests between the responder's admission and their enqueue or reply.
    pub rsp_in_flight: u16,
    /// `RdMaxReads`: the READ server's host reads issued ahead.
    pub rd_max_reads: u16,
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
    /// How far below its observer's shadow the top's inbound occupancy may be when it decides
    /// NACK or enqueue (protocol §7.2 step 4; `ObserverConfig::nack_skew`). The shadow counts a
    /// request at its last beat and a service at its first frame; the top counts a request only
    /// after its checks (up to `RspInFlight` requests are there) and stops counting a service
    /// at its start: a WRITE's until its WR_RDREQ leaves (at most one per write context), a
    /// READ's until its first host read (the READ server starts a READ only when its reads can
    /// go out, with up to `RdMaxReads` reads issued ahead of it) or its first RD_RESP.
    pub fn nack_skew(&self) -> usize {
        usize::from(self.rsp_in_flight)
            + usize::from(self.write_ctx)
            + usize::from(self.rd_max_reads)
            + 1
    }
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
    rsp_in_flight: 4,
    rd_max_reads: 2,
    engines: 1,
    pipelined: false,
    data_base: DATA_BASE,
    cq_base: CQ_BASE,
    rtl_served_base: RTL_SERVED_BASE,
    mem_size: 1 << 20,
};

/// `harness/rtl/tops/nic_default.json` (group `nic`): 64 slots, 4 classes, 256 regions,
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
    rsp_in_flight: 32,
    rd_max_reads: 4,
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
        pub trait NicPorts: Send + 'static {
            /// The top's parameters and the rig's memory map for it.
            const TOP: TopConfig;
            /// A new model held in reset for two cycles.
            fn fresh() -> Self;
            fn eval(&mut self);
            fn tick(&mut self);
            /// Starts an FST wave of the top at `path` (debugging, [`Rig`]'s `ONERMA_RIG_VCD`).
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
/// `nic_default_e8.json`: 8 engines, and the two budgets sized by the engines' rate doubled
/// with them (`RspInFlight` 64, `SealStages` 48; docs/performance.md, the engine curve).
#[cfg(feature = "nic-curve")]
const DEFAULT_E8: TopConfig = TopConfig {
    rsp_in_flight: 64,
    ..default_with(8)
};
#[cfg(feature = "nic-curve")]
with_nic_ports!(nic_ports_impl!(
    onerma_rtl::nic_default_e8::Model,
    16,
    DEFAULT_E8,
));

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

/// The one-RTL-NIC rig: [`Node`] 0 of a model `System` whose NIC 1 is the model server (it
/// serves the RTL NIC's own ops) and the model client (it initiates to the RTL NIC). The node's
/// fields and methods are the rig's (`Deref`).
pub struct Rig<D: NicPorts = Dut> {
    pub node: Node<D>,
    pub sys: System,
    rng: StdRng,
    server_keys: Vec<Key>,
    /// Chance per cycle that a free slot gets a new command in [`Rig::run_reads`].
    pub p_submit: f64,
    /// Of those commands, the share of WRITEs and of REKEYs (the rest are READs).
    pub p_write: f64,
    pub p_rekey: f64,
    /// Per slot: the REKEY in flight `(region, new key)`, installed in the rig's key table when
    /// it completes OK.
    rekeys: Vec<Option<(u16, Key)>>,
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
    /// Share of WRITEs among the client's ops in [`Rig::client_load`] / [`Rig::load_both`].
    pub client_p_write: f64,
    /// The model client's slots: the model NIC's (`scfg.num_slots`), at most 128 (their 8 KB
    /// buffers lie between `CLIENT_BUF_BASE` and `CLIENT_CQ_BASE`).
    client_slots: u16,
}

impl<D: NicPorts> Deref for Rig<D> {
    type Target = Node<D>;
    fn deref(&self) -> &Node<D> {
        &self.node
    }
}

impl<D: NicPorts> DerefMut for Rig<D> {
    fn deref_mut(&mut self) -> &mut Node<D> {
        &mut self.node
    }
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
        mem_cfg: MemConfig,
        p_tx_ready: f64,
        rcfg: NicConfig,
    ) -> Self {
        Self::on_top_served(
            seed,
            fabric,
            mem_cfg,
            p_tx_ready,
            rcfg,
            server_config_for(&D::TOP),
        )
    }

    /// [`Rig::on_top`] with the model server's configuration `scfg` (a variant of
    /// [`server_config_for`] `D::TOP`, e.g. with another host memory).
    pub fn on_top_served(
        seed: u64,
        fabric: FabricConfig,
        mem_cfg: MemConfig,
        p_tx_ready: f64,
        rcfg: NicConfig,
        scfg: NicConfig,
    ) -> Self {
        let top = D::TOP;
        let client_slots = scfg.num_slots.min(128);
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
        let slots = usize::from(top.slots);
        let cs = usize::from(client_slots);
        Self {
            node: Node::new(0, seed, mem_cfg, p_tx_ready, rcfg),
            sys,
            rng,
            server_keys,
            p_submit: 0.125,
            p_write: 0.0,
            p_rekey: 0.0,
            rekeys: vec![None; slots],
            client_ops: vec![None; cs],
            client_done: Vec::new(),
            client_src: vec![Vec::new(); cs],
            client_t_sub: vec![0; cs],
            rekey_spans: Vec::new(),
            write_spans: Vec::new(),
            client_p_write: 0.0,
            client_slots,
        }
    }

    /// Steps until the node's queued register writes are answered (`bound` cycles at most).
    fn lite_wait(&mut self, bound: u64) -> Result<(), RigError> {
        let end = self.cycle + bound;
        while !self.node.lite_idle() {
            if self.cycle >= end {
                return Err(fail("register writes never answered"));
            }
            self.step()?;
        }
        Ok(())
    }

    /// One register write, stepped until it is answered OKAY.
    pub fn lite_write(&mut self, addr: u64, data: u32) -> Result<(), RigError> {
        self.node.lite_queue(addr, data, None);
        self.lite_wait(200)
    }

    /// RRT entry `index` written and committed ([`Node::rrt_queue`]).
    pub fn rrt(&mut self, index: u16, e: &RrtEntry) -> Result<(), RigError> {
        self.node.rrt_queue(index, e);
        self.lite_wait(2_000)
    }

    /// Registers, regions and slots, as a driver would program them ([`Node::setup_queue`]).
    pub fn setup(&mut self) -> Result<(), RigError> {
        self.node.setup_queue();
        self.lite_wait(100_000)
    }

    /// The responder's setup, after [`Rig::setup`]: the RTL NIC's two served regions
    /// ([`Node::serve_queue`]), and the model client's slots and regions on NIC 1.
    pub fn serve_setup(&mut self) -> Result<(), RigError> {
        self.node.serve_queue();
        self.lite_wait(4_000)?;
        let slots = self.client_slots;
        let c = &mut self.sys.nics[1];
        for (index, base, size) in [
            (CLIENT_BUF_REGION, CLIENT_BUF_BASE, u64::from(slots) * 8192),
            (CLIENT_CQ_REGION, CLIENT_CQ_BASE, 4096),
        ] {
            c.write_rrt(
                index,
                onerma_model::shared::local_entry(CLIENT_PID, base, size),
            )
            .map_err(|e| fail(format!("client region: {e}")))?;
        }
        for s in 0..slots {
            c.enable_slot(s, CLIENT_PID)
                .map_err(|e| fail(format!("client slot: {e}")))?;
        }
        Ok(())
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
        if op.op == OpType::Read {
            self.node.expect_served_read(op.region, op.offset, op.len);
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

    /// The client's ops of type `k` that completed OK.
    pub fn client_ok(&self, k: OpType) -> usize {
        self.client_done
            .iter()
            .filter(|(o, s)| o.op == k && *s == Status::Ok)
            .count()
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
        for s in 0..self.client_slots {
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

    /// A READ or WRITE of `len` bytes at `offset` of the model server's region `region`, on
    /// `slot` (the local buffer at `slot * 8192` of region 0), its record in the registered
    /// region.
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
        self.node.submit_to(
            op,
            slot,
            SERVER_ADDR,
            region,
            &kr,
            offset,
            len,
            cos,
            cq_region,
        );
    }

    /// One clock cycle of everything: the RTL NIC's ports, then the model side up to this
    /// cycle (frames for the RTL NIC queue at its port), then the checks.
    pub fn step(&mut self) -> Result<(), RigError> {
        self.node.step_ports()?;
        for (c, f) in std::mem::take(&mut self.node.outbox) {
            self.sys.send_external(c, 0, f);
        }
        self.sys.run_until(self.node.cycle);
        let rx: Vec<Vec<u8>> = self.sys.external_rx.drain(..).map(|(_, _, f)| f).collect();
        self.node.deliver(rx);
        if !self.sys.errors.is_empty() {
            return Err(fail(format!("model errors: {:?}", self.sys.errors)));
        }
        for c in std::mem::take(&mut self.node.records) {
            if c.status == Status::Ok
                && let Some((region, key)) = self
                    .rekeys
                    .get_mut(usize::from(c.slot))
                    .and_then(Option::take)
            {
                self.server_keys[usize::from(region)] = key;
                self.node.stats.rekeys += 1;
            }
        }
        self.client_completions()?;
        self.node.observe()
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
            if self.node.slot_free(s) && self.rng.random_bool(self.p_submit) {
                let region = self.rng.random_range(0..REGIONS_SERVED);
                let cos = self.rng.random_range(0..self.top.classes.min(2));
                let pick: f64 = self.rng.random();
                if pick < self.p_rekey {
                    // The new key is the slot's source bytes; later commands use it once
                    // the REKEY completed OK (commands in between fail authentication).
                    let key: Key = self.rng.random();
                    self.node
                        .load_source(self.node.top.data_base + u64::from(s) * 8192, &key);
                    self.rekeys[usize::from(s)] = Some((region, key));
                    self.submit(OpType::Rekey, s, region, 0, 16, cos);
                    continue;
                }
                let len = sizes[self.rng.random_range(0..sizes.len())];
                let offset = self.rng.random_range(0..=SERVED_SIZE - u64::from(len));
                if pick < self.p_rekey + self.p_write {
                    let data: Vec<u8> = (0..len).map(|_| self.rng.random()).collect();
                    self.node
                        .load_source(self.node.top.data_base + u64::from(s) * 8192, &data);
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
        while self.node.any_busy() {
            if self.cycle >= bound {
                return Err(fail(format!("ops still in flight: {:?}", self.busy)));
            }
            self.step()?;
        }
        for _ in 0..2 * HOLD {
            self.step()?;
        }
        self.node.finish()
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
    both_halves_on::<Dut>(seed, client_p_write, p_rekey, cycles)
}

/// [`both_halves_with`] on top `D` (the default top's test runs it on `nic_default`).
pub fn both_halves_on<D: NicPorts>(
    seed: u64,
    client_p_write: f64,
    p_rekey: f64,
    cycles: u64,
) -> Result<Rig<D>, RigError> {
    let mut rig = Rig::<D>::on_top(
        seed,
        fabric(seed, true, false),
        memory(seed, 6, 0.8),
        0.9,
        rtl_config_for(&D::TOP),
    );
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
