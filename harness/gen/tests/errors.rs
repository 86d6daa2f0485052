//! Every spec mistake the generator is meant to catch is caught, with a message naming it.

mod common;

use common::{FIXTURE, fixture_json};
use serde_json::{Value, json};

/// Applies `edit` to the fixture and returns the generator's error message.
fn error_after(edit: impl FnOnce(&mut Value)) -> String {
    // serde_json's `Value` cannot hold integers beyond u64; the wide enum value is not what
    // these tests are about, so shrink it first.
    let json = fixture_json().replace("36893488147419103231", "3");
    let mut v: Value = serde_json::from_str(&json).expect("fixture is JSON");
    edit(&mut v);
    match onerma_gen::parse(&v.to_string(), FIXTURE) {
        Ok(_) => panic!("edited spec was accepted"),
        Err(e) => e.to_string(),
    }
}

fn assert_err(edit: impl FnOnce(&mut Value), needle: &str) {
    let msg = error_after(edit);
    assert!(msg.contains(needle), "expected {needle:?} in {msg:?}");
    assert!(
        msg.contains(FIXTURE),
        "message must name the spec file: {msg:?}"
    );
}

#[test]
fn fixture_itself_is_valid() {
    let spec = onerma_gen::parse(&fixture_json(), FIXTURE).expect("fixture valid");
    assert_eq!(spec.layouts.len(), 4);
}

#[test]
fn bit_sum_mismatch() {
    assert_err(
        |v| v["layouts"][0]["fields"][1]["bits"] = json!(2),
        "fields add up to 129 bits but bytes = 16 needs 128 bits (1 too many)",
    );
    assert_err(
        |v| v["layouts"][2]["bytes"] = json!(2),
        "fields add up to 8 bits but bytes = 2 needs 16 bits (8 missing)",
    );
}

#[test]
fn field_widths() {
    assert_err(
        |v| v["layouts"][2]["fields"][0]["bits"] = json!(0),
        "bits = 0, not in 1..=128",
    );
    assert_err(
        |v| v["layouts"][1]["fields"][0]["bits"] = json!(129),
        "bits = 129, not in 1..=128",
    );
}

#[test]
fn enum_mistakes() {
    assert_err(
        |v| v["layouts"][0]["fields"][0]["enum"] = json!("nope"),
        "refers to unknown enum nope",
    );
    assert_err(
        |v| v["enums"][0]["bits"] = json!(7),
        "does not fit in 7 bits",
    );
    assert_err(
        |v| v["enums"][1]["values"][1]["value"] = json!(8),
        "value B = 8 does not fit in 3 bits",
    );
    assert_err(
        |v| v["enums"][0]["values"][1]["value"] = json!(1),
        "value WRITE = 1 is used twice",
    );
    assert_err(
        |v| v["enums"][0]["values"] = json!([]),
        "enum op has no values",
    );
    assert_err(
        |v| {
            v["enums"][0]["bits"] = json!(16);
        },
        "field op has 8 bits but enum op has 16",
    );
    assert_err(
        |v| v["layouts"][0]["fields"][3]["enum"] = json!("mode"),
        "both reserved and an enum",
    );
}

#[test]
fn names() {
    assert_err(
        |v| v["layouts"][0]["fields"][1]["name"] = json!("Flag"),
        "must be lower_snake_case",
    );
    assert_err(
        |v| v["layouts"][0]["fields"][1]["name"] = json!("type"),
        "keyword",
    );
    assert_err(
        |v| v["layouts"][0]["fields"][1]["name"] = json!("logic"),
        "keyword",
    );
    assert_err(
        |v| v["layouts"][0]["fields"][1]["name"] = json!("op"),
        "field op appears twice",
    );
    assert_err(
        |v| v["enums"][0]["values"][0]["name"] = json!("read"),
        "must be UPPER_SNAKE_CASE",
    );
    assert_err(
        |v| v["constants"][0]["name"] = json!("hdr_bytes"),
        "must be UPPER_SNAKE_CASE",
    );
    // Enum `mode` and layout `mode` both become Rust `Mode`.
    assert_err(
        |v| v["layouts"][2]["name"] = json!("mode"),
        "identifier `Mode` produced by both enum mode and layout mode",
    );
    // Constant HDR_T_BITS would collide with layout hdr's `HdrTBits` in SV.
    assert_err(
        |v| v["constants"][0]["name"] = json!("HDR_T_BITS"),
        "SystemVerilog identifier `HdrTBits` produced by both constant HDR_T_BITS and layout hdr",
    );
    assert_err(
        |v| v["layouts"][2]["name"] = json!("layout"),
        "identifier `Layout`",
    );
}

#[test]
fn schema() {
    // A misspelt key must not silently drop `reserved`.
    assert_err(
        |v| v["layouts"][0]["fields"][3]["reserverd"] = json!(true),
        "unknown field `reserverd`",
    );
    assert_err(
        |v| v["constants"][0]["value"] = json!(-1),
        "invalid JSON or schema",
    );
    assert_err(
        |v| v["constants"][0]["value"] = json!(4_294_967_296u64),
        "does not fit the SV `int unsigned`",
    );
    assert_err(
        |v| v["layouts"][2]["bytes"] = json!(0),
        "bytes must be at least 1",
    );
}
