//! Local GGUF models: the models folder, downloads, and the `local` provider's
//! [`ModelClient`](hearth_llm::ModelClient), whose worker process (`hearth-model-worker`, the only
//! executable that links llama.cpp) runs them.

mod catalog;
mod catalog_recommended;
mod client;
mod download;
mod gguf;
mod prompt;
mod tool_calls;
pub mod wire;

pub use catalog::{Catalog, BUILTIN_MODEL};
pub use client::LocalModels;
pub use download::{
    discard_partial, DownloadListener, DownloadSource, Downloaded, Downloader, Downloads, Progress,
    Signal,
};
pub use gguf::check_header;
pub use wire::{WORKER_ARG, WORKER_PROGRAM};
