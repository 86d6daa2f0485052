//! Markdown renderer for `docs/layouts.md`.

use std::fmt::Write as _;

use crate::spec::{FieldKind, Spec};

/// A doc string as one table cell.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

pub fn render(spec: &Spec, header: &str) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "<!-- {} -->\n", header.replace('\n', " "));
    let _ = writeln!(o, "# Bit layouts (`{}`)\n", spec.package);
    if !spec.doc.is_empty() {
        let _ = writeln!(o, "{}\n", spec.doc);
    }
    o.push_str(
        "Fields are listed most significant first. Serialised, byte 0 holds the 8 most significant \
         bits (network order); in the packed SV struct the first field is in the top bits.\n\
         **Offset** `B.b` is the byte index `B` and the bit `b` (7 = most significant) of the \
         field's most significant bit. **SV bits** is the `[msb:lsb]` range in the packed struct. \
         Reserved fields must be zero: Rust `from_bytes` rejects input where they are not.\n",
    );

    if !spec.constants.is_empty() {
        o.push_str("\n## Constants\n\n| Name | SV | Value | Description |\n|---|---|---:|---|\n");
        for c in &spec.constants {
            let _ = writeln!(
                o,
                "| `{}` | `{}` | {} | {} |",
                c.name,
                c.sv_name,
                c.value,
                cell(&c.doc)
            );
        }
    }

    for l in &spec.layouts {
        let total = l.bits();
        let _ = writeln!(o, "\n## Layout `{}`\n", l.name);
        if !l.doc.is_empty() {
            let _ = writeln!(o, "{}\n", l.doc);
        }
        let _ = writeln!(
            o,
            "{} bytes ({total} bits). SV `{}`, Rust `{}`.\n",
            l.bytes, l.sv_type, l.rust_type
        );
        o.push_str("| Offset | Width | SV bits | Field | Type | Description |\n");
        o.push_str("|---:|---:|---|---|---|---|\n");
        for f in &l.fields {
            let ty = match f.kind {
                FieldKind::Enum { index } => format!("enum `{}`", spec.enums[index].name),
                FieldKind::Value { .. } => "value".to_string(),
                FieldKind::Reserved => "reserved (0)".to_string(),
            };
            let _ = writeln!(
                o,
                "| {}.{} | {} | [{}:{}] | `{}` | {ty} | {} |",
                f.offset / 8,
                7 - f.offset % 8,
                f.bits,
                f.sv_msb(total),
                f.sv_lsb(total),
                f.name,
                cell(&f.doc)
            );
        }
    }

    for e in &spec.enums {
        let _ = writeln!(o, "\n## Enum `{}`\n", e.name);
        if !e.doc.is_empty() {
            let _ = writeln!(o, "{}\n", e.doc);
        }
        let _ = writeln!(
            o,
            "{} bits. SV `{}`, Rust `{}`.\n",
            e.bits, e.sv_type, e.rust_type
        );
        o.push_str("| Value | Name | SV | Rust | Description |\n|---:|---|---|---|---|\n");
        for v in &e.values {
            let _ = writeln!(
                o,
                "| {:#x} | `{}` | `{}` | `{}::{}` | {} |",
                v.value,
                v.name,
                v.sv_name,
                e.rust_type,
                v.rust_name,
                cell(&v.doc)
            );
        }
    }
    o
}
