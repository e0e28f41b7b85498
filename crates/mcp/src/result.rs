//! A tool result as the model reads it: text, images (saved under the data dir, referenced by
//! path and attached to the result as image parts the model sees), embedded resources, and
//! `structuredContent` checked against the tool's `outputSchema`; `isError` becomes a tool error.

use base64::Engine as _;
use hearth_tools::{ErrorKind, ToolContext, ToolError};
use rmcp::model::CallToolResult;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::path::Path;

/// Where images and binary resources from MCP results are written, under the data dir.
pub const MEDIA_DIR: &str = "mcp-media";

/// `result` of `server`'s tool as JSON for the model; binary parts are written to
/// `<data_dir>/mcp-media/`, and images are attached to the call's result (`ctx`).
pub async fn model_result(
    server: &str,
    result: &CallToolResult,
    output_schema: Option<&Value>,
    ctx: &ToolContext,
) -> Result<Value, ToolError> {
    let wire = serde_json::to_value(result)
        .map_err(|e| ToolError::new(ErrorKind::Internal, format!("unreadable result: {e}")))?;
    let mut content = Vec::new();
    for block in wire["content"].as_array().into_iter().flatten() {
        content.push(part(block, ctx).await?);
    }
    if wire["isError"] == Value::Bool(true) {
        let text: Vec<&str> = content.iter().filter_map(|p| p["text"].as_str()).collect();
        return Err(ToolError::new(
            ErrorKind::Failed,
            format!(
                "MCP server `{server}` reports an error: {}",
                text.join("\n")
            ),
        ));
    }
    let mut out = Map::new();
    out.insert("server".into(), json!(server));
    out.insert("content".into(), Value::Array(content));
    let structured = wire.get("structuredContent").filter(|v| !v.is_null());
    if let Some(schema) = output_schema {
        let Some(structured) = structured else {
            return Err(ToolError::new(
                ErrorKind::Failed,
                format!("MCP server `{server}`: the tool declares an outputSchema but returned no structuredContent"),
            ));
        };
        check_output(server, schema, structured)?;
    }
    if let Some(structured) = structured {
        out.insert("structured".into(), structured.clone());
    }
    Ok(Value::Object(out))
}

/// `structured` against `schema`: a mismatch is reported, never passed off as success.
fn check_output(server: &str, schema: &Value, structured: &Value) -> Result<(), ToolError> {
    let validator = jsonschema::validator_for(schema).map_err(|e| {
        ToolError::new(
            ErrorKind::Failed,
            format!("MCP server `{server}`: the tool's outputSchema is not a valid schema: {e}"),
        )
    })?;
    let errors: Vec<String> = validator
        .iter_errors(structured)
        .take(3)
        .map(|e| format!("{} at `{}`", e, e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ToolError::new(
            ErrorKind::Failed,
            format!(
                "MCP server `{server}`: structuredContent does not match the tool's outputSchema: {}",
                errors.join("; ")
            ),
        ))
    }
}

async fn part(block: &Value, ctx: &ToolContext) -> Result<Value, ToolError> {
    let data_dir = ctx.data_dir.as_path();
    let kind = block["type"].as_str().unwrap_or("");
    Ok(match kind {
        "text" => json!({"type": "text", "text": block["text"]}),
        "image" | "audio" => {
            let mime = block["mimeType"]
                .as_str()
                .unwrap_or("application/octet-stream");
            let (path, bytes) = save(block["data"].as_str().unwrap_or(""), mime, data_dir).await?;
            let mut out =
                json!({"type": kind, "mime_type": mime, "path": path, "bytes": bytes.len()});
            let attached = if kind == "image" {
                ctx.attach_image(mime, &bytes, &path)
            } else {
                ctx.attach_audio(mime, &bytes, &path)
            };
            if let Err(refused) = attached {
                out["note"] = json!(refused.message);
            }
            out
        }
        "resource" => {
            let resource = &block["resource"];
            let mut out = json!({"type": "resource", "uri": resource["uri"], "mime_type": resource["mimeType"]});
            if let Some(text) = resource["text"].as_str() {
                out["text"] = json!(text);
            } else if let Some(blob) = resource["blob"].as_str() {
                let mime = resource["mimeType"]
                    .as_str()
                    .unwrap_or("application/octet-stream");
                let (path, bytes) = save(blob, mime, data_dir).await?;
                out["path"] = json!(path);
                out["bytes"] = json!(bytes.len());
            }
            out
        }
        "resource_link" => json!({
            "type": "resource_link", "uri": block["uri"], "name": block["name"],
            "description": block["description"], "mime_type": block["mimeType"],
        }),
        _ => block.clone(),
    })
}

