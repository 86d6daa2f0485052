//! AES-128-GCM engine and pool (`onerma_gcm_engine`, `onerma_gcm_pool`) against RustCrypto
//! `aes-gcm` and the published GCM spec vectors, under random stalls on every port.
//!
//! Decryption is checked as thoroughly as encryption: for any ciphertext the expected plaintext
//! is ciphertext XOR keystream and the expected computed tag is the tag RustCrypto produces when
//! encrypting that plaintext; auth_ok must equal (computed tag == expected tag). Tampered tag,
//! ciphertext, AAD and IV must all give auth_ok = 0.

use aes_gcm::aead::AeadInOut;
use aes_gcm::{Aes128Gcm, KeyInit};
use ghash::GHash;
use ghash::universal_hash::UniversalHash;
use onerma_rtl::{gcm_iter, gcm_pipe, gcm_pool_iter, gcm_pool_wide};
use onerma_rtl_tests::bits;
use onerma_rtl_tests::gcm::{self, GcmMsg, GcmPorts, GcmRun, Stalls};
use proptest::prelude::*;

const RESET_CYCLES: u32 = 2;
const IDLE_LIMIT: u64 = 2_000;

/// RustCrypto AES-128-GCM encryption: (ciphertext, tag).
fn ref_encrypt(key: &[u8; 16], iv: &[u8; 12], aad: &[u8], pt: &[u8]) -> (Vec<u8>, [u8; 16]) {
    let cipher = Aes128Gcm::new(&(*key).into());
    let mut buf = pt.to_vec();
    let tag = cipher
        .encrypt_inout_detached(&(*iv).into(), aad, buf.as_mut_slice().into())
        .expect("lengths are far below the GCM limits");
    (buf, tag.into())
}

/// What the engine must return for a message: (data out, computed tag, auth_ok).
fn expected(msg: &GcmMsg) -> (Vec<u8>, [u8; 16], bool) {
    if msg.decrypt {
        let (ks, _) = ref_encrypt(&msg.key, &msg.iv, &msg.aad, &vec![0; msg.data.len()]);
        let pt: Vec<u8> = msg.data.iter().zip(&ks).map(|(c, k)| c ^ k).collect();
        let (_, tag) = ref_encrypt(&msg.key, &msg.iv, &msg.aad, &pt);
        (pt, tag, tag == msg.tag)
    } else {
        let (ct, tag) = ref_encrypt(&msg.key, &msg.iv, &msg.aad, &msg.data);
        (ct, tag, true)
    }
}

fn run_on<M: GcmPorts>(
    m: &mut M,
    msgs: &[GcmMsg],
    stalls: Stalls,
    seed: u64,
) -> Result<GcmRun, String> {
    m.reset(RESET_CYCLES);
    gcm::run(m, msgs, stalls, seed, IDLE_LIMIT).map_err(|e| e.to_string())
}

fn check_run(msgs: &[GcmMsg], run: &GcmRun) -> Result<(), TestCaseError> {
    prop_assert_eq!(run.outcomes.len(), msgs.len());
    for (msg, out) in msgs.iter().zip(&run.outcomes) {
        let (data, tag, auth_ok) = expected(msg);
        prop_assert_eq!(out.meta, msg.meta);
        prop_assert_eq!(&out.data, &data, "data of meta {}", msg.meta);
        prop_assert_eq!(out.tag, tag, "tag of meta {}", msg.meta);
        prop_assert_eq!(out.auth_ok, auth_ok, "auth_ok of meta {}", msg.meta);
    }
    Ok(())
}

