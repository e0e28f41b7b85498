//! hearth-documents' integration tests, one binary (each former suite is a module; run one with
//! `cargo test -p hearth-documents --test integration formats`): every format from real files,
//! the worker process (this binary serves as the worker: `formats::isolation` holds the one
//! `worker_test_host!` a binary may have) and hostile PDFs.

mod formats;
mod hostile_pdf;
