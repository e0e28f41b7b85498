//! Local GGUF models run by llama.cpp in a worker process (its own executable, `hearth-model-worker`): the models folder, the worker, and the `local` provider's [`ModelClient`](hearth_llm::ModelClient).

mod catalog;
mod catalog_recommended;
mod client;
mod download;
mod gguf;
mod prompt;
mod tool_calls;
mod wire;
mod worker;

pub use catalog::{Catalog, BUILTIN_MODEL};
pub use client::LocalModels;
pub use download::{
    discard_partial, DownloadListener, DownloadSource, Downloaded, Downloader, Downloads, Progress,
    Signal,
};
pub use gguf::check_header;
pub use worker::{serve_worker_if_asked, WORKER_ARG, WORKER_PROGRAM};
