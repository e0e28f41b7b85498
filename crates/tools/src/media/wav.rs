//! RIFF/WAVE headers: reading a PCM file's format and duration, and writing the real sizes
//! into a header streamed with placeholders (as `espeak-ng --stdout` writes it).

/// A PCM WAV file's format.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WavInfo {
    pub channels: u16,
    pub sample_rate: u32,
    pub bits_per_sample: u16,
    /// Bytes of sample data.
    pub data_bytes: u32,
    pub duration_secs: f64,
}

/// Where the `fmt ` and `data` chunks are: the `fmt ` body offset and the `data` size field's.
struct Chunks {
    fmt: usize,
    data_size_at: usize,
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// Walks the chunks after `RIFF….WAVE` up to `data`.
fn chunks(bytes: &[u8]) -> Option<Chunks> {
    if bytes.get(0..4)? != b"RIFF" || bytes.get(8..12)? != b"WAVE" {
        return None;
    }
    let mut at = 12;
    let mut fmt = None;
    loop {
        let id = bytes.get(at..at + 4)?;
        let size = u32_at(bytes, at + 4)? as usize;
        if id == b"data" {
            return Some(Chunks {
                fmt: fmt?,
                data_size_at: at + 4,
            });
        }
        if id == b"fmt " {
            fmt = Some(at + 8);
        }
        at = at.checked_add(8)?.checked_add(size + size % 2)?;
    }
}

/// The format and duration of the PCM WAV `bytes`; `None` when they are not one.
pub fn wav_info(bytes: &[u8]) -> Option<WavInfo> {
    let found = chunks(bytes)?;
    let format = u16_at(bytes, found.fmt)?;
    if format != 1 {
        return None;
    }
    let channels = u16_at(bytes, found.fmt + 2)?;
    let sample_rate = u32_at(bytes, found.fmt + 4)?;
    let byte_rate = u32_at(bytes, found.fmt + 8)?;
    let bits_per_sample = u16_at(bytes, found.fmt + 14)?;
    let data_bytes = u32_at(bytes, found.data_size_at)?;
    if byte_rate == 0 || channels == 0 {
        return None;
    }
    Some(WavInfo {
        channels,
        sample_rate,
        bits_per_sample,
        data_bytes,
        duration_secs: f64::from(data_bytes) / f64::from(byte_rate),
    })
}

/// Writes the real RIFF and `data` sizes into `bytes` (a header streamed before the length was
/// known carries placeholders); `false` when they are not a WAV file.
pub(crate) fn fix_sizes(bytes: &mut [u8]) -> bool {
    let Some(found) = chunks(bytes) else {
        return false;
    };
    let (Ok(riff), Ok(data)) = (
        u32::try_from(bytes.len() - 8),
        u32::try_from(bytes.len() - (found.data_size_at + 4)),
    ) else {
        return false;
    };
    bytes[4..8].copy_from_slice(&riff.to_le_bytes());
    bytes[found.data_size_at..found.data_size_at + 4].copy_from_slice(&data.to_le_bytes());
    true
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A 16-bit mono header for `samples` samples at 8 kHz whose sizes are placeholders.
    fn streamed(samples: usize) -> Vec<u8> {
        let mut out = b"RIFF".to_vec();
        out.extend(0x7fff_ffffu32.to_le_bytes());
        out.extend(b"WAVEfmt ");
        out.extend(16u32.to_le_bytes());
        out.extend(1u16.to_le_bytes());
        out.extend(1u16.to_le_bytes());
        out.extend(8000u32.to_le_bytes());
        out.extend(16000u32.to_le_bytes());
        out.extend(2u16.to_le_bytes());
        out.extend(16u16.to_le_bytes());
        out.extend(b"data");
        out.extend(0x7fff_ffffu32.to_le_bytes());
        out.extend(vec![0u8; samples * 2]);
        out
    }

    #[test]
    fn placeholder_sizes_are_replaced_by_the_real_ones() {
        let mut wav = streamed(8000);
        assert!(fix_sizes(&mut wav));
        let info = wav_info(&wav).unwrap();
        assert_eq!(info.data_bytes, 16000);
        assert_eq!(u32_at(&wav, 4).unwrap() as usize, wav.len() - 8);
        assert!((info.duration_secs - 1.0).abs() < 1e-9);
        assert_eq!(
            (info.channels, info.sample_rate, info.bits_per_sample),
            (1, 8000, 16)
        );
    }

    #[test]
    fn other_bytes_are_not_a_wav_file() {
        assert!(wav_info(b"ID3\x03 an mp3").is_none());
        assert!(!fix_sizes(&mut b"RIFF\0\0\0\0WAVE".to_vec()));
    }
}
