//! Hearth's knowledge base: the user's knowledge folders indexed incrementally (a file is read
//! again only when its size, modification time and content hash say it changed), in the
//! background with progress, followed while Hearth runs (filesystem watching), cut into chunks
//! that know their file and page or line range, and searched by BM25 with citations; plus the
//! `knowledge_index` and `knowledge_search` tools over it.
//!
//! Local embeddings would plug in at [`chunks`] (embed each chunk when it is indexed, into a
//! table beside `knowledge_chunks`) and in [`Knowledge::search`] (merge vector neighbours with
//! the BM25 hits); nothing else would change.

pub mod chunks;
mod citation;
mod error;
mod index;
mod open;
mod scan;
mod tools;
mod watch;

pub use error::KnowledgeError;
pub use hearth_protocol::{
    Citation, FileError, FileProblem, IndexReport, KnowledgeStatus, Progress,
};
pub use index::{Knowledge, ProgressListener};
pub use open::{find_viewers, launch_at, Launch, Place, Viewer};
pub use scan::{is_indexable, INDEXABLE_EXTENSIONS};
pub use tools::register_knowledge;
