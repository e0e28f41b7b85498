//! `hearth-cli models list|info|import|download|remove`: the GGUF models the `local` provider runs, in
//! the data dir's `models` folder.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::pipe::outln;
use clap::Subcommand;
use hearth_core::DataDir;
use hearth_local::LocalModels;
use hearth_protocol::{AppError, LocalModel};

#[derive(Debug, Subcommand)]
pub enum ModelsCommand {
    /// The models of the models folder: name, size, architecture, quantization, context.
    List {
        #[arg(long)]
        json: bool,
    },
    /// One model's facts from its GGUF metadata.
    Info {
        name: String,
        #[arg(long)]
        json: bool,
    },
    /// Put a .gguf file into the models folder (copied, or linked with --link) after checking
    /// that llama.cpp can read it.
    Import {
        file: PathBuf,
        /// Link to the file instead of copying it.
        #[arg(long)]
        link: bool,
    },
    /// Download a .gguf into the models folder from a URL or a Hugging Face repository
    /// (`owner/repo` with --file), through the network guard; checked against --sha256, or the
    /// SHA-256 Hugging Face sends. Ctrl-C deletes the partial file.
    Download {
        /// An http(s) URL, or a Hugging Face repository as owner/repo.
        source: String,
        /// The file of the repository (required with owner/repo).
        #[arg(long)]
        file: Option<String>,
        /// The file's expected SHA-256 (64 hexadecimal digits).
        #[arg(long)]
        sha256: Option<String>,
    },
    /// Delete a model from the models folder (a linked model's file stays where it is).
    Remove { name: String },
}

pub async fn run(command: ModelsCommand) -> anyhow::Result<ExitCode> {
    let models = LocalModels::with_installed_worker(DataDir::resolve()?.models());
    let catalog = models.catalog();
    match command {
        ModelsCommand::List { json } => {
            let listed = catalog.list().await;
            if json {
                outln!("{}", serde_json::to_string_pretty(&listed)?);
            } else if listed.is_empty() {
                outln!(
                    "no models in {} (import a .gguf file with `hearth-cli models import FILE`)",
                    catalog.folder().display()
                );
            }
            if !json {
                for model in &listed {
                    outln!("{}", line(model));
                }
            }
        }
        ModelsCommand::Info { name, json } => {
            let model = catalog.describe(&name).await.map_err(failed)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&model)?);
            } else {
                outln!("{}", line(&model));
                outln!(
                    "file\t{}",
                    catalog.folder().join(&model.file_name).display()
                );
            }
        }
        ModelsCommand::Import { file, link } => {
            let model = catalog.import(&file, link).await.map_err(failed)?;
            outln!("imported {}", line(&model));
        }
        ModelsCommand::Download {
            source,
            file,
            sha256,
        } => {
            let model = crate::models_download::download(
                &models,
                &source,
                file.as_deref(),
                sha256.as_deref(),
            )
            .await?;
            outln!("downloaded {}", line(&model));
        }
        ModelsCommand::Remove { name } => {
            catalog.remove(&name).map_err(failed)?;
            outln!("removed {name}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn failed(error: AppError) -> anyhow::Error {
    anyhow::anyhow!(error.to_string())
}

/// `name  size  architecture  quantization  context` (or the file's problem).
fn line(model: &LocalModel) -> String {
    let size = format!("{:.1} MB", model.size_bytes as f64 / 1_000_000.0);
    if let Some(problem) = &model.problem {
        return format!("{}\t{size}\tunusable: {problem}", model.name);
    }
    let unknown = || "?".to_string();
    format!(
        "{}\t{size}\t{}\t{}\t{}\tcontext {}{}",
        model.name,
        model.architecture.clone().unwrap_or_else(unknown),
        model.parameters.clone().unwrap_or_else(unknown),
        model.quantization.clone().unwrap_or_else(unknown),
        model.context_length.map_or_else(unknown, |n| n.to_string()),
        if model.builtin { "\t(built-in)" } else { "" },
    )
}
