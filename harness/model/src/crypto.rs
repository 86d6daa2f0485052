//! K_d derivation and the AES-GCM framing of every message (protocol.md §3).
//!
//! Key schedules are cached by key bytes: a cache keyed by the key itself returns exactly what a
//! fresh expansion would, so it changes speed, never results. A [`CipherKey`] carries a key with
//! its expanded state, so an op or a server context that uses one key for all its messages
//! expands and looks it up once, not once per message.
//!
//! GCM itself (NIST SP 800-38D, 96-bit IV) is put together here from RustCrypto's `aes` block
//! cipher and `ghash`, the same two primitives `aes-gcm` uses, so that one AES call produces the
//! tag mask `E(J0)` and the whole keystream of a message: `aes-gcm` makes two calls and runs its
//! generic counter-mode layer per message, which for the model's short messages cost more than
//! the AES rounds. The output is byte for byte that of `aes-gcm`, which the tests check
//! (`tests/unit.rs` `gcm_matches_aes_gcm`).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use aes::{Aes128, Aes128Enc};
use ghash::GHash;
use ghash::universal_hash::UniversalHash;
use onerma_layouts::{KdBlock, LayoutError, OpType};

/// A 128-bit key as the 16 bytes of the FIPS-197 key (byte 0 = bits [127:120] of the RTL word).
pub type Key = [u8; 16];

/// The well-known reserved key that signs AUTH_FAIL replies (protocol.md §3).
pub const RESERVED_KEY: Key = [0; 16];

/// GCM tag length on the wire.
pub const TAG_LEN: usize = 16;

/// Converts a layout `u128` key field into key bytes (network order, like every layout).
#[must_use]
pub fn key_from_u128(k: u128) -> Key {
    k.to_be_bytes()
}

/// Converts key bytes into the `u128` of a layout field.
#[must_use]
pub fn key_to_u128(k: &Key) -> u128 {
    u128::from_be_bytes(*k)
}

/// The `kd_block` plaintext of the derivation.
///
/// # Errors
/// Never in practice: every field is full width.
pub fn kd_block(initiator_nic: u32, pid: u32, op_type: OpType) -> Result<[u8; 16], LayoutError> {
    KdBlock {
        initiator_nic,
        pid,
        op_type,
    }
    .to_bytes()
}

/// `K_d = AES-128_{K_r}(kd_block{initiator_nic, pid, op_type})`, computed from scratch.
///
/// # Errors
/// As [`kd_block`].
pub fn derive_kd(
    kr: &Key,
    initiator_nic: u32,
    pid: u32,
    op_type: OpType,
) -> Result<Key, LayoutError> {
    let block = kd_block(initiator_nic, pid, op_type)?;
    let cipher = Aes128::new(&Array::from(*kr));
    let mut b = Array::from(block);
    cipher.encrypt_block(&mut b);
    Ok(b.into())
}

/// The 96-bit GCM IV `{nic, counter}`: the bytes of the `GcmIv` layout, both fields full width
/// and byte aligned, so the layout is the two values in network order back to back. Assembled
/// here rather than through the generic field packer because every message seals or opens with
/// one (`iv_is_the_gcm_iv_layout` pins it to `GcmIv::to_bytes`).
///
/// # Errors
/// Never: kept for the callers written against the layout's fallible packer.
pub fn iv(nic: u32, counter: u64) -> Result<[u8; 12], LayoutError> {
    let mut b = [0u8; 12];
    b[..4].copy_from_slice(&nic.to_be_bytes());
    b[4..].copy_from_slice(&counter.to_be_bytes());
    Ok(b)
}

/// AES-GCM state of one key: the expanded AES key and GHASH keyed with `H = E(0)`. GCM only
/// encrypts, so the encryption round keys alone: half the state of `Aes128`, which matters when
/// the 40-NIC benchmark touches a few hundred keys per NIC at random.
struct Gcm {
    aes: Aes128Enc,
    ghash: GHash,
}

