//! Text encodings of the file tools (utf-8, gbk, utf-16, latin1): decoding with binary
//! detection on the first 8 KiB, strict encoding, and which tool a binary file belongs to.

use encoding_rs::{DecoderResult, EncoderResult, Encoding, GBK, UTF_16BE, UTF_16LE, UTF_8};
use schemars::JsonSchema;
use serde::Deserialize;

/// How many leading bytes decide whether a file is text.
pub(crate) const SNIFF_BYTES: usize = 8192;

/// Text encoding: utf-8, gbk (GBK/GB18030), utf-16 (little-endian unless a byte order mark
/// says otherwise; written little-endian with one) or latin1 (ISO-8859-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
pub enum TextEncoding {
    #[default]
    #[serde(rename = "utf-8")]
    Utf8,
    #[serde(rename = "gbk")]
    Gbk,
    #[serde(rename = "utf-16")]
    Utf16,
    #[serde(rename = "latin1")]
    Latin1,
}

impl TextEncoding {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Utf8 => "utf-8",
            Self::Gbk => "gbk",
            Self::Utf16 => "utf-16",
            Self::Latin1 => "latin1",
        }
    }

    fn decoder_encoding(self) -> &'static Encoding {
        match self {
            Self::Gbk => GBK,
            Self::Utf16 => UTF_16LE,
            Self::Utf8 | Self::Latin1 => UTF_8,
        }
    }

    fn from_decoder(encoding: &'static Encoding) -> Self {
        if encoding == GBK {
            Self::Gbk
        } else if encoding == UTF_16LE || encoding == UTF_16BE {
            Self::Utf16
        } else {
            Self::Utf8
        }
    }
}

/// Why bytes are not text in the requested encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotText {
    /// NUL characters: a binary file.
    Binary,
    /// A byte sequence invalid in the encoding, at this byte offset.
    Malformed(usize),
}

/// Decoded text and the encoding actually used (a byte order mark overrides the request).
pub(crate) struct Decoded {
    pub text: String,
    pub encoding: TextEncoding,
}

/// Decodes the first bytes of a file (`complete` when they are all of it). The first
/// [`SNIFF_BYTES`] must be valid text without NUL; later invalid sequences become U+FFFD. An
/// incomplete character cut off at the end of an incomplete read is dropped.
pub(crate) fn decode(
    bytes: &[u8],
    encoding: TextEncoding,
    complete: bool,
) -> Result<Decoded, NotText> {
    let sample_len = bytes.len().min(SNIFF_BYTES);
    let sample = &bytes[..sample_len];
    let sample_complete = complete && sample_len == bytes.len();
    // NUL bytes mean binary, except in UTF-16 where every ASCII character has one.
    if encoding != TextEncoding::Utf16 && sample.contains(&0) {
        return Err(NotText::Binary);
    }
    if encoding == TextEncoding::Latin1 {
        let text = encoding_rs::mem::decode_latin1(bytes).into_owned();
        return Ok(Decoded { text, encoding });
    }
    let mut decoder = encoding.decoder_encoding().new_decoder();
    let mut head = String::with_capacity(sample_len + 16);
    let mut read = 0;
    loop {
        let (result, consumed) = decoder.decode_to_string_without_replacement(
            &sample[read..],
            &mut head,
            sample_complete,
        );
        read += consumed;
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => head.reserve(sample_len - read + 16),
            DecoderResult::Malformed(bad, _) => {
                let at = read.saturating_sub(usize::from(bad));
                return Err(NotText::Malformed(at));
            }
        }
    }
    if head.contains('\0') {
        return Err(NotText::Binary);
    }
    let mut decoder = encoding.decoder_encoding().new_decoder();
    let mut text = String::with_capacity(
        decoder
            .max_utf8_buffer_length(bytes.len())
            .unwrap_or(bytes.len()),
    );
    let mut read = 0;
    loop {
        let (result, consumed, _) = decoder.decode_to_string(&bytes[read..], &mut text, complete);
        read += consumed;
        match result {
            encoding_rs::CoderResult::InputEmpty => break,
            encoding_rs::CoderResult::OutputFull => text.reserve(bytes.len() - read + 16),
        }
    }
    let used = decoder.encoding();
    Ok(Decoded {
        text,
        encoding: TextEncoding::from_decoder(used),
    })
}

/// Encodes `text`; `bom` asks for a byte order mark where the encoding has one (utf-16 at the
/// start of a file). Characters the encoding cannot represent are an error naming the first.
pub(crate) fn encode(text: &str, encoding: TextEncoding, bom: bool) -> Result<Vec<u8>, String> {
    match encoding {
        TextEncoding::Utf8 => Ok(text.as_bytes().to_vec()),
        TextEncoding::Utf16 => {
            let mut out = Vec::with_capacity(text.len() * 2 + 2);
            if bom {
                out.extend_from_slice(&[0xFF, 0xFE]);
            }
            for unit in text.encode_utf16() {
                out.extend_from_slice(&unit.to_le_bytes());
            }
            Ok(out)
        }
        TextEncoding::Latin1 => match text.chars().find(|c| u32::from(*c) > 0xFF) {
            Some(c) => Err(unmappable(c, encoding)),
            None => Ok(text.chars().map(|c| u32::from(c) as u8).collect()),
        },
        TextEncoding::Gbk => {
            let mut encoder = GBK.new_encoder();
            let mut out = Vec::with_capacity(text.len());
            let mut read = 0;
            loop {
                let (result, consumed) = encoder.encode_from_utf8_to_vec_without_replacement(
                    &text[read..],
                    &mut out,
                    true,
                );
                read += consumed;
                match result {
                    EncoderResult::InputEmpty => return Ok(out),
                    EncoderResult::OutputFull => out.reserve(text.len() - read + 16),
                    EncoderResult::Unmappable(c) => return Err(unmappable(c, encoding)),
                }
            }
        }
    }
}

