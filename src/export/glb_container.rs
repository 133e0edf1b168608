//! Writes the GLB container: header, JSON chunk (space-padded), BIN chunk (zero-padded).

const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

fn padded_len(n: usize) -> usize {
    n.div_ceil(4) * 4
}

/// Packs `json` and `bin` into one GLB file (no BIN chunk when `bin` is empty).
pub fn write(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let json_len = padded_len(json.len());
    let bin_len = padded_len(bin.len());
    let total = 12 + 8 + json_len + if bin.is_empty() { 0 } else { 8 + bin_len };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(&CHUNK_JSON.to_le_bytes());
    out.extend_from_slice(json);
    out.resize(20 + json_len, b' ');
    if !bin.is_empty() {
        out.extend_from_slice(&(bin_len as u32).to_le_bytes());
        out.extend_from_slice(&CHUNK_BIN.to_le_bytes());
        out.extend_from_slice(bin);
        out.resize(total, 0);
    }
    out
}