/// Keystream blocks per AES call after the first (which also holds `J0`): the widest batch the
/// AES backends process in parallel, and a whole 1 KB chunk.
const BATCH: usize = 64;
/// Blocks of a short message (header-only frames have none; a 64-byte payload has 4).
const SMALL: usize = 8;

impl Gcm {
    fn new(key: &Key) -> Self {
        let aes = Aes128Enc::new(&Array::from(*key));
        let mut h = aes::Block::default();
        aes.encrypt_block(&mut h);
        Self {
            ghash: GHash::new(&h),
            aes,
        }
    }

    /// XORs `data` with the counter-mode keystream of `iv` (counter blocks from `J0 + 1`) and
    /// returns `E(J0)`, the tag mask.
    fn ctr(&self, iv: &[u8; 12], data: &mut [u8]) -> [u8; 16] {
        // A small buffer for the model's common short messages: clearing the large one cost
        // more than their AES work.
        if data.is_empty() {
            // A header-only message needs only the tag mask `E(J0)`, `J0 = IV || 1`.
            let mut j0 = [0u8; 16];
            j0[..12].copy_from_slice(iv);
            j0[15] = 1;
            let mut b = aes::Block::from(j0);
            self.aes.encrypt_block(&mut b);
            b.into()
        } else if data.len() <= SMALL * 16 {
            self.ctr_in(iv, data, &mut [aes::Block::default(); SMALL + 1])
        } else {
            self.ctr_in(iv, data, &mut [aes::Block::default(); BATCH + 1])
        }
    }

    /// [`Gcm::ctr`] with `ks` as the keystream buffer: batches of `ks.len() - 1` blocks, the
    /// first with `J0` in front.
    fn ctr_in(&self, iv: &[u8; 12], data: &mut [u8], ks: &mut [aes::Block]) -> [u8; 16] {
        // `J0 = IV || 1`; the 32-bit counter part wraps (inc32 of SP 800-38D).
        let mut counter: u32 = 1;
        let mut mask = [0u8; 16];
        let mut rest = data;
        let mut first = true;
        while first || !rest.is_empty() {
            let take = rest.len().min((ks.len() - 1) * 16);
            let (part, tail) = rest.split_at_mut(take);
            let j = usize::from(first);
            let n = j + take.div_ceil(16);
            for b in &mut ks[..n] {
                b[..12].copy_from_slice(iv);
                b[12..].copy_from_slice(&counter.to_be_bytes());
                counter = counter.wrapping_add(1);
            }
            self.aes.encrypt_blocks(&mut ks[..n]);
            if first {
                mask.copy_from_slice(&ks[0]);
            }
            for (d, k) in part.chunks_mut(16).zip(&ks[j..n]) {
                if let Ok(d16) = <&mut [u8; 16]>::try_from(&mut *d) {
                    let k16: [u8; 16] = (*k).into();
                    *d16 = (u128::from_ne_bytes(*d16) ^ u128::from_ne_bytes(k16)).to_ne_bytes();
                } else {
                    for (x, y) in d.iter_mut().zip(k.iter()) {
                        *x ^= *y;
                    }
                }
            }
            rest = tail;
            first = false;
        }
        mask
    }

    /// The GCM tag of (`aad`, ciphertext `ct`) before the tag mask is XORed in.
    fn ghash(&self, aad: &[u8], ct: &[u8]) -> [u8; TAG_LEN] {
        let mut g = self.ghash.clone();
        g.update_padded(aad);
        g.update_padded(ct);
        Self::ghash_end(g, aad.len(), ct.len())
    }

    /// [`Gcm::ghash`] of a message whose AAD (`aad_len` bytes, a whole number of blocks) and
    /// ciphertext lie back to back in `msg`: padding the AAD adds nothing then, so one pass
    /// over both does, saving a pass's set-up in the backend.
    fn ghash_joined(&self, msg: &[u8], aad_len: usize) -> [u8; TAG_LEN] {
        if !aad_len.is_multiple_of(16) || aad_len > msg.len() {
            let (aad, ct) = msg.split_at(aad_len.min(msg.len()));
            return self.ghash(aad, ct);
        }
        let mut g = self.ghash.clone();
        g.update_padded(msg);
        Self::ghash_end(g, aad_len, msg.len() - aad_len)
    }