/// A published constant.
fn hex(s: &str) -> Vec<u8> {
    bits::hex(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn arr<const N: usize>(s: &str) -> [u8; N] {
    bits::hex_array(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// McGrew & Viega, "The Galois/Counter Mode of Operation (GCM)", test cases 1-4: the AES-128
/// cases with a 96-bit IV (5 and 6 use 64- and 480-bit IVs, which the engine does not take).
/// (key, iv, plaintext, aad, ciphertext, tag)
const SPEC_CASES: [(&str, &str, &str, &str, &str, &str); 4] = [
    (
        "00000000000000000000000000000000",
        "000000000000000000000000",
        "",
        "",
        "",
        "58e2fccefa7e3061367f1d57a4e7455a",
    ),
    (
        "00000000000000000000000000000000",
        "000000000000000000000000",
        "00000000000000000000000000000000",
        "",
        "0388dace60b6a392f328c2b971b2fe78",
        "ab6e47d42cec13bdf53a67b21257bddf",
    ),
    (
        "feffe9928665731c6d6a8f9467308308",
        "cafebabefacedbaddecaf888",
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
         1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
        "",
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
         21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
        "4d5c2af327cd64a62cf35abd2ba6fab4",
    ),
    (
        "feffe9928665731c6d6a8f9467308308",
        "cafebabefacedbaddecaf888",
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
         1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
        "feedfacedeadbeeffeedfacedeadbeefabaddad2",
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
         21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
        "5bc94fbc3221a5db94fae95ae7121a47",
    ),
];

fn spec_msgs() -> Vec<(GcmMsg, Vec<u8>, [u8; 16])> {
    SPEC_CASES
        .iter()
        .enumerate()
        .map(|(i, (k, iv, p, a, c, t))| {
            let msg = GcmMsg {
                key: arr(k),
                iv: arr(iv),
                aad: hex(a),
                data: hex(p),
                decrypt: false,
                tag: [0; 16],
                meta: i as u8,
            };
            (msg, hex(c), arr(t))
        })
        .collect()
}

#[test]
fn spec_vectors_match_rustcrypto() {
    // Guards the transcription of the constants: the oracle must agree with them too.
    for (msg, ct, tag) in spec_msgs() {
        assert_eq!(
            ref_encrypt(&msg.key, &msg.iv, &msg.aad, &msg.data),
            (ct, tag)
        );
    }
}

fn spec_vectors_on<M: GcmPorts>(m: &mut M) {
    let cases = spec_msgs();
    let mut msgs: Vec<GcmMsg> = cases.iter().map(|c| c.0.clone()).collect();
    // The same cases decrypted with the right tag, then with a wrong one.
    for (i, (msg, ct, tag)) in cases.iter().enumerate() {
        msgs.push(GcmMsg {
            data: ct.clone(),
            decrypt: true,
            tag: *tag,
            meta: 16 + i as u8,
            ..msg.clone()
        });
        let mut bad = *tag;
        bad[15] ^= 1;
        msgs.push(GcmMsg {
            data: ct.clone(),
            decrypt: true,
            tag: bad,
            meta: 32 + i as u8,
            ..msg.clone()
        });
    }
    let run = run_on(m, &msgs, Stalls::NONE, 1).expect("run");
    for (i, (msg, ct, tag)) in cases.iter().enumerate() {
        let enc = &run.outcomes[i];
        assert_eq!(enc.data, *ct, "ciphertext of spec case {}", i + 1);
        assert_eq!(enc.tag, *tag, "tag of spec case {}", i + 1);
        assert!(enc.auth_ok);
        let good = &run.outcomes[cases.len() + 2 * i];
        assert_eq!(good.data, msg.data, "plaintext of spec case {}", i + 1);
        assert!(good.auth_ok, "spec case {} rejected", i + 1);
        let bad = &run.outcomes[cases.len() + 2 * i + 1];
        assert!(
            !bad.auth_ok,
            "spec case {} with a wrong tag accepted",
            i + 1
        );
    }
}

#[test]
fn spec_vectors_pipelined() {
    spec_vectors_on(&mut gcm_pipe::Model::new());
}

#[test]
fn spec_vectors_iterative() {
    spec_vectors_on(&mut gcm_iter::Model::new());
}

#[test]
fn spec_vectors_pool() {
    spec_vectors_on(&mut gcm_pool_iter::Model::new());
    spec_vectors_on(&mut gcm_pool_wide::Model::new());
}

/// GHASH alone, through the engine: with key K the engine's tag for (AAD = A, empty payload) is
/// GHASH_H(A || len) XOR E_K(J0); checking it against `ghash` isolates the multiplier and the
/// lane aggregation from the counter-mode path for every AAD length 0..=80.
#[test]
fn ghash_lengths_match_ghash_crate() {
    let key = arr::<16>("2b7e151628aed2a6abf7158809cf4f3c");
    let iv = arr::<12>("f0e1d2c3b4a5968778695a4b");
    let aes = aes::Aes128::new(&key.into());
    let enc = |b: [u8; 16]| {
        use aes::cipher::BlockCipherEncrypt;
        let mut blk = b.into();
        aes.encrypt_block(&mut blk);
        let out: [u8; 16] = blk.into();
        out
    };
    let h = enc([0; 16]);
    let mut j0 = [0u8; 16];
    j0[..12].copy_from_slice(&iv);
    j0[15] = 1;
    let mask = enc(j0);
    let aad_all: Vec<u8> = (0..80u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect();
    let msgs: Vec<GcmMsg> = (0..=80usize)
        .map(|n| GcmMsg {
            key,
            iv,
            aad: aad_all[..n].to_vec(),
            data: vec![],
            decrypt: false,
            tag: [0; 16],
            meta: n as u8,
        })
        .collect();
    let mut model = gcm_pipe::Model::new();
    let run = run_on(&mut model, &msgs, Stalls::NONE, 7).expect("run");
    for (msg, out) in msgs.iter().zip(&run.outcomes) {
        let mut g = GHash::new(&h.into());
        g.update_padded(&msg.aad);
        let mut len = [0u8; 16];
        len[..8].copy_from_slice(&((msg.aad.len() as u64) * 8).to_be_bytes());
        g.update(&[len.into()]);
        let s: [u8; 16] = g.finalize().into();
        let tag: Vec<u8> = s.iter().zip(&mask).map(|(a, b)| a ^ b).collect();
        assert_eq!(out.tag.to_vec(), tag, "AAD length {}", msg.aad.len());
    }
}

#[derive(Debug, Clone)]
struct MsgSpec {
    key: [u8; 16],
    iv: [u8; 12],
    aad: Vec<u8>,
    data: Vec<u8>,
    /// 0: encrypt; 1: decrypt, right tag; 2..=5: decrypt with tampered tag, ciphertext, AAD, IV.
    mode: u8,
    flip: usize,
}

fn msg_spec(max_data: usize) -> impl Strategy<Value = MsgSpec> {
    (
        any::<[u8; 16]>(),
        any::<[u8; 12]>(),
        prop::collection::vec(any::<u8>(), 0..=64),
        prop_oneof![
            prop::collection::vec(any::<u8>(), 0..=64),
            prop::collection::vec(any::<u8>(), 0..=max_data),
        ],
        0u8..6,
        any::<usize>(),
    )
        .prop_map(|(key, iv, aad, data, mode, flip)| MsgSpec {
            key,
            iv,
            aad,
            data,
            mode,
            flip,
        })
}

/// Turns a spec into the message sent to the DUT; for the decrypt modes the ciphertext and tag
/// come from RustCrypto and then one thing is tampered with.
fn build(spec: &MsgSpec, meta: u8) -> GcmMsg {
    let (ct, tag) = ref_encrypt(&spec.key, &spec.iv, &spec.aad, &spec.data);
    let mut msg = GcmMsg {
        key: spec.key,
        iv: spec.iv,
        aad: spec.aad.clone(),
        data: spec.data.clone(),
        decrypt: spec.mode != 0,
        tag: [0; 16],
        meta,
    };
    if spec.mode == 0 {
        return msg;
    }
    msg.data = ct;
    msg.tag = tag;
    let bit = 1u8 << (spec.flip % 8);
    match spec.mode {
        2 => msg.tag[spec.flip % 16] ^= bit,
        3 if !msg.data.is_empty() => {
            let i = spec.flip % msg.data.len();
            msg.data[i] ^= bit;
        }
        3 => msg.tag[0] ^= bit,
        4 if !msg.aad.is_empty() => {
            let i = spec.flip % msg.aad.len();
            msg.aad[i] ^= bit;
        }
        4 => msg.aad.push(bit),
        5 => msg.iv[spec.flip % 12] ^= bit,
        _ => {}
    }
    msg
}

fn stalls() -> impl Strategy<Value = Stalls> {
    let p = prop_oneof![Just(1.0), 0.2f64..1.0];
    (p.clone(), p.clone(), p.clone(), p).prop_map(|(desc, din, dout, res)| Stalls {
        desc,
        din,
        dout,
        res,
    })
}

fn check_batch<M: GcmPorts>(
    m: &mut M,
    specs: &[MsgSpec],
    stalls: Stalls,
    seed: u64,
) -> Result<(), TestCaseError> {
    let msgs: Vec<GcmMsg> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| build(s, i as u8))
        .collect();
    // Tampering must never pass: the oracle's view, checked against the DUT below.
    for (s, msg) in specs.iter().zip(&msgs) {
        if s.mode >= 2 {
            prop_assert!(!expected(msg).2, "oracle accepts a tampered message");
        }
    }
    let run = run_on(m, &msgs, stalls, seed).map_err(TestCaseError::fail)?;
    check_run(&msgs, &run)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn pipelined_matches_rustcrypto(
        specs in prop::collection::vec(msg_spec(4096), 1..5),
        st in stalls(),
        seed in any::<u64>(),
    ) {
        check_batch(&mut gcm_pipe::Model::new(), &specs, st, seed)?;
    }

    #[test]
    fn iterative_matches_rustcrypto(
        specs in prop::collection::vec(msg_spec(600), 1..4),
        st in stalls(),
        seed in any::<u64>(),
    ) {
        check_batch(&mut gcm_iter::Model::new(), &specs, st, seed)?;
    }

    #[test]
    fn pool_iterative_matches_rustcrypto(
        specs in prop::collection::vec(msg_spec(512), 2..7),
        st in stalls(),
        seed in any::<u64>(),
    ) {
        check_batch(&mut gcm_pool_iter::Model::new(), &specs, st, seed)?;
    }

    /// 4 beats per word (onerma_gcm_lane): partial words at every part length, AAD and payload
    /// each starting a new word, results after their last word.
    #[test]
    fn wide_pool_matches_rustcrypto(
        specs in prop::collection::vec(msg_spec(1100), 2..9),
        st in stalls(),
        seed in any::<u64>(),
    ) {
        check_batch(&mut gcm_pool_wide::Model::new(), &specs, st, seed)?;
    }
}

/// The pool really runs messages concurrently: with a long message on one engine, short ones
/// behind it finish first (results out of order), and every result is still right.
#[test]
fn pool_completes_out_of_order() {
    let mut specs = vec![MsgSpec {
        key: [1; 16],
        iv: [2; 12],
        aad: vec![3; 48],
        data: vec![4; 4096],
        mode: 0,
        flip: 0,
    }];
    for i in 0..4u8 {
        specs.push(MsgSpec {
            key: [10 + i; 16],
            iv: [20 + i; 12],
            aad: vec![i; 48],
            data: vec![i; 64],
            mode: 0,
            flip: 0,
        });
    }
    let msgs: Vec<GcmMsg> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| build(s, i as u8))
        .collect();
    let mut m = gcm_pool_iter::Model::new();
    let run = run_on(&mut m, &msgs, Stalls::NONE, 3).expect("run");
    check_run(&msgs, &run).expect("results");
    let first = run.outcomes[0].result_cycle;
    assert!(
        run.outcomes[1..].iter().any(|o| o.result_cycle < first),
        "no short message overtook the long one"
    );
}

// ---------------------------------------------------------------------------------------------
// cocotb-free-tests/vectors/gcm_small.json: our own vectors in the Wycheproof aes_gcm_test.json
// schema, for `onerma gcm-vectors`. The file is exactly what `small_vectors()` computes with
// RustCrypto; regenerate it with
//   ONERMA_REGEN_GCM_VECTORS=1 cargo test --release -p onerma-rtl-tests --test gcm vectors_file
// ---------------------------------------------------------------------------------------------

const VECTORS_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/gcm_small.json");

/// Deterministic filler bytes (an LCG), so the file is reproducible.
fn filler(seed: u32, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..len)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (x >> 16) as u8
        })
        .collect()
}

