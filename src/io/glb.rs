//! The GLB container: a 12-byte header, a JSON chunk and an optional binary chunk.
//!
//! Parsed here rather than by the `gltf` crate so that every length is checked against the real
//! byte count: truncated or lying headers must give an error, never an overflow or a panic.

/// The two chunks of a GLB file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GlbChunks<'a> {
    pub json: &'a [u8],
    pub bin: Option<&'a [u8]>,
}

const MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Splits a GLB file into its chunks, or says in words why it cannot.
pub fn split(bytes: &[u8]) -> Result<GlbChunks<'_>, String> {
    if bytes.get(..4) != Some(MAGIC.as_slice()) {
        return Err("it does not start with the GLB magic 'glTF'".into());
    }
    let (Some(version), Some(length)) = (read_u32(bytes, 4), read_u32(bytes, 8)) else {
        return Err(format!(
            "it is truncated: {} bytes, shorter than the 12-byte GLB header",
            bytes.len()
        ));
    };
    if version != 2 {
        return Err(format!(
            "GLB version {version} is not supported (only version 2)"
        ));
    }
    let length = length as usize;
    if length > bytes.len() {
        return Err(format!(
            "it is truncated: the header says {length} bytes but the file has {}",
            bytes.len()
        ));
    }
    let body = &bytes[..length];

    let mut json = None;
    let mut bin = None;
    let mut at = 12usize;
    while at < body.len() {
        let (Some(chunk_len), Some(kind)) = (read_u32(body, at), read_u32(body, at + 4)) else {
            return Err(format!("chunk header at byte {at} is truncated"));
        };
        let start = at + 8;
        let Some(data) = start
            .checked_add(chunk_len as usize)
            .and_then(|end| body.get(start..end))
        else {
            return Err(format!(
                "chunk at byte {at} claims {chunk_len} bytes, past the end of the file"
            ));
        };
        match kind {
            CHUNK_JSON if json.is_none() && at == 12 => json = Some(data),
            CHUNK_JSON => return Err("it has a second or misplaced JSON chunk".into()),
            CHUNK_BIN if bin.is_none() && json.is_some() => bin = Some(data),
            CHUNK_BIN => return Err("it has a second or misplaced BIN chunk".into()),
            _ => {} // Unknown chunk types must be ignored (glTF 2.0, section 4.4.3).
        }
        // Chunks are 4-byte aligned; a file may omit the final padding.
        at = start + (chunk_len as usize).div_ceil(4) * 4;
    }
    let json = json.ok_or("it has no JSON chunk")?;
    Ok(GlbChunks { json, bin })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glb(chunks: &[(u32, &[u8])]) -> Vec<u8> {
        let mut body = Vec::new();
        for (kind, data) in chunks {
            body.extend((data.len() as u32).to_le_bytes());
            body.extend(kind.to_le_bytes());
            body.extend(*data);
        }
        let mut out = b"glTF".to_vec();
        out.extend(2u32.to_le_bytes());
        out.extend(((12 + body.len()) as u32).to_le_bytes());
        out.extend(body);
        out
    }

    #[test]
    fn splits_json_and_bin() {
        let file = glb(&[(CHUNK_JSON, b"{}  "), (CHUNK_BIN, &[1, 2, 3, 4])]);
        let c = split(&file).unwrap();
        assert_eq!(c.json, b"{}  ");
        assert_eq!(c.bin, Some([1u8, 2, 3, 4].as_slice()));
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let file = glb(&[(CHUNK_JSON, b"{}  "), (CHUNK_BIN, &[1, 2, 3, 4])]);
        for n in 0..file.len() {
            let mut cut = file[..n].to_vec();
            // Also make the header lie about the length, as a truncated download would.
            if cut.len() >= 12 {
                cut[8..12].copy_from_slice(&(n as u32).to_le_bytes());
            }
            let _ = split(&cut);
        }
        assert!(split(&file[..20]).unwrap_err().contains("truncated"));
    }

    #[test]
    fn rejects_huge_chunk_length() {
        let mut file = glb(&[(CHUNK_JSON, b"{}  ")]);
        file[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(split(&file).unwrap_err().contains("past the end"));
    }
}
