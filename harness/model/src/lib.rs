//! Golden model of the 1RMA NIC and fabric.
//!
//! Written from `docs/protocol.md` (normative) and the 1RMA paper, never from the RTL. Every byte
//! on the wire and in host memory goes through the generated layouts of `onerma-layouts`, so the
//! RTL can be compared with this model packet for packet. See `docs/model.md` for the structure,
//! how hardware choices are inputs, and how to run a scenario.

pub mod config;
pub mod crypto;
pub mod error;
pub mod evq;
pub mod fabric;
pub mod host;
pub mod initiator;
pub mod invariants;
pub mod nic;
pub mod observer;
pub mod policy;
pub mod responder;
pub mod shared;
pub mod sim;
pub mod timing;
pub mod wire;
pub mod workload;

pub use config::NicConfig;
pub use error::{ChoiceError, ModelError, SubmitError};
pub use fabric::{Fabric, FabricConfig, Partition};
pub use host::{
    DmaError, ErrorRange, HostConfig, HostMem, HostPort, HostRead, HostWrite, ReadPurpose,
    WritePurpose,
};
pub use initiator::Initiator;
pub use nic::{Completion, DropReason, Nic, Outputs, RxOutcome, SubmitOutcome};
pub use observer::{
    Divergence, ObserveError, Observer, ObserverConfig, ObserverStats, Seen, hdr_text,
};
pub use policy::{DefaultPolicy, Policy, RandomPolicy};
pub use responder::{InQueue, KeyInstall, Responder};
pub use shared::{NicCounters, Owner, RrtRow, Shared, Window};
pub use sim::System;
pub use workload::{
    BenchRun, ClientSpec, RateSpec, RunStats, Scenario, bench_ops_per_s, bench_ops_per_s_2nic,
    bench_ops_per_s_40nic, bench_run, run_scenario,
};
