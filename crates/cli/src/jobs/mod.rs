//! `hearth-cli jobs list|add|edit|enable|disable|run|history|authorize|revoke`: scheduled jobs
//! over the shared job service (the same one the job tools and the desktop use).

mod authorize;
mod run_now;
mod show;

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::anyhow;
use clap::{Args, Subcommand};
use hearth_scheduler::{
    system_zone, JobEdit, JobFilter, JobService, JobSpec, Schedule, SystemClock,
};
use hearth_tools::NOT_RUNNING;

use crate::setup::{open_home, Home};
use crate::GlobalArgs;

#[derive(Debug, Subcommand)]
pub enum JobsCommand {
    /// List jobs with their next run (RFC 3339 with the UTC offset) and authorization state.
    List {
        /// all, enabled or disabled.
        #[arg(long, default_value = "all")]
        status: String,
        #[arg(long)]
        json: bool,
    },
    /// Create a job.
    Add {
        #[command(flatten)]
        fields: AddFields,
        #[arg(long)]
        json: bool,
    },
    /// Change a job (a changed instruction, schedule, time zone or target voids its
    /// authorization: it then needs re-approval).
    Edit {
        /// The job's id or name.
        job: String,
        #[command(flatten)]
        fields: EditFields,
        #[arg(long)]
        json: bool,
    },
    /// Enable a job (its next run is computed from now; at most 20 enabled).
    Enable {
        job: String,
        #[arg(long)]
        json: bool,
    },
    /// Disable a job.
    Disable {
        job: String,
        #[arg(long)]
        json: bool,
    },
    /// Run a job now and print its result. With a scheduler running (the app or
    /// `hearth-cli daemon`) the run is queued there; otherwise it runs in this process.
    Run {
        job: String,
        /// Queue the run and return without waiting for it (needs a running scheduler).
        #[arg(long)]
        no_wait: bool,
        /// Seconds to wait for the run to finish.
        #[arg(long, default_value_t = 900)]
        timeout: u64,
        #[arg(long)]
        json: bool,
    },
    /// Let a job's unattended runs use the high-risk tools. Asks on the terminal, showing what
    /// the approval binds (instruction, frequency, target, tools); any later change to those
    /// voids it.
    Authorize {
        job: String,
        /// Also let its runs call every tool of this MCP server (repeatable).
        #[arg(long = "mcp-server", value_name = "NAME")]
        mcp_servers: Vec<String>,
        /// Authorize without asking (needed when there is no terminal).
        #[arg(long)]
        yes: bool,
        #[arg(long)]
        json: bool,
    },
    /// Withdraw a job's authorization: its runs use no high-risk tool until authorized again.
    Revoke {
        job: String,
        #[arg(long)]
        json: bool,
    },
    /// A job's recent runs, newest first: status, catch-up, output excerpt.
    History {
        job: String,
        #[arg(long, default_value_t = 20)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
}

/// A new job.
#[derive(Debug, Args)]
pub struct AddFields {
    /// Unique name.
    #[arg(long)]
    name: String,
    /// Cron ("0 8 * * *", 6 fields with seconds), a phrase ("every morning at 8:00", "every 6
    /// hours", "每天早上8点") or JSON ({"type":"every","every_ms":3600000}, {"type":"at",...}).
    #[arg(long)]
    schedule: String,
    /// What each run does, self-contained (runs start without chat history).
    #[arg(long)]
    instruction: String,
    /// The session results are delivered to (e.g. desktop:<uuid>; see `hearth-cli sessions list`).
    #[arg(long)]
    target: Option<String>,
    /// IANA time zone (default: the schedule's own, else the system's).
    #[arg(long)]
    tz: Option<String>,
    /// The model runs use: `<provider id>:<model>` or a model of the default provider.
    #[arg(long)]
    job_model: Option<String>,
    /// Notify when a run finishes (failures are always notified).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    notify: bool,
    /// Create the job disabled.
    #[arg(long)]
    disabled: bool,
}

/// Fields to change; those not given stay.
#[derive(Debug, Args)]
pub struct EditFields {
    #[arg(long)]
    name: Option<String>,
    #[arg(long)]
    schedule: Option<String>,
    #[arg(long)]
    instruction: Option<String>,
    #[arg(long, conflicts_with = "no_target")]
    target: Option<String>,
    /// Deliver nowhere but the run's own session.
    #[arg(long)]
    no_target: bool,
    #[arg(long)]
    tz: Option<String>,
    #[arg(long, conflicts_with = "default_model")]
    job_model: Option<String>,
    /// Use the settings' default model again.
    #[arg(long)]
    default_model: bool,
    #[arg(long, action = clap::ArgAction::Set)]
    notify: Option<bool>,
}

fn service(home: &Home) -> JobService {
    JobService::new(home.store.clone(), Arc::new(SystemClock), system_zone())
}

fn filter(status: &str) -> anyhow::Result<JobFilter> {
    match status {
        "all" => Ok(JobFilter::All),
        "enabled" => Ok(JobFilter::Enabled),
        "disabled" => Ok(JobFilter::Disabled),
        other => Err(anyhow!("--status {other}: use all, enabled or disabled")),
    }
}

fn schedule(text: &str) -> anyhow::Result<Schedule> {
    Schedule::parse(text).map_err(|e| anyhow!("--schedule {text:?}: {e}"))
}

/// A target must name a stored session.
fn checked_target(home: &Home, target: &str) -> anyhow::Result<String> {
    let target = target.trim();
    match home.store.get_session(target)? {
        Some(_) => Ok(target.to_string()),
        None => Err(anyhow!(
            "--target {target}: no such session; pick one from `hearth-cli sessions list`"
        )),
    }
}

pub async fn run(command: JobsCommand, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let home = open_home()?;
    let jobs = service(&home);
    match command {
        JobsCommand::List { status, json } => {
            let views = jobs.blocking().list(filter(&status)?)?;
            let scheduler = jobs.blocking().scheduler_status()?;
            show::job_list(&views, &scheduler, json)?;
        }
        JobsCommand::Add { fields, json } => {
            let target = fields
                .target
                .as_deref()
                .map(|t| checked_target(&home, t))
                .transpose()?;
            let view = jobs.blocking().create(JobSpec {
                name: fields.name,
                schedule: schedule(&fields.schedule)?,
                tz: fields.tz,
                prompt: fields.instruction,
                target,
                model: fields.job_model,
                enabled: !fields.disabled,
                notify: fields.notify,
                skill: None,
            })?;
            show::job(&view, json)?;
            if !jobs.blocking().scheduler_status()?.alive && view.enabled {
                eprintln!("note: {NOT_RUNNING}");
            }
        }
        JobsCommand::Edit { job, fields, json } => {
            let edit = edit(&home, fields)?;
            show::job(&jobs.blocking().edit(&job, edit)?, json)?;
        }
        JobsCommand::Enable { job, json } => {
            show::job(&jobs.blocking().set_enabled(&job, true)?, json)?
        }
        JobsCommand::Disable { job, json } => {
            show::job(&jobs.blocking().set_enabled(&job, false)?, json)?
        }
        JobsCommand::Run {
            job,
            no_wait,
            timeout,
            json,
        } => {
            let options = run_now::RunOptions {
                wait: !no_wait,
                timeout: std::time::Duration::from_secs(timeout),
                json,
            };
            return run_now::run(&home, global, &jobs, &job, options).await;
        }
        JobsCommand::Authorize {
            job,
            mcp_servers,
            yes,
            json,
        } => authorize::authorize(&jobs, &job, &mcp_servers, yes, json)?,
        JobsCommand::Revoke { job, json } => authorize::revoke(&jobs, &job, json)?,
        JobsCommand::History { job, limit, json } => {
            if limit == 0 || limit > 1000 {
                return Err(anyhow!("--limit {limit}: use 1 to 1000"));
            }
            show::history(&jobs.blocking().history(&job, limit)?, json)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn edit(home: &Home, fields: EditFields) -> anyhow::Result<JobEdit> {
    let target = match (&fields.target, fields.no_target) {
        (Some(t), _) => Some(Some(checked_target(home, t)?)),
        (None, true) => Some(None),
        (None, false) => None,
    };
    let model = match (fields.job_model, fields.default_model) {
        (Some(m), _) => Some(Some(m)),
        (None, true) => Some(None),
        (None, false) => None,
    };
    let edit = JobEdit {
        name: fields.name,
        schedule: fields.schedule.as_deref().map(schedule).transpose()?,
        tz: fields.tz,
        prompt: fields.instruction,
        target,
        model,
        notify: fields.notify,
    };
    if edit == JobEdit::default() {
        return Err(anyhow!(
            "nothing to change: pass --name, --schedule, --instruction, --target/--no-target, \
             --tz, --job-model/--default-model or --notify"
        ));
    }
    Ok(edit)
}
