//! Binary FBX (versions 7.0–7.7): a header, then nested node records whose values are typed
//! scalars, strings and arrays (zlib-compressed when large). Offsets and lengths come from the
//! file, so each is checked against the bytes there are before it is followed.

use super::tree::{Budget, Node, Value};

pub const MAGIC: &[u8] = b"Kaydara FBX Binary  \0";
/// The header's text, which a damaged file may still start with.
pub const MAGIC_TEXT: &[u8] = b"Kaydara FBX Binary";
const HEADER: usize = 27;

/// The top-level nodes of a binary FBX file, and its version (7400 for 7.4).
pub fn parse(
    bytes: &[u8],
    max_nodes: usize,
    max_array_bytes: usize,
) -> Result<(Vec<Node>, u32), String> {
    if bytes.len() < HEADER || !bytes.starts_with(MAGIC) || bytes[21..23] != [0x1a, 0] {
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
            b'Y' => Value::Int(i16::from_le_bytes(self.array::<2>()?) as i64),
            b'C' => Value::Int((self.byte()? != 0) as i64),
            b'I' => Value::Int(i32::from_le_bytes(self.array::<4>()?) as i64),
            b'L' => Value::Int(i64::from_le_bytes(self.array::<8>()?)),
            b'F' => Value::Float(f32::from_le_bytes(self.array::<4>()?) as f64),
            b'D' => Value::Float(f64::from_le_bytes(self.array::<8>()?)),
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
        let chunks = raw.chunks_exact(size);
        Ok(match code {
            b'd' => Value::Floats(
                chunks
                    .map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
                    .collect(),
            ),
            b'f' => Value::Floats(
                chunks
                    .map(|c| f32::from_le_bytes(c.try_into().unwrap_or([0; 4])) as f64)
                    .collect(),
            ),
            b'l' => Value::Ints(
                chunks
                    .map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
                    .collect(),
            ),
            b'i' => Value::Ints(
                chunks
                    .map(|c| i32::from_le_bytes(c.try_into().unwrap_or([0; 4])) as i64)
                    .collect(),
            ),
            _ => Value::Ints(raw.iter().map(|&b| b as i64).collect()),
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
