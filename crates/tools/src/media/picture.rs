//! Images for a vision model: decoded with the `image` crate under allocation limits, and
//! scaled and re-encoded when they exceed what the provider takes.

use crate::error::{ErrorKind, ToolError};
use hearth_protocol::ProviderKind;
use image::{DynamicImage, ImageFormat, ImageReader};
use std::io::Cursor;

/// The largest image file (or download) `vision_analyze` reads.
pub const IMAGE_SOURCE_CAP: u64 = 20 * 1024 * 1024;

/// The widest or tallest image decoded.
const MAX_DECODED_SIDE: u32 = 16_384;

/// The most memory one decode may take.
const MAX_DECODE_ALLOC: u64 = 512 * 1024 * 1024;

/// What a provider takes in one image part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimits {
    /// Longest side in pixels; larger images are scaled down to it.
    pub max_side: u32,
    /// Most bytes of the encoded image (before base64).
    pub max_bytes: usize,
}

/// The limits of `kind`: Anthropic's 5 MB per image (base64 counted, so 3.75 MB of file) and
/// 1568 px long edge it scales to anyway; OpenAI's 2048 px high-detail box and 20 MB; Gemini's
/// 20 MB inline request; Ollama's vision models work at well under 2048 px.
pub fn limits_for(kind: ProviderKind) -> ImageLimits {
    match kind {
        ProviderKind::Anthropic => ImageLimits {
            max_side: 1568,
            max_bytes: 3_750_000,
        },
        ProviderKind::Openai => ImageLimits {
            max_side: 2048,
            max_bytes: 15_000_000,
        },
        ProviderKind::Gemini => ImageLimits {
            max_side: 3072,
            max_bytes: 14_000_000,
        },
        // Hearth's local models read text only (images stay out of their prompt): an image is
        // kept as small as for Ollama's.
        ProviderKind::Ollama | ProviderKind::Local => ImageLimits {
            max_side: 2048,
            max_bytes: 10_000_000,
        },
    }
}

/// An image ready to send: its bytes, media type and size, and what it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Fitted {
    pub(crate) bytes: Vec<u8>,
    pub(crate) mime_type: &'static str,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) original_width: u32,
    pub(crate) original_height: u32,
    pub(crate) resized: bool,
}

/// The format of `bytes` when it is an image a vision model takes (PNG, JPEG, GIF, WebP).
fn format_of(bytes: &[u8], field: &str) -> Result<ImageFormat, ToolError> {
    match image::guess_format(bytes) {
        Ok(
            format @ (ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Gif | ImageFormat::WebP),
        ) => Ok(format),
        Ok(other) => Err(ToolError::invalid(
            field,
            format!(
                "is a {} image; vision models take PNG, JPEG, GIF or WebP",
                other.extensions_str().first().unwrap_or(&"?")
            ),
        )),
        Err(_) => Err(ToolError::invalid(
            field,
            "is not an image (PNG, JPEG, GIF or WebP)",
        )),
    }
}

/// Decodes `bytes` and fits them to `limits`: sent as they are when they already fit, else
/// scaled so the longest side is at most `max_side` and encoded as JPEG (PNG when the image
/// has transparency), smaller again until it fits `max_bytes`.
pub(crate) fn fit(bytes: Vec<u8>, limits: ImageLimits, field: &str) -> Result<Fitted, ToolError> {
    let format = format_of(&bytes, field)?;
    let mut reader = ImageReader::with_format(Cursor::new(&bytes), format);
    let mut decode_limits = image::Limits::default();
    decode_limits.max_image_width = Some(MAX_DECODED_SIDE);
    decode_limits.max_image_height = Some(MAX_DECODED_SIDE);
    decode_limits.max_alloc = Some(MAX_DECODE_ALLOC);
    reader.limits(decode_limits);
    let image = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => ToolError {
            kind: ErrorKind::TooLarge,
            message: format!("is too large to decode (at most {MAX_DECODED_SIDE} px a side): {e}"),
            field: Some(field.to_string()),
        },
        other => ToolError::invalid(field, format!("could not be decoded: {other}")),
    })?;
    let (original_width, original_height) = (image.width(), image.height());
    let fits_side = original_width.max(original_height) <= limits.max_side;
    if fits_side && bytes.len() <= limits.max_bytes {
        return Ok(Fitted {
            bytes,
            mime_type: format.to_mime_type(),
            width: original_width,
            height: original_height,
            original_width,
            original_height,
            resized: false,
        });
    }
    let mut side = limits.max_side.min(original_width.max(original_height));
    loop {
        let scaled = if original_width.max(original_height) > side {
            image.resize(side, side, image::imageops::FilterType::Triangle)
        } else {
            image.clone()
        };
        let (encoded, mime_type) = encode(&scaled)?;
        if encoded.len() <= limits.max_bytes || side <= 256 {
            if encoded.len() > limits.max_bytes {
                return Err(ToolError {
                    kind: ErrorKind::TooLarge,
                    message: format!(
                        "does not fit the model's {} bytes per image even at {side} px",
                        limits.max_bytes
                    ),
                    field: Some(field.to_string()),
                });
            }
            return Ok(Fitted {
                bytes: encoded,
                mime_type,
                width: scaled.width(),
                height: scaled.height(),
                original_width,
                original_height,
                resized: true,
            });
        }
        side = side * 3 / 4;
    }
}

/// JPEG at quality 85, or PNG when the image has an alpha channel.
fn encode(image: &DynamicImage) -> Result<(Vec<u8>, &'static str), ToolError> {
    let mut out = Cursor::new(Vec::new());
    let (result, mime) = if image.color().has_alpha() {
        (image.write_to(&mut out, ImageFormat::Png), "image/png")
    } else {
        let rgb = image.to_rgb8();
        let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85);
        (rgb.write_with_encoder(encoder), "image/jpeg")
    };
    result
        .map_err(|e| ToolError::internal(format!("the scaled image could not be encoded: {e}")))?;
    Ok((out.into_inner(), mime))
}
