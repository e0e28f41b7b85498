//! `text_to_speech`: the text spoken by `espeak-ng` (offline, WAV) or an OpenAI-compatible
//! `/audio/speech` endpoint, saved in the workspace where the chat plays it, and optionally
//! delivered through [`MediaDelivery`]. Microsoft Edge's read-aloud service is answered
//! `unavailable` (see [`EDGE_UNAVAILABLE`]).

mod local;
mod openai;

use super::api::ApiEndpoint;
use super::save::{save_async, target_path};
use super::wav::wav_info;
use super::{MediaDelivery, MediaFile};
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_protocol::SpeechBackend;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

pub use openai::DEFAULT_SPEECH_MODEL;

/// The most characters spoken in one call (the `/audio/speech` limit).
pub const TTS_MAX_CHARS: usize = 4096;

/// Why `edge` is not offered, and what to use instead.
pub const EDGE_UNAVAILABLE: &str =
    "the edge backend is not available: Microsoft Edge's read-aloud service has no public API, \
     and the Rust crates that speak it re-implement an undocumented protocol whose access token \
     Microsoft changes without notice, so Hearth does not ship one. Use backend `local` \
     (espeak-ng, offline) or `openai` (any OpenAI-compatible /audio/speech endpoint, set in \
     Settings → Media)";

/// What `text_to_speech` needs from the settings.
#[derive(Debug, Clone)]
pub struct SpeechConfig {
    /// The backend of a call that names none.
    pub backend: SpeechBackend,
    /// The voice of a call that names none; empty for the backend's default.
    pub voice: String,
    /// The `openai` backend's endpoint; `None` when it is not configured.
    pub openai: Option<ApiEndpoint>,
    /// The `espeak-ng` program (found on `PATH` unless a path).
    pub espeak: String,
}

impl Default for SpeechConfig {
    fn default() -> Self {
        SpeechConfig {
            backend: SpeechBackend::Local,
            voice: String::new(),
            openai: None,
            espeak: local::ESPEAK.to_string(),
        }
    }
}

pub struct TextToSpeech {
    pub(crate) config: SpeechConfig,
    pub(crate) http: reqwest::Client,
    pub(crate) delivery: Arc<dyn MediaDelivery>,
}

/// The backend a call asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BackendArg {
    /// espeak-ng on this computer: offline, WAV.
    Local,
    /// The OpenAI-compatible speech endpoint set in Settings → Media.
    Openai,
    /// Microsoft Edge read-aloud (not available).
    Edge,
}

