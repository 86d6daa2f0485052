//! Bit layouts shared with the RTL, generated from `spec/layouts.json` by `onerma-gen`.
//!
//! Each layout is a struct with `to_bytes` / `from_bytes` in network order (byte 0 = most
//! significant bits, the first spec field), matching the packed SV struct of the same name in
//! `rtl/onerma_pkg.sv`. Widths are checked when packing rather than in a constructor: the
//! fields are public so a constructor could not enforce anything, and a value too wide for its
//! field must not be silently truncated into a neighbour-free but wrong packet.

pub mod bits;
mod generated;

pub use generated::*;

use thiserror::Error;

/// Why a layout could not be packed or unpacked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LayoutError {
    #[error("{layout}: expected {expected} bytes, got {actual}")]
    Length {
        layout: &'static str,
        expected: usize,
        actual: usize,
    },
    /// `field` is `layout.field`, as in the spec.
    #[error("{field}: reserved bits are nonzero ({value:#x})")]
    ReservedNonZero { field: &'static str, value: u128 },
    #[error("{enum_name}: unknown value {value:#x}")]
    UnknownEnumValue {
        enum_name: &'static str,
        value: u128,
    },
    #[error("{field}: {value:#x} is not a valid {enum_name}")]
    InvalidEnumField {
        field: &'static str,
        enum_name: &'static str,
        value: u128,
    },
    #[error("{field}: {value:#x} does not fit in {bits} bits")]
    FieldOverflow {
        field: &'static str,
        bits: u32,
        value: u128,
    },
    #[error("{layout}: expected {expected} field values, got {actual}")]
    FieldCount {
        layout: &'static str,
        expected: usize,
        actual: usize,
    },
}

/// What a field holds, for code that walks layouts generically (tests, pretty-printers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Value,
    /// Enum `name` (spec spelling), whose values are encoded as `values`.
    Enum {
        name: &'static str,
        values: &'static [u128],
    },
    /// Must be zero.
    Reserved,
}

/// One spec field, reserved fields included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldInfo {
    pub name: &'static str,
    /// Bit offset of the field's most significant bit from the most significant bit of byte 0.
    pub offset: usize,
    pub bits: u32,
    pub kind: FieldKind,
}

/// Implemented by every generated layout struct.
pub trait Layout: Sized + Clone + PartialEq + std::fmt::Debug {
    /// Spec name (`cmd`).
    const NAME: &'static str;
    const BYTES: usize;
    /// Every spec field in spec order (most significant first).
    const FIELDS: &'static [FieldInfo];

    /// The layout's `to_bytes` as a `Vec`, for generic code.
    ///
    /// # Errors
    /// As the layout's `to_bytes`.
    fn encode(&self) -> Result<Vec<u8>, LayoutError>;

    /// The layout's `from_bytes`.
    ///
    /// # Errors
    /// As the layout's `from_bytes`.
    fn decode(b: &[u8]) -> Result<Self, LayoutError>;

    /// Values of the non-reserved fields, in [`FIELDS`](Self::FIELDS) order.
    fn field_values(&self) -> Vec<u128>;

    /// Builds a value from non-reserved field values in [`FIELDS`](Self::FIELDS) order.
    ///
    /// # Errors
    /// Wrong count, a value wider than its field, or an unknown enum encoding.
    fn from_field_values(v: &[u128]) -> Result<Self, LayoutError>;
}

/// Implemented by every generated enum.
pub trait LayoutEnum: Sized + Copy {
    /// Spec name (`op_type`).
    const NAME: &'static str;
    const BITS: u32;
    /// Encodings of all values, in spec order.
    const RAW_VALUES: &'static [u128];

    fn from_u128(raw: u128) -> Option<Self>;
    fn to_u128(self) -> u128;
}