fn unmappable(c: char, encoding: TextEncoding) -> String {
    format!(
        "contains {c:?} (U+{:04X}), which {} cannot represent; use utf-8 or utf-16",
        u32::from(c),
        encoding.as_str()
    )
}

/// What a binary file looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryKind {
    Image,
    Document,
    Other,
}

/// A file whose first bytes are an image or document signature (PNG, JPEG, GIF, WebP, PDF,
/// or a ZIP container named .docx/.xlsx/.pptx), whatever the encoding asked for.
pub(crate) fn signature(name: &str, head: &[u8]) -> Option<BinaryKind> {
    let image = head.starts_with(b"\x89PNG")
        || head.starts_with(b"\xFF\xD8\xFF")
        || head.starts_with(b"GIF8")
        || (head.starts_with(b"RIFF") && head.get(8..12) == Some(b"WEBP".as_slice()));
    if image {
        return Some(BinaryKind::Image);
    }
    let office = head.starts_with(b"PK\x03\x04")
        && matches!(extension(name).as_str(), "docx" | "xlsx" | "pptx");
    (head.starts_with(b"%PDF") || office).then_some(BinaryKind::Document)
}

fn extension(name: &str) -> String {
    name.rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default()
}

/// What a binary file is (by signature, else by extension), for the refusal message.
pub(crate) fn binary_hint(name: &str, head: &[u8]) -> &'static str {
    let kind = signature(name, head).unwrap_or_else(|| match extension(name).as_str() {
        "png" | "jpg" | "jpeg" | "gif" | "webp" | "bmp" | "tif" | "tiff" | "ico" | "heic" => {
            BinaryKind::Image
        }
        "pdf" | "docx" | "xlsx" | "pptx" => BinaryKind::Document,
        _ => BinaryKind::Other,
    });
    match kind {
        BinaryKind::Image => "is an image, not text: use vision_analyze to look at it",
        BinaryKind::Document => {
            "is a document (pdf, docx, xlsx or pptx), not plain text: use read_document to get its text"
        }
        BinaryKind::Other => "is a binary file, not text: read_file only reads text",
    }
}

/// Whether `bytes` is UTF-8 (the encoding edits and patches work in).
pub(crate) fn utf8(bytes: Vec<u8>) -> Result<String, usize> {
    String::from_utf8(bytes).map_err(|e| e.utf8_error().valid_up_to())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_encoding() {
        let text = "Grüße, 世界! €";
        for (encoding, sample) in [
            (TextEncoding::Utf8, text),
            (TextEncoding::Gbk, "中文, ü! €"),
            (TextEncoding::Utf16, text),
            (TextEncoding::Latin1, "Grüße, ÿ"),
        ] {
            let bytes = encode(sample, encoding, true).unwrap();
            let decoded = decode(&bytes, encoding, true).map(|d| (d.text, d.encoding));
            assert_eq!(decoded, Ok((sample.to_string(), encoding)), "{encoding:?}");
        }
    }

    #[test]
    fn characters_outside_gbk_are_named() {
        let error = encode("Straße", TextEncoding::Gbk, false).unwrap_err();
        assert!(error.contains("U+00DF"), "{error}");
    }

    #[test]
    fn an_incomplete_read_drops_the_cut_character() {
        let bytes = "ab世".as_bytes();
        let decoded = decode(&bytes[..4], TextEncoding::Utf8, false).map(|d| d.text);
        assert_eq!(decoded, Ok("ab".to_string()));
        let decoded = decode(&bytes[..4], TextEncoding::Utf8, true).map(|d| d.text);
        assert_eq!(decoded, Err(NotText::Malformed(2)));
    }

    #[test]
    fn a_bom_picks_the_encoding() {
        let decoded = decode(b"\xFE\xFF\x00h\x00i", TextEncoding::Utf16, true);
        assert_eq!(decoded.map(|d| d.text), Ok("hi".to_string()));
        let decoded = decode(b"\xEF\xBB\xBFhi", TextEncoding::Gbk, true);
        assert_eq!(
            decoded.map(|d| (d.text, d.encoding)),
            Ok(("hi".to_string(), TextEncoding::Utf8))
        );
    }

    #[test]
    fn utf16_nul_characters_mean_binary() {
        assert_eq!(
            decode(b"\x00\x00ab", TextEncoding::Utf16, true).err(),
            Some(NotText::Binary)
        );
    }
}
