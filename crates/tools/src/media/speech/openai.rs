//! The `openai` backend: `POST {base_url}/audio/speech {model, input, voice, response_format}`
//! answered with the audio bytes.

use crate::error::{ErrorKind, ToolError};
use crate::media::api::ApiEndpoint;
use serde_json::json;
use std::path::Path;

/// The model used when the settings name none.
pub const DEFAULT_SPEECH_MODEL: &str = "gpt-4o-mini-tts";

/// The voice used when neither the call nor the settings name one.
pub(super) const DEFAULT_VOICE: &str = "alloy";

/// An audio format the endpoint makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Format {
    /// `response_format` and the file's extension.
    pub(super) extension: &'static str,
    pub(super) mime_type: &'static str,
}

const FORMATS: [Format; 6] = [
    Format {
        extension: "mp3",
        mime_type: "audio/mpeg",
    },
    Format {
        extension: "opus",
        mime_type: "audio/ogg",
    },
    Format {
        extension: "aac",
        mime_type: "audio/aac",
    },
    Format {
        extension: "flac",
        mime_type: "audio/flac",
    },
    Format {
        extension: "wav",
        mime_type: "audio/wav",
    },
    Format {
        extension: "pcm",
        mime_type: "audio/L16",
    },
];

/// The format `output_path`'s extension names (mp3 when there is no path).
pub(super) fn format_of(output_path: Option<&str>) -> Result<Format, ToolError> {
    let Some(path) = output_path.map(str::trim).filter(|p| !p.is_empty()) else {
        return Ok(FORMATS[0]);
    };
    let extension = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    FORMATS
        .into_iter()
        .find(|f| f.extension == extension)
        .ok_or_else(|| {
            ToolError::invalid(
                "output_path",
                "must end in .mp3, .opus, .aac, .flac, .wav or .pcm (the format the openai \
                 backend makes)",
            )
        })
}

/// The audio for `text` in `voice` and `format`.
pub(super) async fn speak(
    endpoint: &ApiEndpoint,
    http: &reqwest::Client,
    voice: &str,
    text: &str,
    format: Format,
) -> Result<Vec<u8>, ToolError> {
    let body = json!({
        "model": endpoint.model,
        "input": text,
        "voice": voice,
        "response_format": format.extension,
    });
    let (audio, content_type) = endpoint
        .post(http, "speech provider", "audio/speech", &body)
        .await?;
    if audio.is_empty() || content_type.starts_with("application/json") {
        let first: String = String::from_utf8_lossy(&audio).chars().take(300).collect();
        return Err(ToolError::new(
            ErrorKind::Failed,
            format!("the speech provider answered no audio: {first}"),
        ));
    }
    Ok(audio)
}

/// `unavailable` with the steps that configure the openai backend.
pub(super) fn not_configured() -> ToolError {
    ToolError::new(
        ErrorKind::Unavailable,
        "the openai speech backend is not configured: in Settings → Media set the speech base \
         URL (an OpenAI-compatible /audio/speech endpoint, e.g. https://api.openai.com/v1 or a \
         local server's) and store its key there (or run `hearth-cli keys set media-speech`); \
         `[media.speech]` in config.toml holds backend, voice, base_url and model. Or use the \
         local backend (espeak-ng, offline)",
    )
}
