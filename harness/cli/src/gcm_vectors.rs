//! `onerma gcm-vectors FILE`: runs AES-GCM test vectors in the Wycheproof `aes_gcm_test.json`
//! schema through the RTL engine. Only AES-128 / 96-bit IV / 128-bit tag cases are run; the
//! other groups are counted as skipped and listed.
//!
//! Per case: `valid` and `acceptable` cases must encrypt to the listed ciphertext and tag and
//! decrypt (with the listed tag) to the message with auth_ok = 1; `invalid` cases must decrypt
//! with auth_ok = 0 (their listed ciphertext/tag are deliberately wrong, so they are not
//! encrypted).

use crate::error::CliError;
use onerma_rtl_tests::gcm::{self, GcmMsg, GcmPorts, Stalls};
use serde_json::Value;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Test-vector file (Wycheproof aes_gcm_test.json schema).
    file: PathBuf,
    /// Use the iterative engine (gcm_iter) instead of the pipelined one (gcm_pipe).
    #[arg(long)]
    iterative: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Valid,
    Invalid,
}

struct Case {
    tc_id: u64,
    key: [u8; 16],
    iv: [u8; 12],
    aad: Vec<u8>,
    msg: Vec<u8>,
    ct: Vec<u8>,
    tag: [u8; 16],
    expect: Expect,
}

/// Cases the engine takes, plus one line per skipped group.
struct Parsed {
    cases: Vec<Case>,
    skipped: usize,
    skipped_groups: Vec<String>,
}

fn bad(path: &std::path::Path, what: impl std::fmt::Display) -> CliError {
    CliError::Usage(format!(
        "{}: not a usable AES-GCM vector file: {what}",
        path.display()
    ))
}

fn hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}

fn parse(path: &std::path::Path, text: &str) -> Result<Parsed, CliError> {
    let root: Value = serde_json::from_str(text).map_err(|e| bad(path, e))?;
    let groups = root
        .get("testGroups")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(path, "no testGroups array"))?;
    let mut out = Parsed {
        cases: Vec::new(),
        skipped: 0,
        skipped_groups: Vec::new(),
    };
    for (gi, g) in groups.iter().enumerate() {
        let num = |k: &str| {
            g.get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| bad(path, format!("testGroups[{gi}] has no numeric {k}")))
        };
        let (key_size, iv_size, tag_size) = (num("keySize")?, num("ivSize")?, num("tagSize")?);
        let tests = g
            .get("tests")
            .and_then(Value::as_array)
            .ok_or_else(|| bad(path, format!("testGroups[{gi}] has no tests array")))?;
        if (key_size, iv_size, tag_size) != (128, 96, 128) {
            let ids: Vec<String> = tests
                .iter()
                .filter_map(|t| t.get("tcId").and_then(Value::as_u64))
                .map(|i| i.to_string())
                .collect();
            out.skipped += tests.len();
            out.skipped_groups.push(format!(
                "skipped: keySize {key_size}, ivSize {iv_size}, tagSize {tag_size}: {} cases \
                 (tcId {})",
                tests.len(),
                ids.join(",")
            ));
            continue;
        }
        for (ti, t) in tests.iter().enumerate() {
            let at = || format!("testGroups[{gi}].tests[{ti}]");
            let field = |k: &str| -> Result<Vec<u8>, CliError> {
                t.get(k)
                    .and_then(Value::as_str)
                    .and_then(hex)
                    .ok_or_else(|| bad(path, format!("{}: {k} missing or not hex", at())))
            };
            let tc_id = t
                .get("tcId")
                .and_then(Value::as_u64)
                .ok_or_else(|| bad(path, format!("{}: no tcId", at())))?;
            let expect = match t.get("result").and_then(Value::as_str) {
                Some("valid") | Some("acceptable") => Expect::Valid,
                Some("invalid") => Expect::Invalid,
                _ => {
                    return Err(bad(
                        path,
                        format!("{}: result is not valid/invalid/acceptable", at()),
                    ));
                }
            };
            let sized = |k: &str, n: usize| -> Result<Vec<u8>, CliError> {
                let v = field(k)?;
                if v.len() != n {
                    return Err(bad(
                        path,
                        format!("{}: {k} is {} bytes, group says {n}", at(), v.len()),
                    ));
                }
                Ok(v)
            };
            let key = sized("key", 16)?;
            let iv = sized("iv", 12)?;
            let tag = sized("tag", 16)?;
            let (aad, msg, ct) = (field("aad")?, field("msg")?, field("ct")?);
            if aad.len() > gcm::MAX_LEN || msg.len() > gcm::MAX_LEN || ct.len() != msg.len() {
                return Err(bad(path, format!("{}: lengths not supported", at())));
            }
            out.cases.push(Case {
                tc_id,
                key: key.try_into().map_err(|_| bad(path, "key"))?,
                iv: iv.try_into().map_err(|_| bad(path, "iv"))?,
                aad,
                msg,
                ct,
                tag: tag.try_into().map_err(|_| bad(path, "tag"))?,
                expect,
            });
        }
    }
    Ok(out)
}

