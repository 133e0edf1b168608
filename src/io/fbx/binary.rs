//! Binary FBX (versions 7.0–7.7): a header, then nested node records whose values are typed
//! scalars, strings and arrays (zlib-compressed when large). Offsets and lengths come from the
//! file, so each is checked against the bytes there are before it is followed. Written as 7.4,
//! each record prefixed with the file offset where it ends, arrays over 128 bytes deflated.

use miniz_oxide::deflate::compress_to_vec_zlib;

use super::tree::{Budget, Node, Value};

pub const MAGIC: &[u8] = b"Kaydara FBX Binary  \0";
/// The two bytes after [`MAGIC`], before the version.
const MAGIC_END: [u8; 2] = [0x1a, 0];
/// The header's text, which a damaged file may still start with.
pub const MAGIC_TEXT: &[u8] = b"Kaydara FBX Binary";
const HEADER: usize = 27;

/// The top-level nodes of a binary FBX file, and its version (7400 for 7.4).
pub fn parse(
    bytes: &[u8],
    max_nodes: usize,
    max_array_bytes: usize,
) -> Result<(Vec<Node>, u32), String> {
    if bytes.len() < HEADER || !bytes.starts_with(MAGIC) || bytes[21..23] != MAGIC_END {
        return Err(
            if bytes.starts_with(MAGIC_TEXT) && bytes.get(20) == Some(&b' ') {
                "its binary header is damaged: its zero bytes became spaces, as when a binary file is copied as text".into()
            } else {
                "its binary FBX header is damaged or cut short".into()
            },
        );
    }
    let version = u32::from_le_bytes([bytes[23], bytes[24], bytes[25], bytes[26]]);
    if !(7000..8000).contains(&version) {
        return Err(format!(
            "binary FBX version {}.{} is not supported (7.x is)",
            version / 1000,
            version % 1000 / 100
        ));
    }
    let mut reader = Reader {
        bytes,
        pos: HEADER,
        wide: version >= 7500,
        budget: Budget::new(max_nodes),
        array_bytes_left: max_array_bytes.saturating_mul(2),
        max_array_bytes,
    };
    let nodes = reader.nodes(bytes.len(), 0)?;
    if nodes.is_empty() {
        return Err("it holds no nodes".into());
    }
    Ok((nodes, version))
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// 7.5 and later write offsets and counts as 64-bit numbers.
    wide: bool,
    budget: Budget,
    /// Decoded array bytes the whole file may still use.
    array_bytes_left: usize,
    max_array_bytes: usize,
}