/// Writes base64 `data` to `<data_dir>/mcp-media/<hash>.<ext>`; returns the path and bytes.
pub(crate) async fn save(
    data: &str,
    mime: &str,
    data_dir: &Path,
) -> Result<(String, Vec<u8>), ToolError> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|e| {
            ToolError::new(
                ErrorKind::Failed,
                format!("MCP result has bad base64 data: {e}"),
            )
        })?;
    let digest = Sha256::digest(&bytes);
    let name: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let extension = mime.rsplit('/').next().unwrap_or("bin");
    let dir = data_dir.join(MEDIA_DIR);
    let io = |e: std::io::Error| {
        ToolError::new(ErrorKind::Internal, format!("cannot save MCP media: {e}"))
    };
    tokio::fs::create_dir_all(&dir).await.map_err(io)?;
    let path = dir.join(format!("{name}.{}", super::names::sanitize(extension)));
    tokio::fs::write(&path, &bytes).await.map_err(io)?;
    Ok((path.display().to_string(), bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(json: Value) -> CallToolResult {
        serde_json::from_value(json).unwrap()
    }

    fn context(dir: &Path) -> ToolContext {
        ToolContext {
            workspace: dir.to_path_buf(),
            data_dir: dir.to_path_buf(),
            session_id: "s".into(),
            cancel: Default::default(),
            images: Default::default(),
            conversation: None,
            sandbox: Default::default(),
        }
    }

    #[tokio::test]
    async fn structured_content_is_checked_against_the_output_schema() {
        let dir = tempfile::tempdir().unwrap();
        let schema =
            json!({"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]});
        let good = result(json!({"content": [], "structuredContent": {"n": 1}}));
        let out = model_result("s", &good, Some(&schema), &context(dir.path()))
            .await
            .unwrap();
        assert_eq!(out["structured"]["n"], 1);
        let bad = result(json!({"content": [], "structuredContent": {"n": "one"}}));
        let error = model_result("s", &bad, Some(&schema), &context(dir.path()))
            .await
            .unwrap_err();
        assert_eq!(error.kind, ErrorKind::Failed);
        assert!(error.message.contains("does not match"), "{error:?}");
        let missing = result(json!({"content": [{"type": "text", "text": "x"}]}));
        let error = model_result("s", &missing, Some(&schema), &context(dir.path()))
            .await
            .unwrap_err();
        assert!(error.message.contains("no structuredContent"), "{error:?}");
    }

    #[tokio::test]
    async fn is_error_becomes_a_tool_error_and_images_are_saved() {
        let dir = tempfile::tempdir().unwrap();
        let failed =
            result(json!({"content": [{"type": "text", "text": "disk full"}], "isError": true}));
        let error = model_result("s", &failed, None, &context(dir.path()))
            .await
            .unwrap_err();
        assert_eq!(error.kind, ErrorKind::Failed);
        assert!(error.message.ends_with("disk full"), "{error:?}");
        let image = result(
            json!({"content": [{"type": "image", "data": "iVBORw0=", "mimeType": "image/png"}]}),
        );
        let ctx = context(dir.path());
        let out = model_result("s", &image, None, &ctx).await.unwrap();
        let path = out["content"][0]["path"].as_str().unwrap();
        assert!(path.ends_with(".png"));
        assert_eq!(&std::fs::read(path).unwrap()[1..4], b"PNG");
        assert_eq!(
            ctx.images.take(),
            [hearth_protocol::ContentPart::Image {
                mime_type: "image/png".into(),
                data: "iVBORw0=".into(),
                name: Some(path.to_string()),
            }]
        );
        let odd = result(
            json!({"content": [{"type": "image", "data": "SUkqAA==", "mimeType": "image/tiff"}]}),
        );
        let out = model_result("s", &odd, None, &ctx).await.unwrap();
        assert!(out["content"][0]["note"]
            .as_str()
            .unwrap()
            .contains("image/png"));
        assert!(ctx.images.take().is_empty());
    }

    #[tokio::test]
    async fn audio_is_saved_and_attached_for_the_model() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = context(dir.path());
        let clip = result(
            json!({"content": [{"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}]}),
        );
        let out = model_result("s", &clip, None, &ctx).await.unwrap();
        let path = out["content"][0]["path"].as_str().unwrap();
        assert!(path.ends_with(".wav"), "{out}");
        assert_eq!(std::fs::read(path).unwrap(), b"RIFF");
        assert_eq!(
            ctx.images.take(),
            [hearth_protocol::ContentPart::Audio {
                mime_type: "audio/wav".into(),
                data: "UklGRg==".into(),
                name: Some(path.to_string()),
            }]
        );
        assert!(
            !out.to_string().contains("UklGRg=="),
            "no base64 in the text: {out}"
        );
    }
}
