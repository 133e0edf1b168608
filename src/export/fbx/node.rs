//! Binary FBX 7.4 records: a tree of named nodes with typed values, each record prefixed
//! with the file offset where it ends, arrays over 128 bytes zlib-compressed.

use miniz_oxide::deflate::compress_to_vec_zlib;

/// One value of a node.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Bool(bool),
    I32(i32),
    I64(i64),
    F64(f64),
    Str(String),
    Raw(Vec<u8>),
    F32s(Vec<f32>),
    F64s(Vec<f64>),
    I32s(Vec<i32>),
    I64s(Vec<i64>),
}

/// A node: a name, its values and its children.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Node {
    pub name: &'static str,
    pub values: Vec<Value>,
    pub children: Vec<Node>,
}

impl Node {
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            ..Self::default()
        }
    }

    /// A node holding one value.
    pub fn of(name: &'static str, value: Value) -> Self {
        Self::new(name).value(value)
    }

    pub fn value(mut self, value: Value) -> Self {
        self.values.push(value);
        self
    }

    pub fn child(mut self, child: Node) -> Self {
        self.children.push(child);
        self
    }

    pub fn children(mut self, children: impl IntoIterator<Item = Node>) -> Self {
        self.children.extend(children);
        self
    }
}

/// An object's name as FBX stores it: the name, then its class after `\0\x01`.
pub fn object_name(name: &str, class: &str) -> Value {
    Value::Str(format!("{name}\u{0}\u{1}{class}"))
}

const MAGIC: &[u8] = b"Kaydara FBX Binary  \0\x1a\0";
pub const VERSION: u32 = 7400;
/// A null record: 13 zero bytes close a node's children.
const NULL_RECORD: [u8; 13] = [0; 13];
/// FBX readers check the file id and creation time against the footer's id; this triple is
/// one that readers accept (the FBX SDK writes a matching set for each time stamp).
pub const FILE_ID: [u8; 16] = [
    0x28, 0xb3, 0x2a, 0xeb, 0xb6, 0x24, 0xcc, 0xc2, 0xbf, 0xc8, 0xb0, 0x2a, 0xa9, 0x2b, 0xfc, 0xf1,
];
pub const CREATION_TIME: &str = "1970-01-01 10:00:00:000";
const FOOTER_ID: [u8; 16] = [
    0xfa, 0xbc, 0xab, 0x09, 0xd0, 0xc8, 0xd4, 0x66, 0xb1, 0x76, 0xfb, 0x83, 0x1c, 0xf7, 0x26, 0x7e,
];
const FOOTER_MAGIC: [u8; 16] = [
    0xf8, 0x5a, 0x8c, 0x6a, 0xde, 0xf5, 0xd9, 0x7e, 0xec, 0xe9, 0x0c, 0xe3, 0x75, 0x8f, 0x29, 0x0b,
];

/// The whole file: header, the top-level nodes, a null record and the footer. `None` when
/// it would pass 4 GiB, past what 7.4's 32-bit offsets address.
pub fn encode(top: &[Node]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(1 << 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    for node in top {
        write_node(&mut out, node, false)?;
    }
    out.extend_from_slice(&NULL_RECORD);
    out.extend_from_slice(&FOOTER_ID);
    out.extend_from_slice(&[0; 4]);
    // Pad to 16 bytes (a full 16 when already aligned), as FBX SDK files are.
    let pad = 16 - out.len() % 16;
    out.resize(out.len() + pad, 0);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[0; 120]);
    out.extend_from_slice(&FOOTER_MAGIC);
    u32::try_from(out.len()).ok().map(|_| out)
}

fn write_node(out: &mut Vec<u8>, node: &Node, last: bool) -> Option<()> {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&u32::try_from(node.values.len()).ok()?.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    let name = node.name.as_bytes();
    out.push(u8::try_from(name.len()).ok()?);
    out.extend_from_slice(name);
    let values_start = out.len();
    for value in &node.values {
        write_value(out, value)?;
    }
    let values_len = u32::try_from(out.len() - values_start).ok()?;
    out[start + 8..start + 12].copy_from_slice(&values_len.to_le_bytes());
    if let Some((final_child, rest)) = node.children.split_last() {
        for child in rest {
            write_node(out, child, false)?;
        }
        write_node(out, final_child, true)?;
        out.extend_from_slice(&NULL_RECORD);
    } else if node.values.is_empty() && !last {
        // An empty node is closed like a parent, except as the last of its siblings.
        out.extend_from_slice(&NULL_RECORD);
    }
    let end = u32::try_from(out.len()).ok()?;
    out[start..start + 4].copy_from_slice(&end.to_le_bytes());
    Some(())
}

