//! Files that come together: a glTF document's `.bin` buffers and images, an OBJ's `.mtl`.
//! References are resolved by file name among the files the user gave — never by reading the
//! file system or the network, so the browser and the CLI behave alike.

use base64::Engine;

use super::ImportError;

/// One file of an input, by name (a path's last component is enough).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputFile<'a> {
    pub name: &'a str,
    pub bytes: &'a [u8],
}

impl<'a> InputFile<'a> {
    /// Borrowed views of files held as `(name, bytes)` pairs (what a shell receives).
    pub fn list(files: &'a [(String, Vec<u8>)]) -> Vec<Self> {
        files
            .iter()
            .map(|(name, bytes)| Self { name, bytes })
            .collect()
    }
}

/// Why a reference could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResolveError {
    Missing(String),
    BadDataUri(String),
}

impl ResolveError {
    pub fn into_import_error(self, name: &str) -> ImportError {
        match self {
            Self::Missing(uri) => ImportError::MissingExternalFile {
                name: name.into(),
                uri,
            },
            Self::BadDataUri(reason) => ImportError::Malformed {
                name: name.into(),
                reason,
            },
        }
    }
}

/// The bytes `uri` refers to: a base64 `data:` URI, or one of `files` by name.
pub fn resolve(uri: &str, files: &[InputFile<'_>]) -> Result<Vec<u8>, ResolveError> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let Some((_, payload)) = rest.split_once(";base64,") else {
            return Err(ResolveError::BadDataUri(
                "a data URI is not base64-encoded".into(),
            ));
        };
        return base64::engine::general_purpose::STANDARD
            .decode(payload)
            .map_err(|e| ResolveError::BadDataUri(format!("a data URI is not valid base64: {e}")));
    }
    let wanted = file_name(uri);
    let wanted = wanted.as_str();
    files
        .iter()
        .find(|f| base_name(f.name) == wanted)
        .or_else(|| {
            files
                .iter()
                .find(|f| base_name(f.name).eq_ignore_ascii_case(wanted))
        })
        .map(|f| f.bytes.to_vec())
        .ok_or_else(|| ResolveError::Missing(uri.into()))
}

/// The file name a reference points at: its last path component, percent-escapes decoded.
/// Callers with a file system read that name from beside the model.
pub fn file_name(uri: &str) -> String {
    base_name(&percent_decode(uri)).to_owned()
}

fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Decodes `%XX` escapes (URIs in glTF are percent-encoded); malformed escapes stay as they are.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_by_base_name_and_percent_escapes() {
        let files = [InputFile {
            name: "My Model.bin",
            bytes: &[1, 2, 3],
        }];
        assert_eq!(
            resolve("buffers/My%20Model.bin", &files).unwrap(),
            vec![1, 2, 3]
        );
        assert_eq!(resolve("my model.BIN", &files).unwrap(), vec![1, 2, 3]);
        assert_eq!(
            resolve("other.bin", &files).unwrap_err(),
            ResolveError::Missing("other.bin".into())
        );
    }

    #[test]
    fn decodes_base64_data_uris() {
        let got = resolve("data:application/octet-stream;base64,AQID", &[]).unwrap();
        assert_eq!(got, vec![1, 2, 3]);
        assert!(matches!(
            resolve("data:text/plain,hello", &[]),
            Err(ResolveError::BadDataUri(_))
        ));
        assert_eq!(percent_decode("100%"), "100%");
    }
}