    /// Hashes the lengths block and finishes.
    fn ghash_end(mut g: GHash, aad_len: usize, ct_len: usize) -> [u8; TAG_LEN] {
        g.update(&[lens_block(aad_len, ct_len).into()]);
        g.finalize().into()
    }

    /// GHASH of `blocks`, already the whole padded input (AAD, ciphertext, lengths block).
    fn ghash_blocks(&self, blocks: &[u8]) -> [u8; TAG_LEN] {
        let mut g = self.ghash.clone();
        g.update_padded(blocks);
        g.finalize().into()
    }
}

/// GCM's last GHASH block: the AAD and ciphertext lengths in bits.
fn lens_block(aad_len: usize, ct_len: usize) -> [u8; 16] {
    let mut lens = [0u8; 16];
    lens[..8].copy_from_slice(&(aad_len as u64 * 8).to_be_bytes());
    lens[8..].copy_from_slice(&(ct_len as u64 * 8).to_be_bytes());
    lens
}

fn xor16(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    std::array::from_fn(|i| a[i] ^ b[i])
}

/// A key and its expanded AES-GCM state (AES round keys, GHASH key). Cloning shares the state.
#[derive(Clone)]
pub struct CipherKey {
    key: Key,
    gcm: Arc<Gcm>,
}

impl CipherKey {
    /// Expands `key` (no cache; [`Crypto::cipher`] caches).
    #[must_use]
    pub fn new(key: &Key) -> Self {
        Self {
            key: *key,
            gcm: Arc::new(Gcm::new(key)),
        }
    }

    /// The key bytes.
    #[must_use]
    pub fn key(&self) -> &Key {
        &self.key
    }
}

impl std::fmt::Debug for CipherKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("CipherKey").field(&self.key).finish()
    }
}

/// Hashes a key-like byte string cheaply: keys are uniformly random or chosen by the workload,
/// and a slow keyed hash would cost more than the AES work the caches save.
#[derive(Default)]
pub struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.0 = (self.0.rotate_left(23) ^ u64::from_le_bytes(w))
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    /// The value `write` gives the two bytes (a little-endian word with zeros above), without
    /// its byte loop: the window's owners hash a `u16` on every op.
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(23) ^ i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

/// A map with [`FoldHasher`]: the model's maps are keyed by integers and keys that no adversary
/// chooses to collide, and std's SipHash showed up in profiles.
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FoldHasher>>;

/// Cache key of a key schedule: the key bytes, hashed as one folded word (the derived `Hash` of
/// a byte array feeds the hasher a length and two chunks, three times the work, and the caches
/// sit on every message's path). Equality is still on all 16 bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
struct KeyId(Key);

fn fold_key(k: &Key) -> u64 {
    let (lo, hi) = k.split_at(8);
    // Each half as a big-endian word (what folding its bytes in order gives), read whole.
    let w = |b: &[u8]| <[u8; 8]>::try_from(b).map_or(0, u64::from_be_bytes);
    w(lo) ^ w(hi).rotate_left(29)
}

impl std::hash::Hash for KeyId {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(fold_key(&self.0));
    }
}

/// Cache key of a K_d derivation: K_r and the `kd_block` fields.
#[derive(Clone, Copy, PartialEq, Eq)]
struct KdId {
    kr: Key,
    initiator_nic: u32,
    pid: u32,
    op_type: u8,
}

