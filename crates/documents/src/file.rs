//! The one check every document file passes before it is read: a regular file (never a FIFO,
//! socket or device, even behind a symbolic link), its size known and within the limit before a
//! byte is read, and the read itself stopped at the limit.

use crate::run::Limits;
use crate::DocumentError;
use std::fs::{Metadata, OpenOptions};
use std::io::Read;
use std::path::Path;

/// The bytes of the document at `path` (symbolic links followed to what they name).
pub fn load(path: &Path, limits: &Limits) -> Result<Vec<u8>, DocumentError> {
    // Refused before opening: opening a FIFO for reading waits for a writer.
    refuse_special(&std::fs::metadata(path).map_err(unreadable)?)?;
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Swapped for a FIFO since the check: the open must not wait either.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(unreadable)?;
    let meta = file.metadata().map_err(unreadable)?;
    refuse_special(&meta)?;
    read_limited(file, meta.len(), limits)
}

/// The content of an opened regular file whose metadata says it is `size` bytes: refused past
/// `limits.max_file_bytes` before reading, and never more than that read (a file growing while
/// it is read is refused too).
pub fn read_limited(file: impl Read, size: u64, limits: &Limits) -> Result<Vec<u8>, DocumentError> {
    let limit = limits.max_file_bytes;
    let too_large = |size| DocumentError::TooLarge { size, limit };
    if size > limit {
        return Err(too_large(size));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

fn unreadable(error: std::io::Error) -> DocumentError {
    DocumentError::Unreadable {
        reason: error.to_string(),
    }
}

fn refuse_special(meta: &Metadata) -> Result<(), DocumentError> {
    if meta.is_file() {
        return Ok(());
    }
    Err(DocumentError::NotAFile {
        kind: kind(meta).to_string(),
    })
}

fn kind(meta: &Metadata) -> &'static str {
    if meta.is_dir() {
        return "folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_fifo() {
            return "FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "device";
        }
    }
    "special file"
}
