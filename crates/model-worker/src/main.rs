//! The local-model worker's executable: runs one GGUF model with llama.cpp for Hearth and hearth-cli.

fn main() -> std::process::ExitCode {
    hearth_model_worker::serve_worker_if_asked();
    #[allow(clippy::print_stderr)]
    {
        eprintln!(
            "hearth-model-worker runs local models for Hearth and hearth-cli, which start it; \
             it is not run by hand"
        );
    }
    std::process::ExitCode::from(2)
}
