//! The media tools' configuration from the user's settings (`[media]`) and keys (keychain
//! accounts `media:image`, `media:speech`; `hearth-cli keys set media-image|media-speech`), and
//! the engine's side of `vision_analyze`: which model looks at an image, and the call to it.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use hearth_llm::{collect, ChatMessage, ChatRequest};
use hearth_protocol::{ContentPart, Role, Settings};
use hearth_store::Db;
use hearth_tools::media::{
    no_vision_model, ApiEndpoint, MediaDelivery, SpeechConfig, VisionChoice, VisionModels,
    DEFAULT_IMAGE_MODEL, DEFAULT_SPEECH_MODEL,
};
use hearth_tools::{register_media, ErrorKind, MediaConfig, Registry, ToolError};

use crate::provider::{choose_provider, model_client};
use hearth_core::SecretStore;

/// The key ids the CLI and the settings screen use for the media providers, and their
/// keychain accounts.
pub const MEDIA_KEY_IDS: [(&str, &str); 2] = [
    ("media-image", "media:image"),
    ("media-speech", "media:speech"),
];

/// How long a vision model may take to answer.
const VISION_TIMEOUT: Duration = Duration::from_secs(180);

/// The most tokens a vision answer may take.
const VISION_MAX_TOKENS: u32 = 2048;

/// The media tools' settings with their keys read from `secrets` (a keychain that cannot be
/// read leaves a key out, logged once per start).
pub fn media_config(settings: &Settings, secrets: &dyn SecretStore) -> MediaConfig {
    let key = |account: &str| crate::read_secret(secrets, account);
    let media = &settings.media;
    MediaConfig {
        allow_local: settings.allow_local_hosts.clone(),
        image: ApiEndpoint::configured(
            &media.image.base_url,
            &media.image.model,
            DEFAULT_IMAGE_MODEL,
            key(MEDIA_KEY_IDS[0].1),
        ),
        speech: SpeechConfig {
            backend: media.speech.backend,
            voice: media.speech.voice.clone(),
            openai: ApiEndpoint::configured(
                &media.speech.base_url,
                &media.speech.model,
                DEFAULT_SPEECH_MODEL,
                key(MEDIA_KEY_IDS[1].1),
            ),
            ..SpeechConfig::default()
        },
    }
}

/// Adds the media tools to `registry`, `vision_analyze` asking `vision`, `text_to_speech`'s
/// `deliver` going through `delivery` (the channel layer's [`hearth_tools::channels::media_delivery`]).
pub(crate) fn add_media_tools(
    registry: &mut Registry,
    config: MediaConfig,
    vision: Arc<dyn VisionModels>,
    delivery: Arc<dyn MediaDelivery>,
) {
    let dialect = registry.dialect();
    if let Err(error) = register_media(registry, config, vision, delivery) {
        tracing::error!(%error, %dialect, "media tools left out");
    }
}

/// Whether `model` (a bare name, or `<provider>:<name>`, or an Ollama `name:tag`) is one of the
/// families known to take images.
pub fn takes_images(model: &str) -> bool {
    const FAMILIES: [&str; 22] = [
        "gpt-4o",
        "gpt-4.1",
        "gpt-4-turbo",
        "gpt-4-vision",
        "gpt-5",
        "o3",
        "o4-",
        "claude-3",
        "claude-sonnet-4",
        "claude-opus-4",
        "claude-haiku-4",
        "gemini",
        "gemma3",
        "llava",
        "llama3.2-vision",
        "llama4",
        "qwen2.5vl",
        "qwen3-vl",
        "minicpm-v",
        "moondream",
        "pixtral",
        "mistral-small3",
    ];
    let name = model.to_ascii_lowercase();
    let name = name.rsplit('/').next().unwrap_or_default();
    name.split(':').any(|part| {
        FAMILIES.iter().any(|family| part.starts_with(family))
            || part.contains("-vl")
            || part.contains("vision")
    })
}