impl Reader<'_> {
    fn header_len(&self) -> usize {
        if self.wide { 25 } else { 13 }
    }

    /// Records until a null record or `end`.
    fn nodes(&mut self, end: usize, depth: usize) -> Result<Vec<Node>, String> {
        let mut nodes = Vec::new();
        while self.pos + self.header_len() <= end {
            let start = self.pos;
            let end_offset = self.offset()?;
            let value_count = self.offset()?;
            let values_len = self.offset()?;
            let name_len = self.byte()? as usize;
            if end_offset == 0 {
                // A null record closes the list.
                return Ok(nodes);
            }
            if end_offset > end && end == self.bytes.len() {
                return Err(format!(
                    "it is cut short: a node at byte {start} ends at byte {end_offset}, past the end of the file ({end} bytes)"
                ));
            }
            if end_offset <= start || end_offset > end {
                return Err(format!(
                    "a node at byte {start} ends at byte {end_offset}, outside its parent (which ends at {end})"
                ));
            }
            self.budget.take(depth)?;
            let name = String::from_utf8_lossy(self.take(name_len)?).into_owned();
            let values_end = self
                .pos
                .checked_add(values_len)
                .filter(|&e| e <= end_offset)
                .ok_or_else(|| format!("the values of node '{name}' run past its end"))?;
            let mut values = Vec::new();
            for _ in 0..value_count {
                if self.pos >= values_end {
                    return Err(format!("node '{name}' has fewer values than it says"));
                }
                values.push(self.value()?);
            }
            self.pos = values_end;
            let children = if self.pos < end_offset {
                self.nodes(end_offset, depth + 1)?
            } else {
                Vec::new()
            };
            self.pos = end_offset;
            nodes.push(Node {
                name,
                values,
                children,
            });
        }
        Ok(nodes)
    }

    fn value(&mut self) -> Result<Value, String> {
        let code = self.byte()?;
        Ok(match code {
            b'Y' => Value::I16(i16::from_le_bytes(self.array::<2>()?)),
            b'C' => Value::Bool(self.byte()? != 0),
            b'I' => Value::I32(i32::from_le_bytes(self.array::<4>()?)),
            b'L' => Value::I64(i64::from_le_bytes(self.array::<8>()?)),
            b'F' => Value::F32(f32::from_le_bytes(self.array::<4>()?)),
            b'D' => Value::F64(f64::from_le_bytes(self.array::<8>()?)),
            b'S' | b'R' => {
                let len = self.u32()? as usize;
                let data = self.take(len)?;
                if code == b'S' {
                    Value::Str(String::from_utf8_lossy(data).into_owned())
                } else {
                    Value::Raw(data.to_vec())
                }
            }
            b'f' | b'd' | b'l' | b'i' | b'b' | b'c' => self.array_value(code)?,
            other => {
                return Err(format!(
                    "unknown value type '{}' at byte {}",
                    other.escape_ascii(),
                    self.pos - 1
                ));
            }
        })
    }

    fn array_value(&mut self, code: u8) -> Result<Value, String> {
        let count = self.u32()? as usize;
        let encoding = self.u32()?;
        let stored = self.u32()? as usize;
        let size = match code {
            b'd' | b'l' => 8,
            b'f' | b'i' => 4,
            _ => 1,
        };
        let decoded_len = count
            .checked_mul(size)
            .filter(|&n| n <= self.max_array_bytes && n <= self.array_bytes_left)
            .ok_or_else(|| format!("an array of {count} values is larger than the limit"))?;
        self.array_bytes_left -= decoded_len;
        let data = self.take(stored)?;
        let inflated;
        let raw: &[u8] = match encoding {
            0 => data,
            1 => {
                inflated =
                    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(data, decoded_len)
                        .map_err(|_| "a compressed array does not decompress".to_owned())?;
                &inflated
            }
            other => return Err(format!("unknown array encoding {other}")),
        };
        if raw.len() != decoded_len {
            return Err(format!(
                "an array says it has {count} values but holds {} bytes",
                raw.len()
            ));
        }
        Ok(match code {
            b'd' => Value::F64s(little_endian(raw, f64::from_le_bytes)),
            b'f' => Value::F32s(little_endian(raw, f32::from_le_bytes)),
            b'l' => Value::I64s(little_endian(raw, i64::from_le_bytes)),
            b'i' => Value::I32s(little_endian(raw, i32::from_le_bytes)),
            _ => Value::Bytes(raw.to_vec()),
        })
    }

    fn take(&mut self, len: usize) -> Result<&[u8], String> {
        let end = self
            .pos
            .checked_add(len)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| {
                format!(
                    "it ends early (at byte {}, {len} more needed)",
                    self.bytes.len()
                )
            })?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.array::<4>()?))
    }

    /// An offset or count: 32 bits before 7.5, 64 after.
    fn offset(&mut self) -> Result<usize, String> {
        if self.wide {
            usize::try_from(u64::from_le_bytes(self.array::<8>()?))
                .map_err(|_| "an offset larger than memory".to_owned())
        } else {
            Ok(self.u32()? as usize)
        }
    }
}

/// The version rigkit writes: 7.4, which every FBX reader in use takes.
pub const VERSION: u32 = 7400;
/// A null record: 13 zero bytes close a node's children.
const NULL_RECORD: [u8; 13] = [0; 13];
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
    out.extend_from_slice(&MAGIC_END);
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
        Value::Bool(b) => write_scalar(out, b'C', &[u8::from(*b)]),
        Value::I16(v) => write_scalar(out, b'Y', &v.to_le_bytes()),
        Value::I32(v) => write_scalar(out, b'I', &v.to_le_bytes()),
        Value::I64(v) => write_scalar(out, b'L', &v.to_le_bytes()),
        Value::F32(v) => write_scalar(out, b'F', &v.to_le_bytes()),
        Value::F64(v) => write_scalar(out, b'D', &v.to_le_bytes()),
        Value::Str(s) => write_bytes(out, b'S', s.as_bytes())?,
        Value::Raw(bytes) => write_bytes(out, b'R', bytes)?,
        Value::Bytes(v) => write_array(out, b'b', v.len(), v.iter().copied())?,
        Value::F32s(v) => write_array(out, b'f', v.len(), v.iter().flat_map(|x| x.to_le_bytes()))?,
        Value::F64s(v) => write_array(out, b'd', v.len(), v.iter().flat_map(|x| x.to_le_bytes()))?,
        Value::I32s(v) => write_array(out, b'i', v.len(), v.iter().flat_map(|x| x.to_le_bytes()))?,
        Value::I64s(v) => write_array(out, b'l', v.len(), v.iter().flat_map(|x| x.to_le_bytes()))?,
    }
    Some(())
}

fn write_scalar(out: &mut Vec<u8>, code: u8, bytes: &[u8]) {
    out.push(code);
    out.extend_from_slice(bytes);
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

/// `raw` read as consecutive little-endian numbers of `N` bytes each.
fn little_endian<T, const N: usize>(raw: &[u8], from: fn([u8; N]) -> T) -> Vec<T> {
    (raw.chunks_exact(N))
        .map(|c| from(c.try_into().unwrap_or([0; N])))
        .collect()
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
