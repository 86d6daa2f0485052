//! Shared scaffolding for the RTL tests: valid/ready sources, sinks and the stream-rule monitor
//! ([`stream`]), an AXI4 memory model ([`axi`]), an AXI4-Lite master ([`axil`]), and block/word
//! conversions ([`bits`]). Everything is cycle based and independent of any Verilated model, so
//! a test connects it to a model's ports in a few lines (the NIC blocks will connect the AXI
//! models the same way).

pub mod axi;
pub mod axil;
pub mod bits;
pub mod stream;

pub use stream::{RuleMonitor, Sink, Source, StreamError, Throttle};
