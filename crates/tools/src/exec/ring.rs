//! A bounded byte ring for captured output: keeps the newest bytes up to its capacity and counts
//! what was overwritten before anyone read it.

use std::collections::VecDeque;

/// Captured output of one stream of a background process or terminal session.
#[derive(Debug)]
pub(crate) struct Ring {
    bytes: VecDeque<u8>,
    capacity: usize,
    /// Bytes ever pushed.
    written: u64,
    /// Absolute offset of the first byte not yet taken.
    cursor: u64,
}

/// What [`Ring::take_new`] hands out.
#[derive(Debug, Default)]
pub(crate) struct Taken {
    pub(crate) text: String,
    /// Bytes written since the last take that were overwritten before this one.
    pub(crate) dropped_bytes: u64,
}

impl Ring {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            bytes: VecDeque::new(),
            capacity,
            written: 0,
            cursor: 0,
        }
    }

    pub(crate) fn push(&mut self, data: &[u8]) {
        self.written += data.len() as u64;
        let data = &data[data.len().saturating_sub(self.capacity)..];
        let overflow = (self.bytes.len() + data.len()).saturating_sub(self.capacity);
        self.bytes.drain(..overflow);
        self.bytes.extend(data);
    }

    /// Whether anything was pushed since the last take.
    pub(crate) fn has_new(&self) -> bool {
        self.written > self.cursor
    }

    /// The bytes pushed since the last take (as much of them as the ring still holds), decoded
    /// as UTF-8 with invalid sequences replaced. With `hold_partial`, a multi-byte character
    /// cut at the end stays for the next take (more of it may still arrive).
    pub(crate) fn take_new(&mut self, hold_partial: bool) -> Taken {
        let oldest = self.written - self.bytes.len() as u64;
        let start = self.cursor.max(oldest);
        let dropped_bytes = start - self.cursor;
        let skip = usize::try_from(start - oldest).unwrap_or(usize::MAX);
        let fresh: Vec<u8> = self.bytes.iter().skip(skip).copied().collect();
        let keep = if hold_partial {
            fresh.len() - partial_char_len(&fresh)
        } else {
            fresh.len()
        };
        self.cursor = start + keep as u64;
        Taken {
            text: String::from_utf8_lossy(&fresh[..keep]).into_owned(),
            dropped_bytes,
        }
    }
}

/// How many bytes at the end of `bytes` are the start of a UTF-8 character still incomplete.
fn partial_char_len(bytes: &[u8]) -> usize {
    for back in 1..=bytes.len().min(3) {
        let byte = bytes[bytes.len() - back];
        if byte & 0b1100_0000 == 0b1000_0000 {
            continue; // a continuation byte: look further back for the lead byte
        }
        let needed = match byte {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        return if needed > back { back } else { 0 };
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_bytes_and_counts_the_dropped_ones() {
        let mut ring = Ring::new(4);
        ring.push(b"abcdef");
        ring.push(b"gh");
        let taken = ring.take_new(false);
        assert_eq!(taken.text, "efgh");
        assert_eq!(taken.dropped_bytes, 4);
        assert_eq!(ring.take_new(false).text, "");
        ring.push(b"ij");
        let taken = ring.take_new(false);
        assert_eq!((taken.text.as_str(), taken.dropped_bytes), ("ij", 0));
    }

    #[test]
    fn holds_a_character_cut_in_the_middle() {
        let mut ring = Ring::new(16);
        let snow = "☃".as_bytes();
        ring.push(b"a");
        ring.push(&snow[..2]);
        assert_eq!(ring.take_new(true).text, "a");
        ring.push(&snow[2..]);
        assert_eq!(ring.take_new(true).text, "☃");
        ring.push(&snow[..1]);
        assert_eq!(ring.take_new(false).text, "\u{fffd}");
    }

    #[test]
    fn a_push_larger_than_the_ring_keeps_its_tail() {
        let mut ring = Ring::new(3);
        ring.push(b"0123456789");
        let taken = ring.take_new(false);
        assert_eq!((taken.text.as_str(), taken.dropped_bytes), ("789", 7));
    }
}
