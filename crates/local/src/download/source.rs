//! Where a model is downloaded from: a URL, or a Hugging Face repository and file; the name it
//! gets in the models folder, and the SHA-256 a source vouches for.

use hearth_protocol::AppError;
use reqwest::header::HeaderMap;

/// A model to download.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DownloadSource {
    /// An http(s) URL of a `.gguf` file.
    Url(String),
    /// A file of a Hugging Face repository (`owner/repo`), from its `main` branch.
    HuggingFace { repo: String, file: String },
}

impl DownloadSource {
    /// `source` as a user writes it: a URL, or `owner/repo` and then `file` is required.
    pub fn parse(source: &str, file: Option<&str>) -> Result<Self, AppError> {
        let source = source.trim();
        let refused = |detail: &str| AppError::DownloadRefused {
            url: source.to_string(),
            detail: detail.to_string(),
        };
        if source.starts_with("http://") || source.starts_with("https://") {
            return Ok(Self::Url(source.to_string()));
        }
        let parts: Vec<&str> = source.split('/').collect();
        let plain = |part: &str| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        };
        if parts.len() != 2 || !parts.iter().all(|p| plain(p)) {
            return Err(refused(
                "give an http(s) URL or a Hugging Face repository as owner/repo",
            ));
        }
        let Some(file) = file.map(str::trim).filter(|f| !f.is_empty()) else {
            return Err(refused(
                "a Hugging Face repository needs the file to download (--file NAME.gguf)",
            ));
        };
        Ok(Self::HuggingFace {
            repo: source.to_string(),
            file: file.to_string(),
        })
    }

    /// The URL to request.
    pub fn url(&self) -> String {
        match self {
            Self::Url(url) => url.clone(),
            Self::HuggingFace { repo, file } => {
                format!("https://huggingface.co/{repo}/resolve/main/{file}")
            }
        }
    }

    /// The file name in the models folder: the URL's (or repository file's) last path part,
    /// ending in `.gguf`; `None` when it is not a plain name.
    pub(crate) fn file_name(&self) -> Option<String> {
        let path = match self {
            Self::Url(url) => url.split(['?', '#']).next().unwrap_or(url).to_string(),
            Self::HuggingFace { file, .. } => file.clone(),
        };
        let last = path.rsplit('/').next().unwrap_or_default();
        let plain = !last.is_empty()
            && !last.starts_with('.')
            && last
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !plain {
            return None;
        }
        Some(if last.ends_with(".gguf") {
            last.to_string()
        } else {
            format!("{last}.gguf")
        })
    }
}

/// `text` as a lower-case SHA-256 when it is one (64 hex digits, quotes and `W/` ignored).
pub(crate) fn as_sha256(text: &str) -> Option<String> {
    let text = text.trim().trim_start_matches("W/").trim_matches('"');
    (text.len() == 64 && text.chars().all(|c| c.is_ascii_hexdigit()))
        .then(|| text.to_ascii_lowercase())
}

/// The SHA-256 a response vouches for: Hugging Face's `x-linked-etag` (LFS files), else an
/// `ETag` that is one.
pub(crate) fn sha256_of(headers: &HeaderMap) -> Option<String> {
    ["x-linked-etag", "etag"].into_iter().find_map(|name| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .and_then(as_sha256)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse_into_urls_and_names() {
        let hf = DownloadSource::parse("Qwen/Qwen3-0.6B-GGUF", Some("Qwen3-0.6B-Q8_0.gguf"));
        let hf = hf.ok().filter(|s| {
            s.url() == "https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf"
        });
        assert_eq!(
            hf.and_then(|s| s.file_name()).as_deref(),
            Some("Qwen3-0.6B-Q8_0.gguf")
        );
        let url = DownloadSource::Url("http://h/x/model.bin?download=1".into());
        assert_eq!(url.file_name().as_deref(), Some("model.bin.gguf"));
        assert_eq!(
            DownloadSource::Url("http://h/x/..".into()).file_name(),
            None
        );
        assert!(DownloadSource::parse("Qwen/Qwen3", None).is_err());
        assert!(DownloadSource::parse("not a source", Some("f.gguf")).is_err());
    }

    #[test]
    fn only_a_sha256_counts() {
        let sha = "A".repeat(64);
        assert_eq!(as_sha256(&format!("\"{sha}\"")), Some("a".repeat(64)));
        assert_eq!(as_sha256("\"abc-123\""), None);
    }
}