fn hx(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn small_vectors() -> String {
    use serde_json::json;
    let mut tc = 0u32;
    let mut next = || {
        tc += 1;
        tc
    };
    let mut main = Vec::new();
    let sizes: [(usize, usize); 9] = [
        (0, 0),
        (0, 16),
        (20, 60),
        (48, 64),
        (48, 1),
        (13, 15),
        (16, 17),
        (64, 255),
        (48, 1000),
    ];
    for (i, &(a, p)) in sizes.iter().enumerate() {
        let s = i as u32 * 10;
        let key: [u8; 16] = filler(s, 16).try_into().expect("16");
        let iv: [u8; 12] = filler(s + 1, 12).try_into().expect("12");
        let aad = filler(s + 2, a);
        let msg = filler(s + 3, p);
        let (ct, tag) = ref_encrypt(&key, &iv, &aad, &msg);
        main.push(
            json!({"tcId": next(), "comment": format!("aad {a} B, msg {p} B"),
            "key": hx(&key), "iv": hx(&iv), "aad": hx(&aad), "msg": hx(&msg), "ct": hx(&ct),
            "tag": hx(&tag), "result": "valid", "flags": []}),
        );
        // Tampered copies of two of the messages: each must be rejected.
        if i == 3 || i == 8 {
            let mut bad_tag = tag;
            bad_tag[0] ^= 0x80;
            let mut bad_ct = ct.clone();
            bad_ct[p / 2] ^= 0x01;
            let mut bad_aad = aad.clone();
            bad_aad[a - 1] ^= 0x10;
            let mut bad_iv = iv;
            bad_iv[11] ^= 0x01;
            for (what, iv_l, aad_l, ct_l, tag_l) in [
                ("tag", &iv, &aad, &ct, &bad_tag),
                ("ciphertext", &iv, &aad, &bad_ct, &tag),
                ("aad", &iv, &bad_aad, &ct, &tag),
                ("iv", &bad_iv, &aad, &ct, &tag),
            ] {
                main.push(
                    json!({"tcId": next(), "comment": format!("modified {what}"),
                    "key": hx(&key), "iv": hx(iv_l), "aad": hx(aad_l), "msg": hx(&msg),
                    "ct": hx(ct_l), "tag": hx(tag_l), "result": "invalid",
                    "flags": ["ModifiedTag"]}),
                );
            }
        }
    }
    // Sizes the engine does not take: listed as skipped by the command.
    let mut k256 = Vec::new();
    for i in 0..2u32 {
        let key = filler(100 + i, 32);
        let iv: [u8; 12] = filler(110 + i, 12).try_into().expect("12");
        let msg = filler(120 + i, 20);
        let cipher = aes_gcm::Aes256Gcm::new_from_slice(&key).expect("32-byte key");
        let mut ct = msg.clone();
        let tag = cipher
            .encrypt_inout_detached(&iv.into(), &[], ct.as_mut_slice().into())
            .expect("short");
        k256.push(
            json!({"tcId": next(), "comment": "AES-256", "key": hx(&key),
            "iv": hx(&iv), "aad": "", "msg": hx(&msg), "ct": hx(&ct), "tag": hx(&tag),
            "result": "valid", "flags": []}),
        );
    }
    let mut t96 = Vec::new();
    for i in 0..2u32 {
        let key: [u8; 16] = filler(200 + i, 16).try_into().expect("16");
        let iv: [u8; 12] = filler(210 + i, 12).try_into().expect("12");
        let msg = filler(220 + i, 24);
        let (ct, tag) = ref_encrypt(&key, &iv, &[], &msg);
        t96.push(
            json!({"tcId": next(), "comment": "96-bit tag (truncated)", "key": hx(&key),
            "iv": hx(&iv), "aad": "", "msg": hx(&msg), "ct": hx(&ct), "tag": hx(&tag[..12]),
            "result": "valid", "flags": []}),
        );
    }
    let n = main.len() + k256.len() + t96.len();
    let doc = json!({
        "algorithm": "AES-GCM",
        "header": ["onerma's own AES-GCM vectors, computed with RustCrypto aes-gcm 0.11",
                   "generator: cocotb-free-tests/tests/gcm.rs small_vectors()"],
        "numberOfTests": n,
        "testGroups": [
            {"ivSize": 96, "keySize": 128, "tagSize": 128, "type": "AeadTest", "tests": main},
            {"ivSize": 96, "keySize": 256, "tagSize": 128, "type": "AeadTest", "tests": k256},
            {"ivSize": 96, "keySize": 128, "tagSize": 96, "type": "AeadTest", "tests": t96},
        ]
    });
    let mut s = serde_json::to_string_pretty(&doc).expect("json");
    s.push('\n');
    s
}

#[test]
fn vectors_file_is_what_rustcrypto_computes() {
    let want = small_vectors();
    if std::env::var_os("ONERMA_REGEN_GCM_VECTORS").is_some() {
        std::fs::write(VECTORS_FILE, &want).expect("write vectors file");
    }
    let have = std::fs::read_to_string(VECTORS_FILE).expect("vectors file present");
    assert!(
        have == want,
        "{VECTORS_FILE} is stale: regenerate it (see the comment above)"
    );
    // The file exercises what the command must handle.
    assert!(want.contains("\"invalid\"") && want.contains("\"keySize\": 256"));
}
