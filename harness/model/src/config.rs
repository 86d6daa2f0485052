//! Configuration registers and synthesis parameters of one NIC (protocol.md §1, §6).

use serde::{Deserialize, Serialize};

use crate::error::ModelError;
use crate::host::HostConfig;
use crate::timing::Timing;

/// Most classes the model supports (the RTL parameter is far smaller).
pub const MAX_CLASSES: usize = 16;

/// Registers and parameters of one NIC. Times in cycles of this NIC's clock unless named `_ns`
/// or `_ps`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NicConfig {
    pub nic_addr: u32,
    pub epoch: u16,
    /// Clock period in ps (register `clk_period_ps`; 4000 = 250 MHz).
    pub clk_period_ps: u32,
    pub num_slots: u16,
    pub num_regions: u16,
    pub num_classes: u8,
    /// Solicitation window in 64-byte lines.
    pub window_lines: u32,
    /// Entries shared by the READ and WRITE/REKEY inbound queues.
    pub in_queue_depth: u16,
    pub num_write_ctx: u16,
    pub dispatch_timeout: u64,
    pub op_timeout: u64,
    pub server_timeout: u64,
    /// Age after which a queued inbound request is discarded unserved (§9).
    pub inq_max_age: u64,
    /// Largest `hold_ns` an initiator accepts in a WR_RDREQ (§6.2).
    pub max_hold_ns: u32,
    pub nack_depth: u16,
    /// Consecutive dispatches that may pass over a waiting lower class (§2.3).
    pub max_starve: u32,
    /// Passes over a waiting class a device may make beyond the anti-starvation bound
    /// (`max_starve + num_classes - 1`, protocol.md §2.3) because its submission pipeline shows
    /// a new command to its arbiter a few cycles after the doorbell: the dispatches of those
    /// cycles pass over a class the model already counts as waiting. 0 for the model itself.
    pub starve_slack: u32,
    /// Cycles a DISPATCH_TIMEOUT acts late (the observer's shadow: a device's dispatch is seen
    /// only when its request leaves, up to the transmit latency later, so the shadow keeps a
    /// queued op that long and a device record ends it at once). 0 for the model itself.
    pub dispatch_lag: u64,
    /// Most cycles a frame-less deadline action may be late (§6.1). The model acts on time;
    /// the checker accepts a device acting anywhere in `[D, D + timer_slack]`.
    pub timer_slack: u64,
    /// How late (<= `timer_slack`) this model acts on the frame-less deadline actions: a TIMEOUT
    /// completion, a context expiry. Frames are still compared with the exact deadline. 0 = on
    /// time; the property tests draw it. The inbound age limit (§9) is always applied on time.
    pub deadline_lag: u64,
    /// Bound from a frame's last beat to its tag result (`RxCryptoMax`, §6.3).
    pub rx_crypto_max: u64,
    /// The model's receive crypto latency (<= `rx_crypto_max`): a received chunk is pending
    /// this many cycles before its tag result. 0 = instantaneous.
    pub rx_crypto_latency: u64,
    /// Host write throughput of the datapath (`HostWriteBytesPerCycle`, §6.2).
    pub host_write_bytes_per_cycle: u32,
    /// Host interface bounds (§6.3): every write complete within this many cycles of issue.
    pub host_write_max: u64,
    /// Every read's data at the NIC within this many cycles of issue.
    pub host_read_max: u64,
    pub host: HostConfig,
    /// Log every (key, IV) used for encryption (tests; costs memory).
    pub record_key_iv: bool,
    /// Log every host DMA write (tests; costs memory).
    pub log_host_writes: bool,
}

impl Default for NicConfig {
    fn default() -> Self {
        // protocol.md §6.4 defaults at a 250 MHz NIC clock.
        Self {
            nic_addr: 1,
            epoch: 0,
            clk_period_ps: 4000,
            num_slots: 64,
            num_regions: 256,
            num_classes: 4,
            window_lines: 1024,
            in_queue_depth: 32,
            num_write_ctx: 16,
            dispatch_timeout: 2_500,
            op_timeout: 5_000,
            server_timeout: 2_000,
            inq_max_age: 3_750,
            max_hold_ns: 14_200,
            nack_depth: 16,
            max_starve: 16,
            starve_slack: 0,
            dispatch_lag: 0,
            timer_slack: 64,
            deadline_lag: 0,
            rx_crypto_max: 200,
            rx_crypto_latency: 0,
            host_write_bytes_per_cycle: 64,
            host_write_max: 250,
            host_read_max: 250,
            host: HostConfig::default(),
            record_key_iv: false,
            log_host_writes: false,
        }
    }
}

impl NicConfig {
    /// Checks the parameter ranges the protocol requires.
    ///
    /// # Errors
    /// [`ModelError::Config`] naming the first bad parameter.
    pub fn validate(&self) -> Result<(), ModelError> {
        let bad = |m: &str| Err(ModelError::Config(m.to_string()));
        if self.num_slots == 0 || self.num_slots > 1024 {
            return bad("num_slots must be in 1..=1024");
        }
        if self.num_classes == 0 || usize::from(self.num_classes) > MAX_CLASSES {
            return bad("num_classes must be in 1..=16");
        }
        if self.window_lines < crate::wire::QUANTUM_LINES {
            return bad("window_lines must be >= 64 (DISPATCH_QUANTUM_BYTES)");
        }
        if self.nack_depth > self.in_queue_depth {
            return bad("nack_depth must be <= in_queue_depth");
        }
        if self.num_write_ctx == 0 || self.num_write_ctx > 4096 {
            return bad("num_write_ctx must be in 1..=4096");
        }
        if self.clk_period_ps == 0 {
            return bad("clk_period_ps must be > 0");
        }
        if self.host_write_bytes_per_cycle == 0 {
            return bad("host_write_bytes_per_cycle must be > 0");
        }
        if self.deadline_lag > self.timer_slack {
            return bad("deadline_lag must be <= timer_slack");
        }
        if self.rx_crypto_latency > self.rx_crypto_max {
            return bad("rx_crypto_latency must be <= rx_crypto_max");
        }
        if u64::from(self.hold_ns()) == 0 || self.hold_ns() == u32::MAX {
            return bad("the server's hold does not fit hold_ns (32 bits)");
        }
        Ok(())
    }

    /// The §6 quantities of this configuration.
    #[must_use]
    pub fn timing(&self) -> Timing {
        Timing {
            clk_period_ps: self.clk_period_ps,
            dispatch_timeout: self.dispatch_timeout,
            op_timeout: self.op_timeout,
            server_timeout: self.server_timeout,
            rx_crypto_max: self.rx_crypto_max,
            host_write_max: self.host_write_max,
            host_write_bytes_per_cycle: self.host_write_bytes_per_cycle,
            window_lines: self.window_lines,
            num_slots: u32::from(self.num_slots),
            timer_slack: self.timer_slack,
            max_hold_ns: self.max_hold_ns,
        }
    }

    /// `hold_ns` this NIC states in its WR_RDREQs (§6.2), saturated at `u32::MAX`.
    #[must_use]
    pub fn hold_ns(&self) -> u32 {
        u32::try_from(self.timing().hold_ns()).unwrap_or(u32::MAX)
    }

    /// §6.4 bound on (record complete - submission) of every accepted command.
    #[must_use]
    pub fn completion_bound(&self) -> u64 {
        self.timing().completion_bound()
    }
}
