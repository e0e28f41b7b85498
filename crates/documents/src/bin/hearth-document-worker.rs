//! The document worker's executable: parses the one file Hearth sends it on stdin and exits.

fn main() -> std::process::ExitCode {
    hearth_documents::serve_worker_if_asked();
    #[allow(clippy::print_stderr)]
    {
        eprintln!(
            "hearth-document-worker parses documents for Hearth and hearth-cli, which start it; \
             it is not run by hand"
        );
    }
    std::process::ExitCode::from(2)
}
