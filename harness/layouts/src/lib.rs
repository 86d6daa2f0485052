//! Bit layouts shared with the RTL (generated from spec/layouts.json)
