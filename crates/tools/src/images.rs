//! Images a tool attaches to its result: collected per call on the [`ToolContext`], stored with
//! the tool message and sent to the model as image parts, never as base64 in the result text.

use crate::error::{ErrorKind, ToolError};
use crate::tool::ToolContext;
use base64::Engine as _;
use hearth_protocol::ContentPart;
use std::sync::{Arc, Mutex};

/// The image types every provider accepts in a request.
pub const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// The largest image attached to a result (Anthropic refuses images over 5 MB).
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

/// Where one call's attached images collect; a fresh one per call (see
/// [`ToolContext::for_call`]), so calls running side by side never mix theirs.
#[derive(Debug, Clone, Default)]
pub struct ImageSink(Arc<Mutex<Vec<ContentPart>>>);

impl ImageSink {
    /// The images attached so far, leaving the sink empty.
    pub fn take(&self) -> Vec<ContentPart> {
        self.0
            .lock()
            .map(|mut images| std::mem::take(&mut *images))
            .unwrap_or_default()
    }
}

impl ToolContext {
    /// Attaches an image to this call's result. `path` is where the tool saved it, which its
    /// result text should also say (the model reads the path; the image goes as an image part).
    /// Refused when the type is not one providers take or the image is over
    /// [`MAX_IMAGE_BYTES`].
    pub fn attach_image(&self, mime_type: &str, bytes: &[u8], path: &str) -> Result<(), ToolError> {
        if !IMAGE_TYPES.contains(&mime_type) {
            return Err(ToolError::new(
                ErrorKind::Failed,
                format!(
                    "{path} is {mime_type}; only {} images can be shown to the model",
                    IMAGE_TYPES.join(", ")
                ),
            ));
        }
        if bytes.len() > MAX_IMAGE_BYTES {
            return Err(ToolError::new(
                ErrorKind::TooLarge,
                format!(
                    "{path} is {} bytes; images over {MAX_IMAGE_BYTES} bytes are not shown to the model",
                    bytes.len()
                ),
            ));
        }
        let part = ContentPart::Image {
            mime_type: mime_type.to_string(),
            data: base64::engine::general_purpose::STANDARD.encode(bytes),
            name: Some(path.to_string()),
        };
        if let Ok(mut images) = self.images.0.lock() {
            images.push(part);
        }
        Ok(())
    }

    /// This context for one call, with its own empty image sink.
    pub fn for_call(&self) -> ToolContext {
        ToolContext {
            images: ImageSink::default(),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> ToolContext {
        ToolContext {
            workspace: ".".into(),
            data_dir: ".".into(),
            session_id: "s".into(),
            cancel: Default::default(),
            images: ImageSink::default(),
            conversation: None,
        }
    }

    #[test]
    fn attached_images_stay_with_their_call() {
        let ctx = context();
        let call = ctx.for_call();
        call.attach_image("image/png", b"\x89PNG", "/tmp/a.png")
            .unwrap();
        assert!(ctx.images.take().is_empty());
        let images = call.images.take();
        assert_eq!(
            images,
            vec![ContentPart::Image {
                mime_type: "image/png".into(),
                data: "iVBORw==".into(),
                name: Some("/tmp/a.png".into()),
            }]
        );
        assert!(call.images.take().is_empty());
    }

    #[test]
    fn odd_types_and_oversized_images_are_refused() {
        let ctx = context();
        let error = ctx
            .attach_image("image/tiff", b"II*", "a.tiff")
            .unwrap_err();
        assert!(error.message.contains("image/png"), "{error:?}");
        let big = vec![0u8; MAX_IMAGE_BYTES + 1];
        let error = ctx.attach_image("image/png", &big, "big.png").unwrap_err();
        assert_eq!(error.kind, ErrorKind::TooLarge);
        assert!(ctx.images.take().is_empty());
    }
}