impl std::hash::Hash for KdId {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let fields = (u64::from(self.initiator_nic) << 32 | u64::from(self.pid))
            .rotate_left(u32::from(self.op_type) * 7);
        state.write_u64(fold_key(&self.kr) ^ fields.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
}

/// Bound on cached entries; the caches are flushed when full (cheap, and a model run touches
/// far fewer live keys than this).
const CACHE_MAX: usize = 1 << 14;

/// Per-NIC crypto engine: GCM seal/open and K_d derivation, with key-schedule caches and an
/// optional log of every (key, IV) used for encryption.
#[derive(Default)]
pub struct Crypto {
    /// Key -> its expanded state (behind an `Arc`: small map entries keep the lookup in cache).
    gcm: FastMap<KeyId, CipherKey>,
    /// (K_r, kd_block fields) -> K_d. Only the key: the key manager derives K_d for every
    /// (server, region, initiator) pair and never encrypts with it, and expanding each one
    /// (about a kilobyte) made the 40-NIC benchmark's working set several megabytes larger.
    kd: FastMap<KdId, Key>,
    /// (K_r, kd_block fields) -> K_d with its expanded state, for the K_d a server uses: one
    /// lookup per request instead of two (the state is shared with `gcm`'s entry).
    kd_gcm: FastMap<KdId, CipherKey>,
    /// Every (key, IV) this engine encrypted with, when recording is on.
    pub key_iv_log: Option<Vec<(Key, [u8; 12])>>,
}

impl std::fmt::Debug for Crypto {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Crypto")
            .field("cached_keys", &self.gcm.len())
            .finish_non_exhaustive()
    }
}

impl Crypto {
    /// Creates an engine; `record` turns on the (key, IV) log.
    #[must_use]
    pub fn new(record: bool) -> Self {
        Self {
            key_iv_log: record.then(Vec::new),
            ..Self::default()
        }
    }

    /// `key` with its expanded state, through the cache.
    pub fn cipher(&mut self, key: &Key) -> CipherKey {
        if let Some(c) = self.gcm.get(&KeyId(*key)) {
            return c.clone();
        }
        if self.gcm.len() >= CACHE_MAX {
            self.gcm.clear();
        }
        let c = CipherKey::new(key);
        self.gcm.insert(KeyId(*key), c.clone());
        c
    }

    /// K_d through the cache.
    ///
    /// # Errors
    /// As [`derive_kd`].
    pub fn kd(
        &mut self,
        kr: &Key,
        initiator_nic: u32,
        pid: u32,
        op_type: OpType,
    ) -> Result<Key, LayoutError> {
        let k = KdId {
            kr: *kr,
            initiator_nic,
            pid,
            op_type: op_type.as_raw(),
        };
        if let Some(v) = self.kd.get(&k) {
            return Ok(*v);
        }
        let v = derive_kd(kr, initiator_nic, pid, op_type)?;
        if self.kd.len() >= CACHE_MAX {
            self.kd.clear();
        }
        self.kd.insert(k, v);
        Ok(v)
    }

    /// K_d with its expanded state, through both caches.
    ///
    /// # Errors
    /// As [`derive_kd`].
    pub fn kd_cipher(
        &mut self,
        kr: &Key,
        initiator_nic: u32,
        pid: u32,
        op_type: OpType,
    ) -> Result<CipherKey, LayoutError> {
        let k = KdId {
            kr: *kr,
            initiator_nic,
            pid,
            op_type: op_type.as_raw(),
        };
        if let Some(c) = self.kd_gcm.get(&k) {
            return Ok(c.clone());
        }
        let kd = self.kd(kr, initiator_nic, pid, op_type)?;
        let c = self.cipher(&kd);
        if self.kd_gcm.len() >= CACHE_MAX {
            self.kd_gcm.clear();
        }
        self.kd_gcm.insert(k, c.clone());
        Ok(c)
    }

    /// Encrypts `frame[64..len-16]` in place with `frame[..64]` as AAD and writes the tag into the
    /// last 16 bytes. `frame` is a whole wire message with room for the tag.
    pub fn seal(&mut self, key: &Key, iv: &[u8; 12], frame: &mut [u8]) {
        let c = self.cipher(key);
        self.seal_with(&c, iv, frame);
    }

