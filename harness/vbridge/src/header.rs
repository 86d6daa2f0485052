//! Port list of a Verilated model, read from the `V<name>.h` header Verilator writes.
//!
//! Verilator 5 declares every top-level port as one macro line inside the model class,
//! e.g. `VL_IN8(&clk_i,0,0);` or `VL_OUTW(&data_o,127,0,4);`. Parsing those lines is
//! more robust than re-elaborating the SystemVerilog ourselves, and it gives exactly
//! the C++ storage type of each port member.

use crate::BridgeError;

/// Direction of a top-level port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// `VL_IN*`
    In,
    /// `VL_OUT*`
    Out,
    /// `VL_INOUT*` (treated as both readable and writable)
    InOut,
}

/// C++ storage class Verilator picked for a port (decides the Rust type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// `CData` (u8), widths 1..=8
    C,
    /// `SData` (u16), widths 9..=16
    S,
    /// `IData` (u32), widths 17..=32
    I,
    /// `QData` (u64), widths 33..=64
    Q,
    /// `VlWide<words>` (array of u32, word 0 = bits 31:0), widths > 64
    W(usize),
}

/// One top-level port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub dir: Dir,
    pub storage: Storage,
    /// Width in bits.
    pub width: u32,
}

impl Port {
    /// Rust scalar type for narrow ports, `None` for wide ones.
    pub fn rust_scalar(&self) -> Option<&'static str> {
        match self.storage {
            Storage::C => Some("u8"),
            Storage::S => Some("u16"),
            Storage::I => Some("u32"),
            Storage::Q => Some("u64"),
            Storage::W(_) => None,
        }
    }

    /// Bits of the C++ storage type (per word for wide ports).
    pub fn storage_bits(&self) -> u32 {
        match self.storage {
            Storage::C => 8,
            Storage::S => 16,
            Storage::I | Storage::W(_) => 32,
            Storage::Q => 64,
        }
    }
}

/// Parse every `VL_IN*` / `VL_OUT*` / `VL_INOUT*` declaration of a Verilator 5 model header.
pub fn parse_ports(header: &str) -> Result<Vec<Port>, BridgeError> {
    let mut ports = Vec::new();
    for (lineno, raw) in header.lines().enumerate() {
        let line = raw.trim();
        let Some(rest) = line.strip_prefix("VL_") else {
            continue;
        };
        let Some(open) = rest.find('(') else {
            continue;
        };
        let mac = &rest[..open];
        let (dir, kind) = if let Some(k) = mac.strip_prefix("INOUT") {
            (Dir::InOut, k)
        } else if let Some(k) = mac.strip_prefix("IN") {
            (Dir::In, k)
        } else if let Some(k) = mac.strip_prefix("OUT") {
            (Dir::Out, k)
        } else {
            continue;
        };
        if !matches!(kind, "8" | "16" | "" | "64" | "W") {
            continue;
        }
        let bad = |why: &str| BridgeError::Header {
            line: lineno + 1,
            text: raw.to_string(),
            why: why.to_string(),
        };
        let args = rest[open + 1..]
            .strip_suffix(");")
            .ok_or_else(|| bad("expected the declaration to end with `);`"))?;
        let fields: Vec<&str> = args.split(',').map(str::trim).collect();
        let name = fields
            .first()
            .and_then(|f| f.strip_prefix('&'))
            .ok_or_else(|| bad("expected `&name` as first argument"))?;
        if !is_c_ident(name) {
            // Unpacked-array ports come out as `(&name)[N]`: not supported by the bridge.
            return Err(bad(
                "unsupported port form (unpacked array port?); pack it into a vector",
            ));
        }
        let num = |i: usize| -> Result<u32, BridgeError> {
            fields
                .get(i)
                .and_then(|f| f.parse::<u32>().ok())
                .ok_or_else(|| bad("expected numeric msb/lsb/words"))
        };
        let (msb, lsb) = (num(1)?, num(2)?);
        let width = msb.abs_diff(lsb) + 1;
        let storage = match kind {
            "8" => Storage::C,
            "16" => Storage::S,
            "" => Storage::I,
            "64" => Storage::Q,
            _ => {
                let words = num(3)? as usize;
                if words as u32 != width.div_ceil(32) {
                    return Err(bad("word count does not match the width"));
                }
                Storage::W(words)
            }
        };
        let max = match storage {
            Storage::C => 8,
            Storage::S => 16,
            Storage::I => 32,
            Storage::Q => 64,
            Storage::W(_) => u32::MAX,
        };
        if fields.len() != if kind == "W" { 4 } else { 3 } || width > max {
            return Err(bad("argument count or width does not fit the macro"));
        }
        ports.push(Port {
            name: name.to_string(),
            dir,
            storage,
            width,
        });
    }
    if ports.is_empty() {
        return Err(BridgeError::Header {
            line: 0,
            text: String::new(),
            why: "no VL_IN*/VL_OUT* port declarations found".into(),
        });
    }
    Ok(ports)
}

fn is_c_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    const HDR: &str = r#"
class alignas(VL_CACHE_LINE_BYTES) Vt VL_NOT_FINAL : public VerilatedModel {
  public:
    // PORTS
    VL_IN8(&clk_i,0,0);
    VL_IN8(&rst_ni,0,0);
    VL_OUT8(&b_o,0,0);
    VL_OUT16(&c_o,15,0);
    VL_INW(&w_i,127,0,4);
    VL_OUTW(&w_o,127,0,4);
    VL_IN64(&q_i,40,0);
    VL_IN(&m_i,31,0);
    VL_INOUT8(&io,3,0);
    VL_OUTW(&odd_o,64,0,3);
    Vt(VerilatedContext* contextp, const char* name = "TOP");
"#;

    #[test]
    fn parses_every_width_class() {
        let p = parse_ports(HDR).expect("parse");
        let got: Vec<(&str, Dir, Storage, u32)> = p
            .iter()
            .map(|p| (p.name.as_str(), p.dir, p.storage, p.width))
            .collect();
        assert_eq!(
            got,
            vec![
                ("clk_i", Dir::In, Storage::C, 1),
                ("rst_ni", Dir::In, Storage::C, 1),
                ("b_o", Dir::Out, Storage::C, 1),
                ("c_o", Dir::Out, Storage::S, 16),
                ("w_i", Dir::In, Storage::W(4), 128),
                ("w_o", Dir::Out, Storage::W(4), 128),
                ("q_i", Dir::In, Storage::Q, 41),
                ("m_i", Dir::In, Storage::I, 32),
                ("io", Dir::InOut, Storage::C, 4),
                ("odd_o", Dir::Out, Storage::W(3), 65),
            ]
        );
    }

    #[test]
    fn ascending_range_width() {
        let p = parse_ports("VL_IN16(&x,0,9);").expect("parse");
        assert_eq!(p[0].width, 10);
    }

    #[test]
    fn rejects_unpacked_array_port() {
        let e = parse_ports("VL_IN8((&arr)[4],7,0);").expect_err("must fail");
        assert!(matches!(e, BridgeError::Header { line: 1, .. }), "{e}");
    }

    #[test]
    fn rejects_width_that_overflows_macro() {
        assert!(parse_ports("VL_IN8(&x,8,0);").is_err());
        assert!(parse_ports("VL_INW(&x,127,0,3);").is_err());
        assert!(parse_ports("VL_IN64(&x,40);").is_err());
    }

    #[test]
    fn ignores_other_macros_and_requires_ports() {
        assert!(parse_ports("VL_ATTR_COLD void f();\nVL_UNCOPYABLE(Vt);").is_err());
    }
}
