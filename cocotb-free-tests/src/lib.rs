//! Shared scaffolding for the RTL tests: valid/ready sources, sinks and the stream-rule monitor
//! ([`stream`]), an AXI4 memory model ([`axi`]), an AXI4 write master ([`axi_wmaster`]), an AXI4-Lite master ([`axil`]), and block/word
//! and bit-field conversions ([`bits`]). Everything is cycle based and independent of any
//! Verilated model, so a test connects it to a model's ports in a few lines (the NIC blocks will
//! connect the AXI models the same way). The one block driver built on them, [`gcm`] (feature
//! `crypto`), is connected to the AES-GCM tops here, since the `onerma` CLI runs it as well.

pub mod axi;
pub mod axi_wmaster;
pub mod axil;
pub mod bits;
pub mod dma;
#[cfg(feature = "crypto")]
pub mod gcm;
pub mod later;
#[cfg(feature = "nic")]
pub mod nic_node;
#[cfg(feature = "nic")]
pub mod nic_rig;
#[cfg(feature = "nic")]
pub mod nic_streams;
#[cfg(feature = "nic")]
pub mod nic_sys;
pub mod par;
pub mod stream;

pub use stream::{RuleMonitor, Sink, Source, StreamError, Throttle};

/// The three methods every test's `Dut` trait forwards to a Verilated model, for use inside
/// `impl Dut for onerma_rtl::<top>::Model`: `fresh` (a new model held in reset for two cycles),
/// `eval` and `tick`. The argument is the model type.
#[macro_export]
macro_rules! model_basics {
    ($t:ty) => {
        fn fresh() -> Self {
            let mut m = <$t>::new();
            m.reset(2);
            m
        }
        fn eval(&mut self) {
            <$t>::eval(self);
        }
        fn tick(&mut self) {
            <$t>::tick(self);
        }
    };
}
