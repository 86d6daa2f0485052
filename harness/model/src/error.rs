//! Errors of the model. Malformed wire or MMIO input is never an error of this kind: it yields
//! the documented status or drop (see [`crate::nic::RxOutcome`]).

use onerma_layouts::LayoutError;

use crate::responder::InQueue;
use thiserror::Error;

/// Misuse of the model's API (bad configuration, out-of-range driver call).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ModelError {
    #[error("invalid configuration: {0}")]
    Config(String),
    #[error("slot {0} does not exist")]
    NoSuchSlot(u16),
    #[error("region {0} does not exist")]
    NoSuchRegion(u16),
    #[error("slot {0} is busy: the driver may not reconfigure it")]
    SlotBusy(u16),
    #[error("NIC index {0} does not exist")]
    NoSuchNic(usize),
    #[error("layout: {0}")]
    Layout(#[from] LayoutError),
    #[error("scenario: {0}")]
    Scenario(String),
    #[error("time went back: input at cycle {now} after cycle {last}")]
    TimeWentBack { now: u64, last: u64 },
    #[error("internal inconsistency of the model: {0}")]
    Internal(String),
}

/// Why the NIC refused an MMIO command write (the bus answers SLVERR, protocol.md §2.1, §2.2
/// step 1). The command never entered the NIC and gets no completion.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SubmitError {
    #[error("slot {0} does not exist (bus decode error)")]
    NoSuchSlot(u16),
    #[error("command write ends at byte {0}: not within the 64-byte page")]
    BadLength(usize),
    #[error("slot {0} is disabled")]
    DisabledSlot(u16),
    #[error("slot {0} is busy")]
    BusySlot(u16),
    #[error("completion region of the command on slot {0} is unusable")]
    BadCompletionRegion(u16),
    #[error(transparent)]
    Model(ModelError),
}

/// A choice fed in (checker mode) that the hardware was not allowed to make.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ChoiceError {
    #[error("class {0} has no queued op")]
    EmptyClass(u8),
    #[error("class {class} chosen but the window has only {free} lines free (needs 64)")]
    WindowShort { class: u8, free: u32 },
    #[error(
        "class {0} (not starving) chosen while another waiting class was passed over MaxStarve + NumClasses - 1 times"
    )]
    Starvation(u8),
    #[error("message counter exhausted: the NIC may not send")]
    CounterExhausted,
    #[error("the NIC is stopped (nic_enable = 0): nothing is dispatched")]
    Stopped,
    #[error("inbound queue {0:?} is empty")]
    EmptyInbound(InQueue),
    #[error("the head of inbound queue {0:?} cannot be served now: {1}")]
    NotServable(InQueue, &'static str),
    #[error("the NIC is in automatic mode: choices come from its policy")]
    AutoMode,
    #[error(transparent)]
    Model(ModelError),
}
