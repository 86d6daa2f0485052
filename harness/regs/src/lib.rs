//! The onerma NIC's configuration and status registers, generated from `spec/onerma_regs.rdl`
//! by `cargo xtask gen` (`xtask/py/rdl_export.py` walks the compiled SystemRDL tree).
//!
//! One module per register (`nic_enable::ADDR`, `nic_enable::ENABLE`, `nic_enable::REG`), plus
//! [`REGS`] (every register by address) and [`COUNTERS`] (the protocol §12 event counters, in
//! the order of `onerma_csr`'s `cnt_incr_i` bits). The same map is in `rtl/nic/regs/` (the
//! regblock RTL), `sw/include/onerma_regs.h` and `docs/registers.md`.

mod generated;

pub use generated::*;

/// What software may do with a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    ReadWrite,
    ReadOnly,
    WriteOnly,
}

impl Access {
    pub fn readable(self) -> bool {
        self != Access::WriteOnly
    }

    pub fn writable(self) -> bool {
        self != Access::ReadOnly
    }
}

/// One field of a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    /// Least significant bit in the 32-bit register.
    pub lsb: u32,
    pub width: u32,
    /// Value after reset; `None` for a field that shows a hardware value live (no storage).
    pub reset: Option<u32>,
    pub access: Access,
    /// Hardware changes the value (counters, sticky bits, live values).
    pub hw_writes: bool,
    /// An event counter.
    pub counter: bool,
}

impl Field {
    /// The field's bits in the register.
    pub const fn mask(&self) -> u32 {
        let ones = if self.width >= 32 {
            u32::MAX
        } else {
            (1u32 << self.width) - 1
        };
        ones << self.lsb
    }

    /// `v` placed in the field's bits (bits above the width dropped).
    pub const fn place(&self, v: u32) -> u32 {
        (v << self.lsb) & self.mask()
    }

    /// The field's value in the register value `reg`.
    pub const fn get(&self, reg: u32) -> u32 {
        (reg & self.mask()) >> self.lsb
    }
}

/// One 32-bit register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reg {
    pub name: &'static str,
    /// Byte address on the AXI4-Lite port.
    pub addr: u64,
    pub fields: &'static [Field],
}

impl Reg {
    /// The register's value after reset, or `None` if a field shows a live hardware value.
    pub fn reset(&self) -> Option<u32> {
        self.fields
            .iter()
            .try_fold(0u32, |acc, f| f.reset.map(|r| acc | f.place(r)))
    }

    /// Software can read it (some field is readable).
    pub fn readable(&self) -> bool {
        self.fields.iter().any(|f| f.access.readable())
    }

    /// Software can write it (some field is writable).
    pub fn writable(&self) -> bool {
        self.fields.iter().any(|f| f.access.writable())
    }

    /// The bits software can read back.
    pub fn read_mask(&self) -> u32 {
        self.fields
            .iter()
            .filter(|f| f.access.readable())
            .fold(0, |m, f| m | f.mask())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_is_consistent() {
        // Addresses ascend, are word aligned and inside the map; fields do not overlap.
        for w in REGS.windows(2) {
            assert!(w[0].addr < w[1].addr, "{} / {}", w[0].name, w[1].name);
        }
        for r in REGS {
            assert_eq!(r.addr % 4, 0, "{}", r.name);
            assert!(r.addr + 4 <= MAP_SIZE, "{}", r.name);
            let mut seen = 0u32;
            for f in r.fields {
                assert!(f.lsb + f.width <= 32, "{}.{}", r.name, f.name);
                assert_eq!(seen & f.mask(), 0, "{}.{} overlaps", r.name, f.name);
                seen |= f.mask();
            }
        }
        assert_eq!(COUNTERS.len(), 19, "protocol §12 lists 19 counters");
        assert_eq!(nack_depth::REG.reset(), Some(16));
        assert_eq!(nic_time_lo::REG.reset(), None);
    }
}
