//! The host port of one NIC: the [`HostPort`] trait (DMA reads and writes that complete at a
//! cycle the port decides, or fail with an AXI error), and its default implementation
//! [`HostMem`]: sparse host memory with latency plus a bandwidth-limited channel per direction,
//! injectable SLVERR/DECERR ranges, and logs so tests can check every access against the region
//! it was made for.

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

/// An AXI error response of the host interface (protocol.md §7.3, §8.3, §8.4, §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DmaError {
    SlvErr,
    DecErr,
}

/// An address range whose accesses answer an error (tests of §11's DMA error rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorRange {
    pub start: u64,
    pub end: u64,
    pub error: DmaError,
    /// Reads (true) or writes (false).
    pub reads: bool,
}

/// The NIC's host interface. Times are NIC cycles. An access is issued at `now` and its result
/// is at the NIC (read data) or complete in host memory (write) at the returned cycle; the
/// protocol requires `returned <= now + HostReadMax / HostWriteMax` plus the queueing §6.4
/// accounts for. A custom port (a co-simulated AXI memory, a checker's replay of a device's DMA
/// timing) replaces [`HostMem`] through [`crate::Nic::with_host`].
pub trait HostPort: Send + std::fmt::Debug {
    /// Reads `buf.len()` bytes at `addr` on behalf of `region`.
    ///
    /// # Errors
    /// The AXI error the interface answered; `buf` is then unspecified.
    fn dma_read(
        &mut self,
        now: u64,
        region: u16,
        addr: u64,
        buf: &mut [u8],
        purpose: ReadPurpose,
    ) -> Result<u64, (DmaError, u64)>;
    /// Writes `data` at `addr` on behalf of `region`.
    ///
    /// # Errors
    /// The AXI error the interface answered (the bytes may or may not have been written).
    fn dma_write(
        &mut self,
        now: u64,
        region: u16,
        addr: u64,
        data: &[u8],
        purpose: WritePurpose,
    ) -> Result<u64, (DmaError, u64)>;
    /// Earliest cycle the read channel accepts a new transfer (a READ is served when it can).
    fn read_ready_at(&self) -> u64;
    /// The memory behind the port, if it is a [`HostMem`] (software's view, logs).
    fn mem(&self) -> Option<&HostMem>;
    fn mem_mut(&mut self) -> Option<&mut HostMem>;
}

/// A host port's answer as (ok, cycle the data or the completion is at the NIC): the NIC acts
/// on an error at the same cycle it would have acted on the data.
#[must_use]
pub fn settled(r: Result<u64, (DmaError, u64)>) -> (bool, u64) {
    match r {
        Ok(t) => (true, t),
        Err((_, t)) => (false, t),
    }
}

/// Who a DMA read was made for (instrumentation, like [`WritePurpose`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadPurpose {
    /// A server reading a READ's data for the op `(initiator, slot, request counter)`.
    Serve {
        initiator: u32,
        slot: u16,
        req_counter: u64,
    },
    /// An initiator reading WRITE/REKEY source data for its op `(slot, request counter)`.
    WriteSource { slot: u16, req_counter: u64 },
}

/// One logged DMA read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostRead {
    pub region: u16,
    pub addr: u64,
    /// Bytes asked for.
    pub len: u64,
    /// Position among all logged reads and writes of this memory (their order within a cycle).
    pub seq: u64,
    /// The bytes returned (empty on an error response).
    pub data: Vec<u8>,
    pub issued: u64,
    pub purpose: ReadPurpose,
}

