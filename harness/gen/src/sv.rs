//! SystemVerilog package renderer.

use std::fmt::Write as _;

use crate::spec::{FieldKind, Spec};

fn comment(out: &mut String, indent: &str, doc: &str) {
    for line in doc.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            let _ = writeln!(out, "{indent}//");
        } else {
            let _ = writeln!(out, "{indent}// {line}");
        }
    }
}

fn logic(bits: u32) -> String {
    if bits == 1 {
        "logic".to_string()
    } else {
        format!("logic [{}:0]", bits - 1)
    }
}

/// An unsized decimal literal is a signed 32-bit int: values from 2^31 on need a size.
fn int_literal(v: u64) -> String {
    if v < 1 << 31 {
        v.to_string()
    } else {
        format!("32'd{v}")
    }
}

pub fn render(spec: &Spec, header: &str) -> String {
    let mut o = String::new();
    comment(&mut o, "", header);
    o.push_str("\n`default_nettype none\n\n");
    comment(&mut o, "", &spec.doc);
    let _ = writeln!(o, "package {};", spec.package);
    // Every importer sees all package parameters; without this each of them would get an
    // UNUSEDPARAM warning per constant it does not happen to use.
    o.push_str("\n  /* verilator lint_off UNUSEDPARAM */\n");

    if !spec.constants.is_empty() {
        o.push('\n');
    }
    for c in &spec.constants {
        comment(&mut o, "  ", &c.doc);
        let _ = writeln!(
            o,
            "  localparam int unsigned {} = {};",
            c.sv_name,
            int_literal(c.value)
        );
    }

    for e in &spec.enums {
        o.push('\n');
        comment(&mut o, "  ", &e.doc);
        let _ = writeln!(o, "  typedef enum {} {{", logic(e.bits));
        let n = e.values.len();
        for (i, v) in e.values.iter().enumerate() {
            comment(&mut o, "    ", &v.doc);
            let sep = if i + 1 == n { "" } else { "," };
            let _ = writeln!(o, "    {} = {}'d{}{sep}", v.sv_name, e.bits, v.value);
        }
        let _ = writeln!(o, "  }} {};", e.sv_type);
    }

    for l in &spec.layouts {
        let total = l.bits();
        o.push('\n');
        comment(&mut o, "  ", &l.doc);
        let _ = writeln!(
            o,
            "  // {} bytes; the first field is in the most significant bits.",
            l.bytes
        );
        let _ = writeln!(o, "  typedef struct packed {{");
        for f in &l.fields {
            comment(&mut o, "    ", &f.doc);
            let ty = match f.kind {
                FieldKind::Enum { index } => spec.enums[index].sv_type.clone(),
                _ => logic(f.bits),
            };
            let note = if matches!(f.kind, FieldKind::Reserved) {
                ", reserved: must be zero"
            } else {
                ""
            };
            let _ = writeln!(
                o,
                "    {ty} {}; // [{}:{}]{note}",
                f.name,
                f.sv_msb(total),
                f.sv_lsb(total)
            );
        }
        let _ = writeln!(o, "  }} {};", l.sv_type);
        let _ = writeln!(
            o,
            "  localparam int unsigned {} = {total};",
            l.sv_bits_param
        );
    }

    o.push_str("\n  /* verilator lint_on UNUSEDPARAM */\n");
    let _ = writeln!(o, "\nendpackage\n\n`default_nettype wire");
    o
}
