//! Shared helpers for the RTL tests.