impl From<BackendArg> for SpeechBackend {
    fn from(arg: BackendArg) -> SpeechBackend {
        match arg {
            BackendArg::Local => SpeechBackend::Local,
            BackendArg::Openai => SpeechBackend::Openai,
            BackendArg::Edge => SpeechBackend::Edge,
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextToSpeechArgs {
    /// The text to speak (at most 4096 characters).
    #[schemars(length(min = 1, max = 4096))]
    pub text: String,
    /// `local` (espeak-ng, offline, WAV), `openai` or `edge`; default: the one set in
    /// Settings → Media.
    pub backend: Option<BackendArg>,
    /// The voice: an espeak-ng voice (`en`, `en-us`, `cmn`, `de`…) for `local`, an API voice
    /// (`alloy`, `coral`…) for `openai`. Default: the settings' voice, else the backend's.
    #[schemars(length(min = 1, max = 64))]
    pub voice: Option<String>,
    /// Where to save the audio in the workspace; its extension picks the format (`local`:
    /// .wav; `openai`: .mp3, .opus, .aac, .flac, .wav or .pcm). Default
    /// `generated/speech-….wav` (`local`) or `.mp3` (`openai`).
    #[schemars(length(min = 1, max = 4096))]
    pub output_path: Option<String>,
    /// Also deliver the audio to a chat (default false: it plays in this chat's tool card).
    pub deliver: Option<bool>,
    /// The channel to deliver to (default: this chat's).
    #[schemars(length(min = 1, max = 200))]
    pub deliver_channel: Option<String>,
    /// The chat to deliver to within the channel (default: this chat).
    #[schemars(length(min = 1, max = 200))]
    pub deliver_chat_id: Option<String>,
    /// Text sent with a delivered file.
    #[schemars(length(max = 1024))]
    pub caption: Option<String>,
}

#[async_trait]
impl Tool for TextToSpeech {
    type Args = TextToSpeechArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::TEXT_TO_SPEECH
    }

    fn description(&self) -> &str {
        "Speaks text into an audio file in the workspace, which the chat plays. Backends: \
         `local` (espeak-ng on this computer, works offline, WAV), `openai` (the speech \
         endpoint set in Settings → Media), `edge` (not available). `deliver` also sends it to \
         a chat. Returns {path, mime_type, bytes, backend, voice, duration_secs?, delivery?}."
    }

    async fn run(&self, ctx: &ToolContext, args: TextToSpeechArgs) -> Result<Value, ToolError> {
        if args.text.trim().is_empty() || args.text.chars().count() > TTS_MAX_CHARS {
            return Err(ToolError::invalid(
                "text",
                format!("must be 1 to {TTS_MAX_CHARS} characters of text"),
            ));
        }
        let backend = args
            .backend
            .map_or(self.config.backend, SpeechBackend::from);
        let voice = args
            .voice
            .clone()
            .or_else(|| Some(self.config.voice.trim().to_string()).filter(|v| !v.is_empty()));
        let (audio, path, mime_type, voice) = match backend {
            SpeechBackend::Edge => {
                return Err(ToolError::new(ErrorKind::Unavailable, EDGE_UNAVAILABLE))
            }
            SpeechBackend::Local => {
                let path =
                    target_path(args.output_path.as_deref(), "output_path", "speech", "wav")?;
                let voice = local::voice_for(voice.as_deref(), &args.text)?;
                let audio =
                    local::speak(&self.config.espeak, &voice, &args.text, &ctx.cancel).await?;
                (audio, path, "audio/wav", voice)
            }
            SpeechBackend::Openai => {
                let format = openai::format_of(args.output_path.as_deref())?;
                let path = target_path(
                    args.output_path.as_deref(),
                    "output_path",
                    "speech",
                    format.extension,
                )?;
                let endpoint = self
                    .config
                    .openai
                    .as_ref()
                    .ok_or_else(openai::not_configured)?;
                let voice = voice.unwrap_or_else(|| openai::DEFAULT_VOICE.to_string());
                let audio = openai::speak(endpoint, &self.http, &voice, &args.text, format).await?;
                (audio, path, format.mime_type, voice)
            }
        };
        let bytes = audio.len();
        let duration = wav_info(&audio).map(|info| (info.duration_secs * 100.0).round() / 100.0);
        let saved = save_async(ctx.workspace.clone(), path, "output_path", audio).await?;
        let mut result = json!({
            "path": saved.path,
            "mime_type": mime_type,
            "bytes": bytes,
            "backend": backend.as_str(),
            "voice": voice,
        });
        if let Some(seconds) = duration {
            result["duration_secs"] = json!(seconds);
        }
        let wanted = args.deliver.unwrap_or(false)
            || args.deliver_channel.is_some()
            || args.deliver_chat_id.is_some();
        if wanted {
            let file = MediaFile {
                session_id: &ctx.session_id,
                path: &saved.path,
                absolute: &saved.absolute,
                mime_type,
                caption: args.caption.as_deref(),
            };
            let delivery = self
                .delivery
                .deliver(
                    file,
                    args.deliver_channel.as_deref(),
                    args.deliver_chat_id.as_deref(),
                )
                .await?;
            result["delivery"] = delivery;
        }
        Ok(result)
    }
}
