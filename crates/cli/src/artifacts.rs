//! `hearth-cli artifacts list|export`: the deliverables models built with the `artifact_*`
//! tools, per session, and a copy of one written where the user says.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use clap::Subcommand;
use hearth_store::{Artifact, ArtifactState};
use hearth_tools::artifacts::artifact_file;
use serde_json::json;

use crate::pipe::outln;
use crate::setup::open_home;

#[derive(Debug, Subcommand)]
pub enum ArtifactsCommand {
    /// Artifacts, newest first: id, state, size, file name, session.
    List {
        /// Only this session's (e.g. `desktop:<uuid>`).
        #[arg(long)]
        session: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Write an artifact's content to FILE.
    Export { id: String, file: PathBuf },
}

fn artifact_json(artifact: &Artifact) -> serde_json::Value {
    json!({
        "id": artifact.id,
        "session_id": artifact.session_id,
        "filename": artifact.filename,
        "title": artifact.title,
        "state": artifact.state.as_str(),
        "bytes": artifact.bytes,
        "chunks": artifact.chunks,
        "created_at": artifact.created_at,
        "finalized_at": artifact.finalized_at,
    })
}

pub fn run(command: ArtifactsCommand) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    match command {
        ArtifactsCommand::List { session, json } => {
            let artifacts = home.store.list_artifacts(session.as_deref())?;
            if json {
                let rows: Vec<_> = artifacts.iter().map(artifact_json).collect();
                outln!("{}", serde_json::Value::Array(rows));
            } else if artifacts.is_empty() {
                outln!("no artifacts");
            } else {
                for a in &artifacts {
                    outln!(
                        "{}  {:<5}  {:>9} B  {}  ({})",
                        a.id,
                        a.state.as_str(),
                        a.bytes,
                        a.filename,
                        a.session_id
                    );
                }
            }
        }
        ArtifactsCommand::Export { id, file } => {
            let artifact = home
                .store
                .get_artifact(id.trim())?
                .ok_or_else(|| anyhow!("no artifact {id}; see `hearth-cli artifacts list`"))?;
            let source = artifact_file(home.dir.root(), &artifact);
            let bytes = std::fs::read(&source)
                .with_context(|| format!("cannot read artifact {}", artifact.id))?;
            let len = usize::try_from(artifact.bytes).unwrap_or(usize::MAX);
            std::fs::write(&file, bytes.get(..len).unwrap_or(&bytes))
                .with_context(|| format!("cannot write {}", file.display()))?;
            if artifact.state == ArtifactState::Open {
                eprintln!(
                    "hearth-cli: artifact {} is not finalized yet ({} chunks so far)",
                    artifact.id, artifact.chunks
                );
            }
            outln!("wrote {} bytes to {}", artifact.bytes, file.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
