//! The media tools' settings (`[media]` in `config.toml`): the vision model, the image provider
//! and the speech backend, whose keys live in the OS keychain (`media:image`, `media:speech`);
//! and the generated media a chat shows.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::choices::SpeechBackend;

/// `[media]`: what `vision_analyze`, `image_generate` and `text_to_speech` use.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct MediaSettings {
    /// The model `vision_analyze` asks when the chat's model does not take images:
    /// `<provider id>:<model>` (or a model of the default provider); empty for none.
    pub vision_model: String,
    pub image: ImageProviderSettings,
    pub speech: SpeechSettings,
}

/// `[media.image]`: an OpenAI Images API endpoint (`POST {base_url}/images/generations`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct ImageProviderSettings {
    /// Base URL including `/v1`; empty means `https://api.openai.com/v1` (which needs a key).
    pub base_url: String,
    /// Empty means `gpt-image-1`.
    pub model: String,
}

/// `[media.speech]`: the `text_to_speech` backend used when a call names none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct SpeechSettings {
    pub backend: SpeechBackend,
    /// The voice when a call names none: an `espeak-ng` voice (`en`, `zh`, `en-us`…) for
    /// `local`, an API voice (`alloy`, `coral`…) for `openai`; empty for the backend's default.
    pub voice: String,
    /// Base URL of the `openai` backend including `/v1`; empty means `https://api.openai.com/v1`.
    pub base_url: String,
    /// Model of the `openai` backend; empty means `gpt-4o-mini-tts`.
    pub model: String,
}

impl Default for SpeechSettings {
    fn default() -> Self {
        SpeechSettings {
            backend: SpeechBackend::Local,
            voice: String::new(),
            base_url: String::new(),
            model: String::new(),
        }
    }
}

/// An image or audio file from a chat's workspace, for the chat to show or play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct WorkspaceMedia {
    /// e.g. `image/png`, `audio/wav`.
    pub mime_type: String,
    pub data_base64: String,
}