/// Messages per run: metas must be unique within one driver run.
const BATCH: usize = 128;

/// Runs every case on the model; returns one line per failure.
fn check_all<M: GcmPorts>(m: &mut M, cases: &[Case]) -> Result<Vec<String>, CliError> {
    let mut failures = Vec::new();
    for chunk in cases.chunks(BATCH) {
        // Encrypt (valid cases) then decrypt (every case), two messages per case at most.
        let mut msgs = Vec::new();
        let mut owner = Vec::new();
        for (i, c) in chunk.iter().enumerate() {
            if c.expect == Expect::Valid {
                owner.push((i, false));
                msgs.push(GcmMsg {
                    key: c.key,
                    iv: c.iv,
                    aad: c.aad.clone(),
                    data: c.msg.clone(),
                    decrypt: false,
                    tag: [0; 16],
                    meta: 0,
                });
            }
            owner.push((i, true));
            msgs.push(GcmMsg {
                key: c.key,
                iv: c.iv,
                aad: c.aad.clone(),
                data: c.ct.clone(),
                decrypt: true,
                tag: c.tag,
                meta: 0,
            });
        }
        for (k, msg) in msgs.iter_mut().enumerate() {
            msg.meta = k as u8;
        }
        m.reset(2);
        let run = gcm::run(m, &msgs, Stalls::NONE, 1, 100_000)
            .map_err(|e| CliError::CheckFailed(format!("RTL run failed: {e}")))?;
        for ((i, decrypt), out) in owner.iter().zip(&run.outcomes) {
            let c = &chunk[*i];
            let id = c.tc_id;
            match (decrypt, c.expect) {
                (false, _) => {
                    if out.data != c.ct {
                        failures.push(format!("tcId {id}: encrypt: ciphertext differs"));
                    }
                    if out.tag != c.tag {
                        failures.push(format!("tcId {id}: encrypt: tag differs"));
                    }
                }
                (true, Expect::Valid) => {
                    if !out.auth_ok {
                        failures.push(format!("tcId {id}: decrypt: valid case rejected"));
                    } else if out.data != c.msg {
                        failures.push(format!("tcId {id}: decrypt: plaintext differs"));
                    }
                }
                (true, Expect::Invalid) => {
                    if out.auth_ok {
                        failures.push(format!("tcId {id}: decrypt: invalid case accepted"));
                    }
                }
            }
        }
    }
    Ok(failures)
}

pub fn run(a: &Args) -> Result<(), CliError> {
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| CliError::Usage(format!("{}: cannot read: {e}", a.file.display())))?;
    let parsed = parse(&a.file, &text)?;
    let failures = if a.iterative {
        check_all(&mut onerma_rtl::gcm_iter::Model::new(), &parsed.cases)?
    } else {
        check_all(&mut onerma_rtl::gcm_pipe::Model::new(), &parsed.cases)?
    };
    // A case fails once even if both its encryption and decryption are wrong.
    let mut failed_ids: Vec<&str> = failures
        .iter()
        .filter_map(|f| f.split(':').next())
        .collect();
    failed_ids.dedup();
    let failed = failed_ids.len();
    let passed = parsed.cases.len() - failed;
    for line in &parsed.skipped_groups {
        println!("{line}");
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    println!(
        "{passed} passed, {failed} failed, {} skipped",
        parsed.skipped
    );
    if failed > 0 {
        return Err(CliError::CheckFailed(format!(
            "{failed} of {} AES-GCM vectors failed",
            parsed.cases.len()
        )));
    }
    Ok(())
}
