//! `image_generate`: one image from the configured OpenAI Images API endpoint
//! (`POST /images/generations`, answered with `data[0].b64_json`), saved as a PNG in the
//! workspace, where the chat shows it.

use super::api::ApiEndpoint;
use super::save::{save_async, target_path};
use crate::error::{ErrorKind, ToolError};
use crate::tool::{Tool, ToolContext};
use async_trait::async_trait;
use base64::Engine as _;
use hearth_policy::catalogue::{self, CanonicalTool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

/// The model used when the settings name none.
pub const DEFAULT_IMAGE_MODEL: &str = "gpt-image-1";

/// The longest prompt the Images API takes.
const MAX_PROMPT_CHARS: usize = 32_000;

pub struct ImageGenerate {
    pub(crate) endpoint: Option<ApiEndpoint>,
    pub(crate) http: reqwest::Client,
}

/// The image's shape.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AspectRatio {
    /// Wider than tall (1536×1024).
    Landscape,
    /// 1024×1024.
    #[default]
    Square,
    /// Taller than wide (1024×1536).
    Portrait,
}

impl AspectRatio {
    /// The Images API `size` for `model` (DALL·E 3 has its own wide and tall sizes).
    fn size(self, model: &str) -> &'static str {
        let dall_e = model.starts_with("dall-e");
        match self {
            AspectRatio::Square => "1024x1024",
            AspectRatio::Landscape if dall_e => "1792x1024",
            AspectRatio::Landscape => "1536x1024",
            AspectRatio::Portrait if dall_e => "1024x1792",
            AspectRatio::Portrait => "1024x1536",
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImageGenerateArgs {
    /// What the image shows, in detail.
    #[schemars(length(min = 1, max = 32000))]
    pub prompt: String,
    /// `landscape`, `square` (default) or `portrait`.
    pub aspect_ratio: Option<AspectRatio>,
    /// Where to save it in the workspace (ending in .png); default `generated/image-….png`.
    #[schemars(length(min = 1, max = 4096))]
    pub output_path: Option<String>,
}

#[async_trait]
impl Tool for ImageGenerate {
    type Args = ImageGenerateArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::IMAGE_GENERATE
    }

    fn description(&self) -> &str {
        "Generates an image from a text prompt with the image provider set in Settings → Media \
         (an OpenAI Images API endpoint) and saves it as a PNG in the workspace; the chat shows \
         it. Returns {path, mime_type, bytes, width, height, model, revised_prompt?}."
    }

    async fn run(&self, ctx: &ToolContext, args: ImageGenerateArgs) -> Result<Value, ToolError> {
        if args.prompt.trim().is_empty() || args.prompt.chars().count() > MAX_PROMPT_CHARS {
            return Err(ToolError::invalid(
                "prompt",
                format!("must be 1 to {MAX_PROMPT_CHARS} characters of text"),
            ));
        }
        let path = target_path(args.output_path.as_deref(), "output_path", "image", "png")?;
        let endpoint = self.endpoint.as_ref().ok_or_else(not_configured)?;
        let model = endpoint.model.as_str();
        let mut body = json!({
            "model": model,
            "prompt": args.prompt,
            "n": 1,
            "size": args.aspect_ratio.unwrap_or_default().size(model),
        });
        // DALL·E answers URLs unless asked for base64; gpt-image models always answer base64
        // and take an output format instead.
        if model.starts_with("dall-e") {
            body["response_format"] = json!("b64_json");
        } else {
            body["output_format"] = json!("png");
        }
        let (answer, _) = endpoint
            .post(&self.http, "image provider", "images/generations", &body)
            .await?;
        let (png, revised_prompt) = decode_answer(&answer)?;
        let (width, height) = png_size(&png)?;
        let bytes = png.len();
        let saved = save_async(ctx.workspace.clone(), path, "output_path", png).await?;
        let mut result = json!({
            "path": saved.path,
            "mime_type": "image/png",
            "bytes": bytes,
            "width": width,
            "height": height,
            "model": model,
        });
        if let Some(revised) = revised_prompt {
            result["revised_prompt"] = json!(revised);
        }
        Ok(result)
    }
}

/// The PNG bytes of `data[0].b64_json` and the revised prompt, if any.
fn decode_answer(answer: &[u8]) -> Result<(Vec<u8>, Option<String>), ToolError> {
    let failed = |why: &str| {
        ToolError::new(
            ErrorKind::Failed,
            format!("the image provider's answer is not an Images API answer: {why}"),
        )
    };
    let value: Value = serde_json::from_slice(answer).map_err(|e| failed(&e.to_string()))?;
    let first = value
        .get("data")
        .and_then(|d| d.get(0))
        .ok_or_else(|| failed("no `data[0]`"))?;
    let encoded = first
        .get("b64_json")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            failed(
                "`data[0]` has no `b64_json` (a provider that only answers URLs is not supported)",
            )
        })?;
    let png = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .map_err(|e| failed(&format!("`b64_json` is not base64: {e}")))?;
    let revised = first
        .get("revised_prompt")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok((png, revised))
}

/// Width and height from a PNG's header; an error when the bytes are not a PNG.
fn png_size(png: &[u8]) -> Result<(u32, u32), ToolError> {
    let reader =
        image::ImageReader::with_format(std::io::Cursor::new(png), image::ImageFormat::Png);
    reader.into_dimensions().map_err(|e| {
        ToolError::new(
            ErrorKind::Failed,
            format!("the image provider's `b64_json` is not a PNG image: {e}"),
        )
    })
}

/// `unavailable` with the steps that configure an image provider.
fn not_configured() -> ToolError {
    ToolError::new(
        ErrorKind::Unavailable,
        "no image provider is configured: in Settings → Media set the image provider (an \
         OpenAI Images API endpoint: the base URL, e.g. https://api.openai.com/v1 or a local \
         server's, and the model, default gpt-image-1) and store its key there (or run \
         `hearth-cli keys set media-image`); `[media.image]` in config.toml holds base_url and \
         model",
    )
}
