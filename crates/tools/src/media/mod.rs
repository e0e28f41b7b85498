//! The media tools — `vision_analyze`, `image_generate`, `text_to_speech` — their configuration
//! ([`MediaConfig`]), the seams the engine fills ([`VisionModels`], [`MediaDelivery`]) and
//! [`register_media`], which the engine calls with the user's settings.

mod api;
mod generate;
mod picture;
mod save;
mod serve;
mod speech;
mod vision;
mod wav;

pub use api::ApiEndpoint;
pub use generate::{AspectRatio, ImageGenerate, ImageGenerateArgs, DEFAULT_IMAGE_MODEL};
pub use picture::{limits_for, ImageLimits, IMAGE_SOURCE_CAP};
pub use serve::{read_media, MEDIA_SERVE_CAP};
pub use speech::{
    BackendArg, SpeechConfig, TextToSpeech, TextToSpeechArgs, DEFAULT_SPEECH_MODEL,
    EDGE_UNAVAILABLE, TTS_MAX_CHARS,
};
pub use vision::{no_vision_model, VisionAnalyze, VisionAnalyzeArgs};
pub use wav::{wav_info, WavInfo};

use crate::dialect::Dialect;
use crate::error::ToolError;
use crate::net::{GuardedClient, SystemResolver};
use crate::registry::{Registry, RegistryError};
use async_trait::async_trait;
use hearth_protocol::{ContentPart, ProviderKind};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

/// Workspace folder generated images and audio land in (unless a call names another path).
pub const GENERATED_DIR: &str = "generated";

/// What the media tools need from the user's settings. The default configures no image
/// provider, `espeak-ng` for speech, and no local target for image URLs.
#[derive(Debug, Clone, Default)]
pub struct MediaConfig {
    /// Local or special-purpose hosts `vision_analyze` may fetch image URLs from (the
    /// settings' `allow_local_hosts`).
    pub allow_local: Vec<String>,
    /// The OpenAI Images API endpoint; `None` when none is configured.
    pub image: Option<ApiEndpoint>,
    pub speech: SpeechConfig,
}

/// The model `vision_analyze` asks, as [`VisionModels::choose`] picked it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisionChoice {
    /// Its wire format, which decides the image limits.
    pub kind: ProviderKind,
    /// `<provider id>:<model>`, reported in the result.
    pub label: String,
}

/// The engine's side of `vision_analyze`: which model looks, and one model call.
#[async_trait]
pub trait VisionModels: Send + Sync {
    /// The model for a call in `session_id` asking for `requested` (`<provider id>:<model>` or
    /// a model of the default provider): the requested one, else the chat's model when it
    /// takes images, else the configured vision model; `unavailable` with the setup steps when
    /// there is none.
    async fn choose(
        &self,
        session_id: &str,
        requested: Option<&str>,
    ) -> Result<VisionChoice, ToolError>;

    /// Asks `choice` about `image` (an image part) with `prompt`; the answer's text.
    async fn ask(
        &self,
        choice: &VisionChoice,
        image: ContentPart,
        prompt: &str,
    ) -> Result<String, ToolError>;
}

/// No model to ask (a registry built without providers, e.g. for the tool reference):
/// `vision_analyze` is `unavailable` with the setup steps.
pub struct NoVisionModels;

#[async_trait]
impl VisionModels for NoVisionModels {
    async fn choose(&self, _: &str, _: Option<&str>) -> Result<VisionChoice, ToolError> {
        Err(no_vision_model())
    }

    async fn ask(&self, _: &VisionChoice, _: ContentPart, _: &str) -> Result<String, ToolError> {
        Err(no_vision_model())
    }
}

/// A file a media tool made, to be delivered somewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaFile<'a> {
    /// The session the call ran in.
    pub session_id: &'a str,
    /// The file's path relative to the workspace.
    pub path: &'a str,
    /// The file's absolute path.
    pub absolute: &'a Path,
    pub mime_type: &'a str,
    pub caption: Option<&'a str>,
}

/// Where `text_to_speech`'s `deliver` sends its audio. The engine gives
/// [`crate::channels::media_delivery`] (every configured channel); [`DesktopDelivery`] knows
/// only the chat the call ran in.
#[async_trait]
pub trait MediaDelivery: Send + Sync {
    /// Delivers `file` to `channel` (`None`: the chat the call ran in) and `chat_id`; the
    /// delivery result the model reads (`{delivered: true, …}`) or why it failed.
    async fn deliver(
        &self,
        file: MediaFile<'_>,
        channel: Option<&str>,
        chat_id: Option<&str>,
    ) -> Result<Value, ToolError>;
}

/// The answer when the file is for the chat the call ran in, whose tool card shows it already.
pub(crate) fn shown_here(file: &MediaFile<'_>) -> Value {
    serde_json::json!({
        "delivered": true,
        "channel": "desktop",
        "chat_id": file.session_id,
        "path": file.path,
    })
}

/// Delivery to the desktop chat the call ran in, where the tool card shows the file; any other
/// target is `unavailable`.
pub struct DesktopDelivery;

#[async_trait]
impl MediaDelivery for DesktopDelivery {
    async fn deliver(
        &self,
        file: MediaFile<'_>,
        channel: Option<&str>,
        chat_id: Option<&str>,
    ) -> Result<Value, ToolError> {
        let channel = channel.map(str::trim).filter(|c| !c.is_empty());
        let chat_id = chat_id.map(str::trim).filter(|c| !c.is_empty());
        let here = file.session_id;
        let this_chat = chat_id.is_none_or(|id| id == here || here.ends_with(&format!(":{id}")));
        if channel.is_none_or(|c| c == "desktop") && this_chat {
            return Ok(shown_here(&file));
        }
        Err(ToolError::new(
            crate::error::ErrorKind::Unavailable,
            format!(
                "delivery goes only to this chat ({here}) in this build: no channel `{}` / chat \
                 `{}` is configured. The file is saved at {}; leave deliver_channel and \
                 deliver_chat_id out to show it here",
                channel.unwrap_or("desktop"),
                chat_id.unwrap_or(here),
                file.path
            ),
        ))
    }
}

/// Why the media tools could not be registered.
#[derive(Debug, thiserror::Error)]
pub enum MediaSetupError {
    #[error("the HTTP client could not be built: {0}")]
    Client(#[from] reqwest::Error),
    #[error(transparent)]
    Registry(#[from] RegistryError),
}

/// Registers `vision_analyze`, `image_generate` and `text_to_speech` for the `hearth` and
/// `echo` dialects: `vision` answers `vision_analyze`'s model calls, `delivery` carries
/// `text_to_speech`'s `deliver`.
pub fn register_media(
    registry: &mut Registry,
    config: MediaConfig,
    vision: Arc<dyn VisionModels>,
    delivery: Arc<dyn MediaDelivery>,
) -> Result<(), MediaSetupError> {
    use Dialect::{Echo, Hearth};
    let http = api::http_client()?;
    let fetch = GuardedClient::new(&config.allow_local, Arc::new(SystemResolver))?;
    registry.register_for(
        &[Hearth, Echo],
        VisionAnalyze {
            models: vision,
            fetch: Arc::new(fetch),
        },
    )?;
    registry.register_for(
        &[Hearth, Echo],
        ImageGenerate {
            endpoint: config.image,
            http: http.clone(),
        },
    )?;
    registry.register_for(
        &[Hearth, Echo],
        TextToSpeech {
            config: config.speech,
            http,
            delivery,
        },
    )?;
    Ok(())
}