/// Who a DMA write was made for: the instrumentation that lets tests attribute every byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WritePurpose {
    /// READ data landing at the initiator for its op `(slot, request counter)`.
    ReadData { slot: u16, req_counter: u64 },
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
    /// Position among all logged reads and writes of this memory (their order within a cycle).
    pub seq: u64,
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
    /// Every DMA read, when logging is on.
    pub read_log: Option<Vec<HostRead>>,
    /// Ranges that answer errors.
    pub errors: Vec<ErrorRange>,
    /// Logged accesses so far (the next one's `seq`).
    logged: u64,
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
            read_log: log.then(Vec::new),
            ..Self::default()
        }
    }

    #[must_use]
    pub fn config(&self) -> HostConfig {
        self.cfg
    }

    /// The same contents and error ranges behind other timing, without logs (a shadow's copy
    /// of a device's memory).
    #[must_use]
    pub fn copy_with(&self, cfg: HostConfig) -> Self {
        Self {
            cfg,
            pages: self.pages.clone(),
            errors: self.errors.clone(),
            ..Self::default()
        }
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

    pub(crate) fn error_at(&self, addr: u64, len: usize, reads: bool) -> Option<DmaError> {
        let end = addr.saturating_add(len as u64);
        self.errors
            .iter()
            .find(|r| r.reads == reads && addr < r.end && r.start < end)
            .map(|r| r.error)
    }

    /// Issues a DMA read at `now` into `buf`; returns the cycle the data is at the NIC. The bytes
    /// are sampled at issue (a concurrent write to the same range is a race software avoids).
    ///
    /// # Errors
    /// An injected error range overlaps the access.
    pub fn read_dma(
        &mut self,
        now: u64,
        region: u16,
        addr: u64,
        buf: &mut [u8],
        purpose: ReadPurpose,
    ) -> Result<u64, (DmaError, u64)> {
        let start = now.max(self.rd_free_at);
        self.rd_free_at = start + xfer_cycles(buf.len(), self.cfg.bytes_per_cycle);
        let done = self.rd_free_at + self.cfg.read_latency;
        let err = self.error_at(addr, buf.len(), true);
        if err.is_none() {
            self.read(addr, buf);
        }
        if let Some(log) = self.read_log.as_mut() {
            self.logged += 1;
            log.push(HostRead {
                region,
                addr,
                len: buf.len() as u64,
                seq: self.logged - 1,
                data: if err.is_none() {
                    buf.to_vec()
                } else {
                    Vec::new()
                },
                issued: now,
                purpose,
            });
        }
        match err {
            Some(e) => Err((e, done)),
            None => Ok(done),
        }
    }

    /// Issues a DMA write at `now`; returns the cycle it is complete (visible). The model applies
    /// the bytes at once (nothing reads them through the NIC before then in a correct run) and
    /// logs the true visibility time for the checks. A write into an error range is not applied.
    ///
    /// # Errors
    /// An injected error range overlaps the access.
    pub fn write_dma(
        &mut self,
        now: u64,
        region: u16,
        addr: u64,
        data: &[u8],
        purpose: WritePurpose,
    ) -> Result<u64, (DmaError, u64)> {
        let start = now.max(self.wr_free_at);
        self.wr_free_at = start + xfer_cycles(data.len(), self.cfg.bytes_per_cycle);
        let visible = self.wr_free_at + self.cfg.write_latency;
        if let Some(e) = self.error_at(addr, data.len(), false) {
            return Err((e, visible));
        }
        self.write(addr, data);
        if let Some(log) = self.log.as_mut() {
            log.push(HostWrite {
                region,
                addr,
                data: data.to_vec(),
                issued: now,
                visible,
                purpose,
                seq: self.logged,
            });
            self.logged += 1;
        }
        Ok(visible)
    }
}

impl HostPort for HostMem {
    fn dma_read(
        &mut self,
        now: u64,
        region: u16,
        addr: u64,
        buf: &mut [u8],
        purpose: ReadPurpose,
    ) -> Result<u64, (DmaError, u64)> {
        self.read_dma(now, region, addr, buf, purpose)
    }
    fn dma_write(
        &mut self,
        now: u64,
        region: u16,
        addr: u64,
        data: &[u8],
        purpose: WritePurpose,
    ) -> Result<u64, (DmaError, u64)> {
        self.write_dma(now, region, addr, data, purpose)
    }
    fn read_ready_at(&self) -> u64 {
        self.rd_free_at
    }
    fn mem(&self) -> Option<&HostMem> {
        Some(self)
    }
    fn mem_mut(&mut self) -> Option<&mut HostMem> {
        Some(self)
    }
}
