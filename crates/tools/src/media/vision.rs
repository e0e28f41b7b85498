//! `vision_analyze`: an image from the workspace (through the file sandbox) or a URL (through
//! the SSRF guard), fitted to the chosen model's limits and sent with the prompt as one image
//! part; the model's answer comes back as text.

use super::picture::{fit, limits_for, IMAGE_SOURCE_CAP};
use super::{VisionChoice, VisionModels};
use crate::error::{ErrorKind, ToolError};
use crate::fs::sandbox::{PathArg, Sandbox};
use crate::net::{GuardedClient, Outgoing};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use base64::Engine as _;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_protocol::ContentPart;
use reqwest::header::{HeaderMap, HeaderValue, ACCEPT};
use reqwest::Method;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// How long an image download may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(30);

pub struct VisionAnalyze {
    pub(crate) models: Arc<dyn VisionModels>,
    pub(crate) fetch: Arc<GuardedClient>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VisionAnalyzeArgs {
    /// The image: a path in the workspace, or an http(s) URL (local and private addresses are
    /// refused unless the user allowed them). PNG, JPEG, GIF or WebP, at most 20 MiB.
    #[schemars(length(min = 1, max = 8192))]
    pub image: String,
    /// What to find out about the image, e.g. "What does the error dialog say?".
    #[schemars(length(min = 1, max = 20000))]
    pub prompt: String,
    /// The model to ask: `<provider id>:<model>` or a model of the default provider. Default:
    /// the chat's model when it takes images, else the vision model set in Settings → Media.
    #[schemars(length(min = 1, max = 200))]
    pub model: Option<String>,
}

#[async_trait]
impl Tool for VisionAnalyze {
    type Args = VisionAnalyzeArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::VISION_ANALYZE
    }

    fn description(&self) -> &str {
        "Looks at an image and answers a question about it. `image` is a workspace path or an \
         http(s) URL (PNG, JPEG, GIF or WebP, at most 20 MiB; scaled down to what the model \
         takes). Returns {answer, model, image: {source, width, height, sent_width, \
         sent_height, resized}}."
    }

    async fn run(&self, ctx: &ToolContext, args: VisionAnalyzeArgs) -> Result<Value, ToolError> {
        let choice: VisionChoice = self
            .models
            .choose(&ctx.session_id, args.model.as_deref())
            .await?;
        let bytes = if is_url(&args.image) {
            self.download(&args.image).await?
        } else {
            let workspace = ctx.workspace.clone();
            let path = args.image.clone();
            tokio::task::spawn_blocking(move || read_image(&workspace, &path))
                .await
                .map_err(|e| ToolError::internal(format!("image read task failed: {e}")))??
        };
        let limits = limits_for(choice.kind);
        let fitted = tokio::task::spawn_blocking(move || fit(bytes, limits, "image"))
            .await
            .map_err(|e| ToolError::internal(format!("image scaling task failed: {e}")))??;
        let part = ContentPart::Image {
            mime_type: fitted.mime_type.to_string(),
            data: base64::engine::general_purpose::STANDARD.encode(&fitted.bytes),
            name: None,
        };
        let answer = self.models.ask(&choice, part, &args.prompt).await?;
        Ok(json!({
            "answer": answer,
            "model": choice.label,
            "image": {
                "source": args.image,
                "width": fitted.original_width,
                "height": fitted.original_height,
                "sent_width": fitted.width,
                "sent_height": fitted.height,
                "resized": fitted.resized,
            },
        }))
    }
}

impl VisionAnalyze {
    /// GETs `url` through the guard; its body when it is a success within the cap.
    async fn download(&self, url: &str) -> Result<Vec<u8>, ToolError> {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_static("image/*"));
        let fetched = self
            .fetch
            .send(Outgoing {
                method: Method::GET,
                url: url.to_string(),
                url_field: "image",
                headers,
                body: None,
                timeout: FETCH_TIMEOUT,
            })
            .await?;
        if !fetched.status.is_success() {
            return Err(ToolError::new(
                ErrorKind::Failed,
                format!("`image`: {url} answered {}", fetched.status),
            ));
        }
        if fetched.truncated {
            return Err(ToolError {
                kind: ErrorKind::TooLarge,
                message: format!(
                    "{url} is larger than the {} bytes an image download may be",
                    crate::net::MAX_BODY_BYTES
                ),
                field: Some("image".into()),
            });
        }
        Ok(fetched.body)
    }
}

fn is_url(image: &str) -> bool {
    let lower = image.trim_start().to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// The bytes of the workspace file `path`, at most [`IMAGE_SOURCE_CAP`].
fn read_image(workspace: &Path, path: &str) -> Result<Vec<u8>, ToolError> {
    let sandbox = Sandbox::workspace(workspace)?;
    let (file, meta) = sandbox.locate(PathArg::new("image", path))?.open_file()?;
    if meta.len() > IMAGE_SOURCE_CAP {
        return Err(ToolError {
            kind: ErrorKind::TooLarge,
            message: format!(
                "is {} bytes; vision_analyze reads images of at most {IMAGE_SOURCE_CAP} bytes \
                 (20 MiB)",
                meta.len()
            ),
            field: Some("image".into()),
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(IMAGE_SOURCE_CAP)
        .read_to_end(&mut bytes)
        .map_err(|e| ToolError::internal(format!("`image` could not be read: {e}")))?;
    Ok(bytes)
}

/// `unavailable` with the steps that give `vision_analyze` a model.
pub fn no_vision_model() -> ToolError {
    ToolError::new(
        ErrorKind::Unavailable,
        "no model that takes images is configured: add a provider in Settings → Providers \
         whose model takes images (e.g. gpt-4o, claude-sonnet-4, gemini-2.5-flash, or \
         llava / qwen2.5vl in Ollama), then either use it in this chat or set it as the vision \
         model in Settings → Media (`[media] vision_model = \"<provider id>:<model>\"` in \
         config.toml), or pass `model`",
    )
}
