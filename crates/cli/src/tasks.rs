//! `hearth-cli tasks list|show|cancel`: sub-agent runs (status, result, transcript), as text or
//! JSON. A run left running by a process that has ended is already `interrupted` here (the
//! start-up sweep of `open_home`).

use std::process::ExitCode;

use anyhow::{anyhow, bail};
use clap::Subcommand;
use hearth_protocol::{SubAgentRun, SubAgentStatus};

use crate::pipe::outln;
use crate::sessions::print_message;
use crate::setup::open_home;

/// How long `tasks cancel` waits for the run's process to store its end.
const CANCEL_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Runs `tasks list` shows at most.
const LISTED: usize = 200;

#[derive(Debug, Subcommand)]
pub enum TasksCommand {
    /// List sub-agent runs, newest first.
    List {
        /// Only the children of this session.
        #[arg(long)]
        session: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Show one run: its status, result and transcript.
    Show {
        id: String,
        #[arg(long)]
        json: bool,
    },
    /// Cancel a run that is still running.
    Cancel { id: String },
}

pub async fn run(command: TasksCommand) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    let store = &home.store;
    let find = |id: &str| -> anyhow::Result<SubAgentRun> {
        store
            .agent_run(id)?
            .ok_or_else(|| anyhow!("unknown task '{id}': list them with `hearth-cli tasks list`"))
    };
    match command {
        TasksCommand::List { session, json } => {
            let runs = store.agent_runs(session.as_deref(), LISTED)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&runs)?);
            } else if runs.is_empty() {
                outln!("no sub-agent runs yet");
            } else {
                for run in runs {
                    outln!(
                        "{}\t{}\t{}\t{}\t{}",
                        run.id,
                        run.status.as_str(),
                        run.mode.as_str(),
                        run.parent_session_id,
                        run.goal.lines().next().unwrap_or_default()
                    );
                }
            }
        }
        TasksCommand::Show { id, json } => {
            let run = find(&id)?;
            let transcript = store.list_messages(&run.session_id)?;
            if json {
                let value = serde_json::json!({ "task": run, "transcript": transcript });
                outln!("{}", serde_json::to_string_pretty(&value)?);
            } else {
                outln!("# {} ({})", run.goal, run.id);
                outln!(
                    "status: {}\nparent: {}\nsession: {}\nmodel: {}\ntools: {}\niterations: {}\ntokens: {} in, {} out",
                    run.status.as_str(),
                    run.parent_session_id,
                    run.session_id,
                    run.model,
                    run.tools.join(", "),
                    run.iterations,
                    run.usage.input_tokens,
                    run.usage.output_tokens
                );
                if let Some(error) = &run.error {
                    outln!("error: {error}");
                }
                outln!("\n## result\n{}", run.result);
                outln!("\n## transcript");
                for message in &transcript {
                    print_message(message);
                }
            }
        }
        TasksCommand::Cancel { id } => {
            let run = find(&id)?;
            if run.status != SubAgentStatus::Running {
                outln!("task {id} already ended: {}", run.status.as_str());
                return Ok(ExitCode::SUCCESS);
            }
            // The run belongs to another process (the app, another hearth-cli): ask it.
            store.request_agent_run_cancel(&id)?;
            let deadline = std::time::Instant::now() + CANCEL_WAIT;
            loop {
                let run = find(&id)?;
                if run.status != SubAgentStatus::Running {
                    outln!("task {id}: {}", run.status.as_str());
                    break;
                }
                if std::time::Instant::now() >= deadline {
                    bail!(
                        "task {id} was asked to stop but still runs after {} s; its process \
                         may be busy — check with `hearth-cli tasks show {id}`",
                        CANCEL_WAIT.as_secs()
                    );
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
