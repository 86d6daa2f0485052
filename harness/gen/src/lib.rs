//! Generator: spec/layouts.json -> SV package, Rust types, docs
