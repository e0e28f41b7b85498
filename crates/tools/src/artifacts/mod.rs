//! The artifact tools — `artifact_create`, `artifact_append`, `artifact_validate`,
//! `artifact_finalize` and `artifact_deliver` — building a long deliverable in numbered chunks
//! inside the session's own namespace under `<data dir>/artifacts/`. The model only ever holds
//! an opaque `artifact_id`; no tool takes a path, so they stay available under `public_gateway`.

mod append;
mod create;
mod deliver;
mod finalize;
mod stats;
mod validate;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hearth_protocol::{ArtifactSettings, ArtifactView};
use hearth_store::{Artifact, ArtifactState, Db, Store, StoreError};
use sha2::{Digest, Sha256};

use crate::channels::ChannelSink;
use crate::db;
use crate::dialect::Dialect;
use crate::error::{ErrorKind, ToolError};
use crate::registry::{Registry, RegistryError};

pub use stats::{measure, ArtifactStats, FormatCheck};

/// The largest artifact (all chunks together).
pub const MAX_ARTIFACT_BYTES: u64 = 10 * 1024 * 1024;
/// The largest chunk one `artifact_append` takes.
pub const MAX_CHUNK_BYTES: usize = 256 * 1024;

/// Where the artifacts of `session_id` live: one folder per session under
/// `<data dir>/artifacts/`, named after the session (characters a file name cannot hold
/// replaced) and a hash of it, so two sessions never share one.
pub fn session_folder(data_dir: &Path, session_id: &str) -> PathBuf {
    let safe: String = session_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    let hash = hex(&Sha256::digest(session_id.as_bytes()));
    data_dir
        .join("artifacts")
        .join(format!("{safe}-{}", &hash[..8]))
}

/// The file holding `artifact`'s bytes: `<file name>.part` while chunks are appended, the file
/// name itself once it is final.
pub fn artifact_file(data_dir: &Path, artifact: &Artifact) -> PathBuf {
    let folder = session_folder(data_dir, &artifact.session_id).join(&artifact.id);
    match artifact.state {
        ArtifactState::Open => folder.join(format!("{}.part", artifact.filename)),
        ArtifactState::Final => folder.join(&artifact.filename),
    }
}

/// `artifact` with its content and counts, for the desktop's side panel.
pub fn artifact_view(data_dir: &Path, artifact: &Artifact) -> std::io::Result<ArtifactView> {
    let bytes = std::fs::read(artifact_file(data_dir, artifact))?;
    let len = usize::try_from(artifact.bytes).unwrap_or(usize::MAX);
    let content = String::from_utf8_lossy(bytes.get(..len).unwrap_or(&bytes)).into_owned();
    let stats = measure(&artifact.filename, &content);
    Ok(ArtifactView {
        id: artifact.id.clone(),
        session_id: artifact.session_id.clone(),
        filename: artifact.filename.clone(),
        title: artifact.title.clone(),
        state: artifact.state.as_str().to_string(),
        bytes: artifact.bytes,
        format: stats.format.kind.to_string(),
        format_error: stats
            .format
            .error
            .map(|e| format!("line {}: {}", e.line, e.message)),
        characters: stats.characters,
        cjk_characters: stats.cjk_characters,
        english_words: stats.english_words,
        lines: stats.lines,
        paragraphs: stats.paragraphs,
        headings: stats.headings,
        content,
    })
}

/// Lower-case hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Registers the five artifact tools (hearth, echo) over `db`, delivering through `sink`.
pub fn register_artifacts(
    registry: &mut Registry,
    db: impl Into<Db>,
    sink: Arc<dyn ChannelSink>,
    settings: ArtifactSettings,
) -> Result<(), RegistryError> {
    use Dialect::{Echo, Hearth};
    let book = Book {
        db: db.into(),
        settings: Arc::new(settings),
    };
    registry.register_for(&[Hearth, Echo], create::Create(book.clone()))?;
    registry.register_for(&[Hearth, Echo], append::Append(book.clone()))?;
    registry.register_for(&[Hearth, Echo], validate::Validate(book.clone()))?;
    registry.register_for(&[Hearth, Echo], finalize::Finalize(book.clone()))?;
    registry.register_for(&[Hearth, Echo], deliver::Deliver { book, sink })?;
    Ok(())
}

/// What the artifact tools share: the ledger and the settings.
#[derive(Clone)]
struct Book {
    db: Db,
    settings: Arc<ArtifactSettings>,
}

impl Book {
    /// The artifact `id` of the current session; another session's artifact is as unknown as
    /// one that never existed.
    async fn of_session(&self, session_id: &str, id: &str) -> Result<Artifact, ToolError> {
        let (artifact, ()) = self.of_session_with(session_id, id, |_, _| Ok(())).await?;
        Ok(artifact)
    }

    /// [`Book::of_session`], and what `then` reads about it in the same trip to the store.
    async fn of_session_with<T, F>(
        &self,
        session_id: &str,
        id: &str,
        then: F,
    ) -> Result<(Artifact, T), ToolError>
    where
        F: FnOnce(&Store, &Artifact) -> Result<T, StoreError> + Send + 'static,
        T: Send + 'static,
    {
        let (key, session) = (id.trim().to_string(), session_id.to_string());
        let found = db::read(&self.db, move |s| match s.get_artifact(&key)? {
            Some(artifact) if artifact.session_id == session => {
                let read = then(s, &artifact)?;
                Ok(Some((artifact, read)))
            }
            _ => Ok(None),
        })
        .await?;
        found.ok_or_else(|| {
            ToolError::new(
                ErrorKind::NotFound,
                format!(
                    "no artifact `{}` in this session (an artifact belongs to the session that \
                     created it; create one with artifact_create)",
                    id.trim()
                ),
            )
        })
    }

    /// The artifact's whole content so far.
    async fn content(&self, data_dir: &Path, artifact: &Artifact) -> Result<String, ToolError> {
        let path = artifact_file(data_dir, artifact);
        let bytes = match tokio::fs::read(&path).await {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && artifact.bytes == 0 => Vec::new(),
            Err(e) => {
                return Err(ToolError::internal(format!(
                    "artifact {} cannot be read: {e}",
                    artifact.id
                )))
            }
        };
        let len = usize::try_from(artifact.bytes).unwrap_or(usize::MAX);
        String::from_utf8(bytes.get(..len).unwrap_or(&bytes).to_vec()).map_err(|_| {
            ToolError::internal(format!("artifact {} is not valid UTF-8", artifact.id))
        })
    }
}

/// The state every artifact result reports.
fn describe(artifact: &Artifact) -> serde_json::Value {
    serde_json::json!({
        "artifact_id": artifact.id,
        "filename": artifact.filename,
        "title": artifact.title,
        "state": artifact.state.as_str(),
        "bytes": artifact.bytes,
        "chunks": artifact.chunks,
        "next_sequence": artifact.chunks,
    })
}

/// The refusal of a change to a finalized artifact.
fn finalized(artifact: &Artifact) -> ToolError {
    ToolError::invalid(
        "artifact_id",
        format!(
            "artifact {} is finalized ({} chunks, {} bytes): nothing can be appended after \
             artifact_finalize; create a new artifact for a new version",
            artifact.id, artifact.chunks, artifact.bytes
        ),
    )
}

#[cfg(test)]
mod tests;