fn write_value(out: &mut Vec<u8>, value: &Value) -> Option<()> {
    match value {
        Value::Bool(b) => out.extend_from_slice(&[b'C', u8::from(*b)]),
        Value::I32(v) => {
            out.push(b'I');
            out.extend_from_slice(&v.to_le_bytes());
        }
        Value::I64(v) => {
            out.push(b'L');
            out.extend_from_slice(&v.to_le_bytes());
        }
        Value::F64(v) => {
            out.push(b'D');
            out.extend_from_slice(&v.to_le_bytes());
        }
        Value::Str(s) => write_bytes(out, b'S', s.as_bytes())?,
        Value::Raw(bytes) => write_bytes(out, b'R', bytes)?,
        Value::F32s(v) => write_array(out, b'f', v.len(), v.iter().flat_map(|x| x.to_le_bytes()))?,
        Value::F64s(v) => write_array(out, b'd', v.len(), v.iter().flat_map(|x| x.to_le_bytes()))?,
        Value::I32s(v) => write_array(out, b'i', v.len(), v.iter().flat_map(|x| x.to_le_bytes()))?,
        Value::I64s(v) => write_array(out, b'l', v.len(), v.iter().flat_map(|x| x.to_le_bytes()))?,
    }
    Some(())
}

fn write_bytes(out: &mut Vec<u8>, code: u8, bytes: &[u8]) -> Option<()> {
    out.push(code);
    out.extend_from_slice(&u32::try_from(bytes.len()).ok()?.to_le_bytes());
    out.extend_from_slice(bytes);
    Some(())
}

fn write_array(
    out: &mut Vec<u8>,
    code: u8,
    count: usize,
    bytes: impl Iterator<Item = u8>,
) -> Option<()> {
    let raw: Vec<u8> = bytes.collect();
    // Small arrays stay raw, as the FBX SDK writes them; larger ones are deflated (fast level).
    let (encoding, data) = if raw.len() <= 128 {
        (0u32, raw)
    } else {
        (1u32, compress_to_vec_zlib(&raw, 1))
    };
    out.push(code);
    out.extend_from_slice(&u32::try_from(count).ok()?.to_le_bytes());
    out.extend_from_slice(&encoding.to_le_bytes());
    out.extend_from_slice(&u32::try_from(data.len()).ok()?.to_le_bytes());
    out.extend_from_slice(&data);
    Some(())
}

/// `Properties70`'s entries, `P: name, type, label, flags, values…`.
pub mod property {
    use super::{Node, Value};

    fn p(name: &str, kind: &str, label: &str, flags: &str) -> Node {
        Node::new("P")
            .value(Value::Str(name.into()))
            .value(Value::Str(kind.into()))
            .value(Value::Str(label.into()))
            .value(Value::Str(flags.into()))
    }

    pub fn int(name: &str, v: i32) -> Node {
        p(name, "int", "Integer", "").value(Value::I32(v))
    }

    pub fn enumeration(name: &str, v: i32) -> Node {
        p(name, "enum", "", "").value(Value::I32(v))
    }

    pub fn boolean(name: &str, v: bool) -> Node {
        p(name, "bool", "", "").value(Value::I32(i32::from(v)))
    }

    pub fn double(name: &str, v: f64) -> Node {
        p(name, "double", "Number", "").value(Value::F64(v))
    }

    /// An animatable number, as curve nodes' channels and material factors are.
    pub fn number(name: &str, v: f64) -> Node {
        p(name, "Number", "", "A").value(Value::F64(v))
    }

    pub fn string(name: &str, v: &str) -> Node {
        p(name, "KString", "", "").value(Value::Str(v.into()))
    }

    pub fn time(name: &str, ticks: i64) -> Node {
        p(name, "KTime", "Time", "").value(Value::I64(ticks))
    }

    /// An animatable colour (`Color`, as materials use).
    pub fn colour(name: &str, rgb: [f64; 3]) -> Node {
        rgb.iter()
            .fold(p(name, "Color", "", "A"), |n, &c| n.value(Value::F64(c)))
    }

    /// A model's `Lcl Translation`, `Lcl Rotation` or `Lcl Scaling`.
    pub fn local(name: &str, v: [f64; 3]) -> Node {
        v.iter()
            .fold(p(name, name, "", "A"), |n, &c| n.value(Value::F64(c)))
    }

    pub fn object(name: &str) -> Node {
        p(name, "object", "", "")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_end_where_their_offsets_say() {
        let file = encode(&[
            Node::new("Parent")
                .value(Value::I32(7))
                .child(Node::of("Array", Value::F64s(vec![1.0; 40])))
                .child(Node::new("Empty")),
            Node::of("Last", Value::Str("x".into())),
        ])
        .unwrap();
        // The first record starts after the 27-byte header and ends where its offset says,
        // on the next record's start.
        let end = u32::from_le_bytes(file[27..31].try_into().unwrap()) as usize;
        let next_name_len = file[end + 12] as usize;
        assert_eq!(&file[end + 13..end + 13 + next_name_len], b"Last");
        assert_eq!(&file[file.len() - 16..], &FOOTER_MAGIC);
    }
}
