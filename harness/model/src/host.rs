//! Host memory of one NIC with a DMA timing model (latency plus a bandwidth-limited channel per
//! direction), instrumented so tests can check every write against the region it was made for.

use serde::{Deserialize, Serialize};

use crate::crypto::FastMap;

const PAGE: u64 = 4096;

/// DMA timing knobs, in NIC clock cycles. `bytes_per_cycle = 0` means unlimited bandwidth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HostConfig {
    /// Cycles from issuing a DMA read until its data is at the NIC.
    pub read_latency: u64,
    /// Cycles from issuing a DMA write until it is visible in host memory.
    pub write_latency: u64,
    /// Bandwidth of each direction's channel; 0 = unlimited. Models PCIe or memory back-pressure.
    pub bytes_per_cycle: u32,
}

impl Default for HostConfig {
    fn default() -> Self {
        // 250 MHz NIC clock: ~400 ns PCIe round trip for reads, 64 B/cycle = 16 GB/s (Gen3 x16).
        Self {
            read_latency: 100,
            write_latency: 50,
            bytes_per_cycle: 64,
        }
    }
}

/// Who a DMA write was made for: the instrumentation that lets tests attribute every byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WritePurpose {
    /// READ data landing at the initiator for its slot.
    ReadData { slot: u16 },
    /// WRITE data landing at the server for the op `(initiator, slot, request counter)`.
    RemoteWrite {
        initiator: u32,
        slot: u16,
        req_counter: u64,
    },
    /// A completion record for a slot.
    Completion { slot: u16 },
}

/// One logged DMA write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostWrite {
    /// RegionId the write was made on behalf of.
    pub region: u16,
    pub addr: u64,
    pub data: Vec<u8>,
    /// Cycle the NIC issued the write.
    pub issued: u64,
    /// Cycle the bytes are visible in host memory.
    pub visible: u64,
    pub purpose: WritePurpose,
}

/// Sparse byte-addressed host memory (unwritten bytes read as 0) with two DMA channels.
#[derive(Debug, Clone, Default)]
pub struct HostMem {
    cfg: HostConfig,
    pages: FastMap<u64, Box<[u8; PAGE as usize]>>,
    rd_free_at: u64,
    wr_free_at: u64,
    /// Every DMA write, when logging is on.
    pub log: Option<Vec<HostWrite>>,
}

fn xfer_cycles(len: usize, bpc: u32) -> u64 {
    if bpc == 0 {
        0
    } else {
        (len as u64).div_ceil(u64::from(bpc))
    }
}

impl HostMem {
    #[must_use]
    pub fn new(cfg: HostConfig, log: bool) -> Self {
        Self {
            cfg,
            log: log.then(Vec::new),
            ..Self::default()
        }
    }

    #[must_use]
    pub fn config(&self) -> HostConfig {
        self.cfg
    }

    /// Reads bytes directly (software's view; no timing). Addresses wrap modulo 2^64.
    pub fn read(&self, addr: u64, buf: &mut [u8]) {
        let mut a = addr;
        let mut done = 0;
        while done < buf.len() {
            let off = (a % PAGE) as usize;
            let n = (PAGE as usize - off).min(buf.len() - done);
            match self.pages.get(&(a / PAGE)) {
                Some(p) => buf[done..done + n].copy_from_slice(&p[off..off + n]),
                None => buf[done..done + n].fill(0),
            }
            done += n;
            a = a.wrapping_add(n as u64);
        }
    }

    /// Reads `len` bytes into a new vector.
    #[must_use]
    pub fn read_vec(&self, addr: u64, len: usize) -> Vec<u8> {
        let mut v = vec![0; len];
        self.read(addr, &mut v);
        v
    }

    /// Writes bytes directly (software's view; no timing, not logged).
    pub fn write(&mut self, addr: u64, data: &[u8]) {
        let mut a = addr;
        let mut done = 0;
        while done < data.len() {
            let off = (a % PAGE) as usize;
            let n = (PAGE as usize - off).min(data.len() - done);
            let p = self
                .pages
                .entry(a / PAGE)
                .or_insert_with(|| Box::new([0; PAGE as usize]));
            p[off..off + n].copy_from_slice(&data[done..done + n]);
            done += n;
            a = a.wrapping_add(n as u64);
        }
    }

    /// Earliest cycle the read channel accepts a new transfer.
    #[must_use]
    pub fn read_channel_free_at(&self) -> u64 {
        self.rd_free_at
    }

    /// Issues a DMA read at `now`; returns the data and the cycle it is at the NIC. The bytes are
    /// sampled at issue (a concurrent write to the same range is a race software must avoid).
    pub fn dma_read(&mut self, now: u64, addr: u64, len: usize) -> (Vec<u8>, u64) {
        let mut v = vec![0; len];
        let t = self.dma_read_into(now, addr, &mut v);
        (v, t)
    }

    /// [`HostMem::dma_read`] of `buf.len()` bytes into `buf` (the NIC reads straight into the
    /// frame it will send).
    pub fn dma_read_into(&mut self, now: u64, addr: u64, buf: &mut [u8]) -> u64 {
        let start = now.max(self.rd_free_at);
        self.rd_free_at = start + xfer_cycles(buf.len(), self.cfg.bytes_per_cycle);
        self.read(addr, buf);
        self.rd_free_at + self.cfg.read_latency
    }

    /// Issues a DMA write at `now`; returns the cycle it is visible. The model applies the bytes
    /// at once (nothing reads them through the NIC before `visible` in a correct run) and logs
    /// the true visibility time for the checks.
    pub fn dma_write(
        &mut self,
        now: u64,
        region: u16,
        addr: u64,
        data: &[u8],
        purpose: WritePurpose,
    ) -> u64 {
        let start = now.max(self.wr_free_at);
        self.wr_free_at = start + xfer_cycles(data.len(), self.cfg.bytes_per_cycle);
        let visible = self.wr_free_at + self.cfg.write_latency;
        self.write(addr, data);
        if let Some(log) = self.log.as_mut() {
            log.push(HostWrite {
                region,
                addr,
                data: data.to_vec(),
                issued: now,
                visible,
                purpose,
            });
        }
        visible
    }
}
