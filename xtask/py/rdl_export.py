"""Rust and SV address constants of a SystemRDL register map (`cargo xtask gen`, in .tools/venv).

argv: the .rdl file, the output .rs file, the output SV package file, the header text (one
line). Walks the elaborated systemrdl-compiler tree of the top addrmap and writes

- Rust: per register a module with ADDR, the register's `Reg` and one `Field` constant per field,
  plus `REGS` (every register, by address) and `COUNTERS` (registers whose field is a counter, by
  address). The types live in harness/regs.
- SV: package `<top>_addr_pkg` with `AddrWidth` and one `<RegName>Addr` localparam per register,
  for RTL that decodes addresses beside the regblock (onerma_csr's write guard).
"""
import sys

from systemrdl import RDLCompiler
from systemrdl.node import RegNode


def doc(text, indent):
    """RDL prose as Rust doc comments: each paragraph on one line (the RDL's line breaks would
    otherwise start Markdown constructs, e.g. a line beginning `>=` reads as a quote)."""
    paras = [" ".join(p.split()) for p in (text or "").strip().split("\n\n")]
    out = []
    for i, p in enumerate(q for q in paras if q):
        p = p.replace("[", "\\[").replace("]", "\\]")  # not intra-doc links
        if p[0] in ">#-*+":
            p = "\\" + p
        out.append(("" if i == 0 else f"{indent}///\n") + f"{indent}/// {p}\n")
    return "".join(out)


def access(readable, writable):
    return {(True, True): "ReadWrite", (True, False): "ReadOnly", (False, True): "WriteOnly"}[
        (readable, writable)
    ]


def main():
    src, out, sv_out, header = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    rdlc = RDLCompiler()
    rdlc.compile_file(src)
    top = rdlc.elaborate().top
    regs = sorted(
        (n for n in top.descendants() if isinstance(n, RegNode)),
        key=lambda r: r.absolute_address,
    )
    o = [f"// {header}\n\n"]
    o.append("use crate::{Access, Field, Reg};\n\n")
    o.append(f"/// Bytes spanned by the map ({top.inst_name}).\n")
    o.append(f"pub const MAP_SIZE: u64 = {top.size:#x};\n\n")
    for r in regs:
        name = r.inst_name
        o.append(doc(f"{r.get_property('name')}: {r.get_property('desc') or ''}", ""))
        o.append(f"pub mod {name} {{\n    use super::*;\n\n")
        o.append("    /// Byte address.\n")
        o.append(f"    pub const ADDR: u64 = {r.absolute_address:#05x};\n")
        fields = []
        for f in r.fields():
            const = f.inst_name.upper()
            if const in ("ADDR", "REG"):
                sys.exit(f"{name}.{f.inst_name}: a field may not be named {const} (Rust constant)")
            fields.append(const)
            # Hardware changes the value: written by hardware, set/cleared by it, or counted.
            hw_changes = f.is_hw_writable or any(
                f.get_property(p) for p in ("hwset", "hwclr", "counter")
            )
            reset = f.get_property("reset")
            reset = "None" if reset is None else f"Some({reset:#x})"
            o.append(doc(f.get_property("desc"), "    "))
            o.append(
                f"    pub const {const}: Field = Field {{ name: \"{f.inst_name}\", "
                f"lsb: {f.lsb}, width: {f.width}, reset: {reset}, "
                f"access: Access::{access(f.is_sw_readable, f.is_sw_writable)}, "
                f"hw_writes: {str(bool(hw_changes)).lower()}, "
                f"counter: {str(bool(f.get_property('counter'))).lower()} }};\n"
            )
        o.append("    /// The register.\n")
        o.append(
            f"    pub const REG: Reg = Reg {{ name: \"{name}\", addr: ADDR, "
            f"fields: &[{', '.join(fields)}] }};\n}}\n\n"
        )
    o.append("/// Every register, by address.\n")
    o.append(f"pub const REGS: &[Reg] = &[{', '.join(f'{r.inst_name}::REG' for r in regs)}];\n\n")
    counters = [r for r in regs if any(f.get_property("counter") for f in r.fields())]
    o.append("/// The event counters, by address (onerma_csr `cnt_incr_i` bit i is `COUNTERS[i]`).\n")
    o.append(
        f"pub const COUNTERS: &[Reg] = &[{', '.join(f'{r.inst_name}::REG' for r in counters)}];\n"
    )
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("".join(o))

    aw = max(1, (top.size - 1).bit_length())
    pkg = f"{top.inst_name}_addr_pkg"
    sv = [f"// {header}\n\n`default_nettype none\n\n"]
    sv.append(f"// Byte addresses of the registers of {top.inst_name}.\npackage {pkg};\n")
    sv.append(f"  localparam int unsigned AddrWidth = {aw};\n")
    for r in regs:
        camel = "".join(w.capitalize() for w in r.inst_name.split("_"))
        sv.append(f"  localparam logic [{aw - 1}:0] {camel}Addr = {aw}'h{r.absolute_address:x};\n")
    sv.append(f"endpackage\n\n`default_nettype wire\n")
    with open(sv_out, "w", encoding="utf-8") as fh:
        fh.write("".join(sv))


if __name__ == "__main__":
    main()