    /// [`Crypto::seal`] with an already expanded key.
    pub fn seal_with(&mut self, key: &CipherKey, iv: &[u8; 12], frame: &mut [u8]) {
        if let Some(log) = self.key_iv_log.as_mut() {
            log.push((key.key, *iv));
        }
        let n = frame.len();
        let ct_len = n - 64 - TAG_LEN;
        let mask = key.gcm.ctr(iv, &mut frame[64..n - TAG_LEN]);
        let s = if ct_len.is_multiple_of(16) {
            // Header, ciphertext and the lengths block written where the tag goes lie back to
            // back without padding: GHASH takes the whole frame in one pass.
            frame[n - TAG_LEN..].copy_from_slice(&lens_block(64, ct_len));
            key.gcm.ghash_blocks(frame)
        } else {
            key.gcm.ghash_joined(&frame[..n - TAG_LEN], 64)
        };
        frame[n - TAG_LEN..].copy_from_slice(&xor16(&s, &mask));
    }

    /// Verifies and decrypts `payload` in place (ciphertext in, plaintext out) for the message
    /// whose header bytes are `aad` and tag `tag`. Returns whether the tag verified; on failure
    /// `payload` must be discarded.
    pub fn open(
        &mut self,
        key: &Key,
        iv: &[u8; 12],
        aad: &[u8],
        payload: &mut [u8],
        tag: &[u8],
    ) -> bool {
        let c = self.cipher(key);
        Self::open_with(&c, iv, aad, payload, tag)
    }

    /// [`Crypto::open_with`] of a whole wire message `frame` (64-byte header, ciphertext,
    /// tag): the ciphertext is copied into `out` and opened there. GHASH runs over header and
    /// ciphertext where they lie back to back in `frame`, in one pass. On a failed tag `out`
    /// holds the ciphertext as it came, as with [`Crypto::open_with`].
    pub(crate) fn open_frame_with(
        key: &CipherKey,
        iv: &[u8; 12],
        frame: &[u8],
        out: &mut Vec<u8>,
    ) -> bool {
        let (msg, tag) = frame.split_at(frame.len().saturating_sub(TAG_LEN));
        out.clear();
        out.extend_from_slice(msg.get(64..).unwrap_or_default());
        let Ok(tag) = <&[u8; TAG_LEN]>::try_from(tag) else {
            return false;
        };
        let s = key.gcm.ghash_joined(msg, 64);
        let mask = key.gcm.ctr(iv, out);
        if xor16(&s, &mask) == *tag {
            return true;
        }
        key.gcm.ctr(iv, out);
        false
    }

    /// [`Crypto::open`] with an already expanded key.
    #[must_use]
    pub fn open_with(
        key: &CipherKey,
        iv: &[u8; 12],
        aad: &[u8],
        payload: &mut [u8],
        tag: &[u8],
    ) -> bool {
        let Ok(tag) = <&[u8; TAG_LEN]>::try_from(tag) else {
            return false;
        };
        // GHASH runs over the ciphertext first; the one keystream call then decrypts and gives
        // the tag mask. A payload whose tag fails is encrypted back, so it is left as it came
        // (as `aes-gcm` leaves it). Not in constant time: the model holds no secret anyone
        // could time.
        let s = key.gcm.ghash(aad, payload);
        let mask = key.gcm.ctr(iv, payload);
        if xor16(&s, &mask) == *tag {
            return true;
        }
        key.gcm.ctr(iv, payload);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use onerma_layouts::GcmIv;

    /// [`iv`] builds exactly what the generated `GcmIv` layout packs.
    #[test]
    fn iv_is_the_gcm_iv_layout() {
        let values = [
            0,
            1,
            0x80,
            0x1234_5678,
            u64::from(u32::MAX),
            u64::MAX - 1,
            u64::MAX,
        ];
        for &n in &values {
            for &c in &values {
                let nic = n as u32;
                assert_eq!(
                    iv(nic, c).ok(),
                    GcmIv { nic, counter: c }.to_bytes().ok(),
                    "nic {nic:#x}, counter {c:#x}"
                );
            }
        }
    }
}
