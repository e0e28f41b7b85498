//! The GGUF header checked in Rust before llama.cpp sees a file: a file that is not a GGUF, is
//! cut short or claims absurd counts is refused with a reason, and no worker is started for it.

use std::io::Read;
use std::path::Path;

/// The bytes every GGUF file starts with.
const MAGIC: &[u8; 4] = b"GGUF";

/// magic, version, tensor count, metadata count.
const HEADER_BYTES: usize = 4 + 4 + 8 + 8;

/// The fewest bytes a tensor's description takes (an empty name's length, one dimension, its
/// type and offset): a count the file cannot hold is a damaged file.
const MIN_TENSOR_INFO_BYTES: u64 = 8 + 4 + 8 + 4 + 8;

/// The fewest bytes a metadata entry takes (an empty key's length and a value type).
const MIN_ENTRY_BYTES: u64 = 8 + 4;

/// Why a file is not a usable GGUF, in words for the user.
pub fn check_header(path: &Path) -> Result<(), String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot open it: {e}"))?;
    let length = file
        .metadata()
        .map_err(|e| format!("cannot read its size: {e}"))?
        .len();
    let mut header = [0u8; HEADER_BYTES];
    let read = file
        .by_ref()
        .take(HEADER_BYTES as u64)
        .read(&mut header)
        .map_err(|e| format!("cannot read it: {e}"))?;
    check_bytes(&header[..read], length)
}

/// [`check_header`] on the first bytes of a file of `length` bytes.
fn check_bytes(header: &[u8], length: u64) -> Result<(), String> {
    if !header.starts_with(MAGIC) {
        return Err("it is not a GGUF model (it does not start with \"GGUF\")".into());
    }
    if header.len() < HEADER_BYTES {
        return Err(format!(
            "it is cut short ({length} bytes, not even a header)"
        ));
    }
    let version = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
    if !(2..=3).contains(&version) {
        return Err(format!(
            "GGUF version {version} is not supported (2 and 3 are)"
        ));
    }
    let tensors = u64_at(header, 8);
    let entries = u64_at(header, 16);
    let needed = tensors
        .saturating_mul(MIN_TENSOR_INFO_BYTES)
        .saturating_add(entries.saturating_mul(MIN_ENTRY_BYTES))
        .saturating_add(HEADER_BYTES as u64);
    if tensors == 0 {
        return Err("it holds no tensors".into());
    }
    if needed > length {
        return Err(format!(
            "it is damaged or cut short: it claims {tensors} tensors and {entries} metadata \
             entries, more than its {length} bytes can hold"
        ));
    }
    Ok(())
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(version: u32, tensors: u64, entries: u64) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend(version.to_le_bytes());
        bytes.extend(tensors.to_le_bytes());
        bytes.extend(entries.to_le_bytes());
        bytes
    }

    #[test]
    fn a_plausible_header_passes() {
        assert_eq!(check_bytes(&header(3, 272, 30), 98_000_000), Ok(()));
    }

    #[test]
    fn other_files_and_damage_are_named() {
        let cases = [
            (
                b"%PDF-1.7 and more bytes here....".to_vec(),
                1000,
                "not a GGUF",
            ),
            (MAGIC.to_vec(), 4, "cut short"),
            (header(1, 1, 1), 1000, "version 1"),
            (header(3, 0, 3), 1000, "no tensors"),
            (header(3, u64::MAX, 3), 1_000_000, "claims"),
            (header(3, 10, u64::MAX / 2), 1_000_000, "claims"),
        ];
        for (bytes, length, expected) in cases {
            let error = check_bytes(&bytes, length).expect_err(expected);
            assert!(error.contains(expected), "{error}");
        }
    }
}
