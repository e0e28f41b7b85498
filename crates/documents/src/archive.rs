//! Zip archives (DOCX, PPTX, XLSX, ODS) opened with their unpacked size bounded, so a zip bomb
//! is refused before anything is inflated, and every entry read stops at the limit.

use crate::run::Limits;
use crate::DocumentError;
use std::io::{Cursor, Read};
use zip::result::ZipError;
use zip::ZipArchive;

/// An opened archive whose declared sizes were checked against the limits.
pub(crate) struct Archive<'a> {
    zip: ZipArchive<Cursor<&'a [u8]>>,
    format: &'static str,
    limit: u64,
}

impl<'a> Archive<'a> {
    pub(crate) fn open(
        bytes: &'a [u8],
        format: &'static str,
        limits: &Limits,
    ) -> Result<Self, DocumentError> {
        let mut zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| zip_error(format, e))?;
        check(&mut zip, format, limits)?;
        Ok(Self {
            zip,
            format,
            limit: limits.max_unpacked_bytes,
        })
    }

    /// The entry `name` as UTF-8 text, or `None` when the archive has no such entry.
    pub(crate) fn text(&mut self, name: &str) -> Result<Option<String>, DocumentError> {
        let format = self.format;
        let mut entry = match self.zip.by_name(name) {
            Ok(entry) => entry,
            Err(ZipError::FileNotFound) => return Ok(None),
            Err(e) => return Err(zip_error(format, e)),
        };
        let mut bytes = Vec::new();
        (&mut entry)
            .take(self.limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| DocumentError::corrupt(format, format!("{name}: {e}")))?;
        if bytes.len() as u64 > self.limit {
            return Err(DocumentError::ZipBomb {
                format,
                unpacked: bytes.len() as u64,
                limit: self.limit,
            });
        }
        String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| DocumentError::corrupt(format, format!("{name} is not UTF-8 XML")))
    }
}

/// Refuses archives whose entries declare more than the limits allow in all.
fn check(
    zip: &mut ZipArchive<Cursor<&[u8]>>,
    format: &'static str,
    limits: &Limits,
) -> Result<(), DocumentError> {
    if zip.len() > limits.max_entries {
        return Err(DocumentError::corrupt(
            format,
            format!(
                "the archive has {} entries (at most {} are read)",
                zip.len(),
                limits.max_entries
            ),
        ));
    }
    let mut unpacked: u64 = 0;
    for index in 0..zip.len() {
        let entry = zip.by_index_raw(index).map_err(|e| zip_error(format, e))?;
        if entry.encrypted() {
            return Err(DocumentError::Encrypted);
        }
        unpacked = unpacked.saturating_add(entry.size());
    }
    if unpacked > limits.max_unpacked_bytes {
        return Err(DocumentError::ZipBomb {
            format,
            unpacked,
            limit: limits.max_unpacked_bytes,
        });
    }
    Ok(())
}

fn zip_error(format: &'static str, error: ZipError) -> DocumentError {
    DocumentError::corrupt(format, format!("its zip archive cannot be read ({error})"))
}

/// Checks an archive handed whole to another reader (calamine) the same way.
pub(crate) fn check_bytes(
    bytes: &[u8],
    format: &'static str,
    limits: &Limits,
) -> Result<(), DocumentError> {
    Archive::open(bytes, format, limits).map(|_| ())
}
