//! Images (and audio clips) a tool attaches to its result: collected per call on the
//! [`ToolContext`], stored with the tool message and sent to the model as image (audio) parts
//! where it takes them, never as base64 in the result text.

use crate::error::{ErrorKind, ToolError};
use crate::tool::ToolContext;
use base64::Engine as _;
use hearth_protocol::ContentPart;
use std::sync::{Arc, Mutex};

/// The image types every provider accepts in a request.
pub const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// The media type of the image file `name` (by its extension) when it is one of
/// [`IMAGE_TYPES`], else `None`. The list is closed on purpose: a file taken as a picture (an
/// attachment, a picture sent to a chat, an image the chat shows) can end up in a request, and a
/// model refuses any other image type, so other images are treated as plain files.
pub fn image_type(name: &str) -> Option<&'static str> {
    mime_guess::from_path(name)
        .iter_raw()
        .find(|mime| IMAGE_TYPES.contains(mime))
}

/// The largest image attached to a result (Anthropic refuses images over 5 MB).
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

/// The largest audio clip attached to a result (larger ones are named by path only).
pub const MAX_AUDIO_BYTES: usize = 10 * 1024 * 1024;

/// Where one call's attached images and audio clips collect; a fresh one per call (see
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
        within(path, bytes, MAX_IMAGE_BYTES, "images")?;
        self.attach(ContentPart::Image {
            mime_type: mime_type.to_string(),
            data: base64::engine::general_purpose::STANDARD.encode(bytes),
            name: Some(path.to_string()),
        });
        Ok(())
    }

    /// Attaches an audio clip (any `audio/*` type; each provider sends the ones it takes) to this
    /// call's result; `path` is where the tool saved it, which its result text also says.
    /// Refused over [`MAX_AUDIO_BYTES`].
    pub fn attach_audio(&self, mime_type: &str, bytes: &[u8], path: &str) -> Result<(), ToolError> {
        if !mime_type.starts_with("audio/") {
            return Err(ToolError::new(
                ErrorKind::Failed,
                format!("{path} is {mime_type}, not audio"),
            ));
        }
        within(path, bytes, MAX_AUDIO_BYTES, "audio clips")?;
        self.attach(ContentPart::Audio {
            mime_type: mime_type.to_string(),
            data: base64::engine::general_purpose::STANDARD.encode(bytes),
            name: Some(path.to_string()),
        });
        Ok(())
    }

    fn attach(&self, part: ContentPart) {
        if let Ok(mut attached) = self.images.0.lock() {
            attached.push(part);
        }
    }

    /// This context for one call, with its own empty image sink.
    pub fn for_call(&self) -> ToolContext {
        ToolContext {
            images: ImageSink::default(),
            ..self.clone()
        }
    }
}

/// Refuses `bytes` (saved at `path`) over `limit`: `what` (images, audio clips) over it are not
/// sent to the model.
fn within(path: &str, bytes: &[u8], limit: usize, what: &str) -> Result<(), ToolError> {
    if bytes.len() > limit {
        return Err(ToolError::new(
            ErrorKind::TooLarge,
            format!(
                "{path} is {} bytes; {what} over {limit} bytes are not sent to the model",
                bytes.len()
            ),
        ));
    }
    Ok(())
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
            sandbox: Default::default(),
        }
    }

    #[test]
    fn only_the_image_types_models_take_are_pictures() {
        assert_eq!(image_type("a.png"), Some("image/png"));
        assert_eq!(image_type("dir/Photo.JPG"), Some("image/jpeg"));
        assert_eq!(image_type("b.jpeg"), Some("image/jpeg"));
        assert_eq!(image_type("c.gif"), Some("image/gif"));
        assert_eq!(image_type("d.webp"), Some("image/webp"));
        for name in ["e.svg", "f.bmp", "g.tiff", "h.heic", "i.pdf", "png", "j"] {
            assert_eq!(image_type(name), None, "{name}");
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

    #[test]
    fn audio_is_attached_beside_images_and_odd_or_oversized_clips_are_refused() {
        let ctx = context();
        ctx.attach_audio("audio/mpeg", b"ID3", "a.mp3").unwrap();
        assert!(matches!(
            &ctx.images.take()[..],
            [ContentPart::Audio { mime_type, data, name }]
                if mime_type == "audio/mpeg" && data == "SUQz" && name.as_deref() == Some("a.mp3")
        ));
        let not_audio = ctx.attach_audio("video/mp4", b"x", "v.mp4").unwrap_err();
        assert_eq!(not_audio.kind, ErrorKind::Failed);
        let big = vec![0u8; MAX_AUDIO_BYTES + 1];
        let error = ctx.attach_audio("audio/wav", &big, "big.wav").unwrap_err();
        assert_eq!(error.kind, ErrorKind::TooLarge);
        assert!(error.message.contains("audio clips over"), "{error:?}");
        assert!(ctx.images.take().is_empty());
    }
}
