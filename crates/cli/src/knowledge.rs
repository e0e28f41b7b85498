//! `hearth-cli knowledge add|remove|status|rebuild|search`: the knowledge folders in
//! `config.toml`, the index the `knowledge_*` tools and the Knowledge page use, and searching
//! it with the citations the model gets.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use clap::Subcommand;
use hearth_engine::{knowledge_folders, save_settings, Knowledge};
use hearth_protocol::{IndexReport, KnowledgeStatus};
use serde_json::json;

use crate::pipe::outln;
use crate::setup::{open_home, Home};

#[derive(Debug, Subcommand)]
pub enum KnowledgeCommand {
    /// Add a folder to the knowledge base and index it.
    Add { folder: PathBuf },
    /// Take a folder out of the knowledge base (its files leave the index).
    Remove { folder: PathBuf },
    /// Folders, files, chunks, when last indexed, and the files that could not be read.
    Status {
        #[arg(long)]
        json: bool,
    },
    /// Index what changed in the folders since the last pass.
    Rebuild,
    /// Search the knowledge base: snippets with their citations.
    Search {
        query: String,
        #[arg(long, default_value_t = 5)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
}

/// The knowledge base over the home's store, on the configured folders.
fn knowledge(home: &Home) -> Knowledge {
    let knowledge = home.builder.knowledge().clone();
    knowledge.set_folders(knowledge_folders(&home.settings, &home.dir));
    knowledge
}

fn print_report(report: &IndexReport) {
    outln!(
        "indexed {} files, {} unchanged, {} removed, {} unreadable ({} bytes read in {} ms)",
        report.indexed,
        report.unchanged,
        report.removed,
        report.failed,
        report.bytes,
        report.millis
    );
}

fn print_status(status: &KnowledgeStatus) {
    for folder in &status.folders {
        outln!("folder {folder}");
    }
    let last = status
        .last_indexed
        .and_then(chrono::DateTime::from_timestamp_millis)
        .map_or("never".to_string(), |t| t.to_rfc3339());
    outln!(
        "{} files, {} chunks, {} unreadable; last indexed {last}",
        status.files,
        status.chunks,
        status.errors
    );
    for failure in &status.file_errors {
        outln!("  {}: {}", failure.path, failure.error);
    }
}

pub async fn run(command: KnowledgeCommand) -> anyhow::Result<ExitCode> {
    let mut home = open_home()?;
    match command {
        KnowledgeCommand::Add { folder } => {
            let folder = std::fs::canonicalize(&folder)
                .with_context(|| format!("cannot add {}", folder.display()))?;
            if !folder.is_dir() {
                return Err(anyhow!("{} is not a folder", folder.display()));
            }
            let mut folders: Vec<String> = knowledge_folders(&home.settings, &home.dir)
                .iter()
                .map(|f| f.display().to_string())
                .collect();
            let name = folder.display().to_string();
            if folders.contains(&name) {
                return Err(anyhow!("{name} is already a knowledge folder"));
            }
            folders.push(name.clone());
            home.settings.knowledge.folders = folders;
            save_settings(&home.dir.config(), &home.settings)?;
            outln!("added knowledge folder {name}");
            print_report(&knowledge(&home).index().await.map_err(|e| anyhow!(e))?);
        }
        KnowledgeCommand::Remove { folder } => {
            let current = knowledge_folders(&home.settings, &home.dir);
            let wanted = std::fs::canonicalize(&folder).unwrap_or(folder.clone());
            let Some(found) = current.iter().find(|f| **f == wanted || **f == folder) else {
                let listed: Vec<String> = current.iter().map(|f| f.display().to_string()).collect();
                return Err(anyhow!(
                    "{} is not a knowledge folder (folders: {})",
                    folder.display(),
                    listed.join(", ")
                ));
            };
            let found = found.clone();
            home.settings.knowledge.folders = current
                .iter()
                .filter(|f| **f != found)
                .map(|f| f.display().to_string())
                .collect();
            save_settings(&home.dir.config(), &home.settings)?;
            outln!("removed knowledge folder {}", found.display());
            // With none left the default folder comes back: index whatever is configured now.
            print_report(&knowledge(&home).index().await.map_err(|e| anyhow!(e))?);
        }
        KnowledgeCommand::Status { json } => {
            let status = knowledge(&home).status().await.map_err(|e| anyhow!(e))?;
            if json {
                outln!("{}", serde_json::to_value(&status)?);
            } else {
                print_status(&status);
            }
        }
        KnowledgeCommand::Rebuild => {
            print_report(&knowledge(&home).index().await.map_err(|e| anyhow!(e))?);
        }
        KnowledgeCommand::Search { query, limit, json } => {
            let results = knowledge(&home)
                .search(&query, limit)
                .await
                .map_err(|e| anyhow!(e))?;
            if json {
                outln!("{}", json!({"query": query, "results": results}));
            } else if results.is_empty() {
                outln!("nothing found for {query}");
            } else {
                for hit in &results {
                    outln!("[{}] {}", hit.citation, hit.snippet);
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