/// `vision_analyze`'s models: the providers in the settings, keys from `secrets`, the chat's
/// model read through `db`.
pub struct EngineVision {
    pub settings: Settings,
    pub secrets: Arc<dyn SecretStore>,
    pub db: Db,
    pub local: hearth_local::LocalModels,
}

impl EngineVision {
    fn choice(&self, requested: &str) -> Result<VisionChoice, ToolError> {
        let (entry, model) = choose_provider(&self.settings, Some(requested))
            .map_err(|e| ToolError::new(ErrorKind::Unavailable, e.to_string()))?;
        Ok(VisionChoice {
            kind: entry.kind,
            label: format!("{}:{model}", entry.id),
        })
    }
}

#[async_trait]
impl VisionModels for EngineVision {
    async fn choose(
        &self,
        session_id: &str,
        requested: Option<&str>,
    ) -> Result<VisionChoice, ToolError> {
        if let Some(requested) = requested.map(str::trim).filter(|m| !m.is_empty()) {
            return self.choice(requested);
        }
        let id = session_id.to_string();
        let session_model = match self.db.read(move |s| s.get_session(&id)).await {
            Ok(session) => session.and_then(|s| s.model),
            Err(error) => {
                tracing::warn!(%error, session_id, "the chat's model not read");
                None
            }
        };
        if let Ok((entry, model)) = choose_provider(&self.settings, session_model.as_deref()) {
            if takes_images(&model) {
                return Ok(VisionChoice {
                    kind: entry.kind,
                    label: format!("{}:{model}", entry.id),
                });
            }
        }
        match self.settings.media.vision_model.trim() {
            "" => Err(no_vision_model()),
            configured => self.choice(configured),
        }
    }

    async fn ask(
        &self,
        choice: &VisionChoice,
        image: ContentPart,
        prompt: &str,
    ) -> Result<String, ToolError> {
        let unavailable =
            |e: crate::EngineError| ToolError::new(ErrorKind::Unavailable, e.to_string());
        let (entry, model) =
            choose_provider(&self.settings, Some(&choice.label)).map_err(unavailable)?;
        let (secrets, local) = (self.secrets.clone(), self.local.clone());
        let client = tokio::task::spawn_blocking(move || {
            model_client(&entry, None, secrets.as_ref(), &local)
        })
        .await
        .map_err(|e| ToolError::internal(format!("key lookup task failed: {e}")))?
        .map_err(unavailable)?;
        let request = ChatRequest {
            model,
            system: String::new(),
            messages: vec![ChatMessage {
                role: Role::User,
                content: vec![image, ContentPart::text(prompt)],
                tool_calls: Vec::new(),
                tool_call_id: None,
                tool_name: None,
            }],
            tools: Arc::from(Vec::new()),
            max_tokens: Some(VISION_MAX_TOKENS),
            temperature: None,
            tool_choice: hearth_llm::ToolChoice::Auto,
        };
        let answer = async {
            let stream = client.stream(&request).await?;
            collect(stream).await
        };
        let completion = tokio::time::timeout(VISION_TIMEOUT, answer)
            .await
            .map_err(|_| {
                ToolError::new(
                    ErrorKind::Timeout,
                    format!(
                        "{} gave no answer within {} s",
                        choice.label,
                        VISION_TIMEOUT.as_secs()
                    ),
                )
            })?
            .map_err(|e| ToolError::new(ErrorKind::Failed, format!("{}: {e}", choice.label)))?;
        Ok(completion.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_taking_families_are_told_from_text_only_models() {
        for model in [
            "gpt-4o-mini",
            "openai:gpt-4.1",
            "claude-sonnet-4-5",
            "gemini-2.5-flash",
            "llava:13b",
            "qwen2.5vl:7b",
            "Qwen/Qwen2.5-VL-7B-Instruct",
            "llama3.2-vision",
        ] {
            assert!(takes_images(model), "{model}");
        }
        for model in [
            "gpt-3.5-turbo",
            "qwen3:8b",
            "deepseek-r1",
            "scripted-small",
            "llama3.1:8b",
        ] {
            assert!(!takes_images(model), "{model}");
        }
    }
}
