//! Job commands for the Jobs page: list, create, edit, enable, delete, run now, history, the live
//! preview of a schedule's next runs, (re-)approval after the user confirmed what it binds, and
//! revoking an approval.

use hearth_ipc_macros::command;
use hearth_protocol::AppError;
use hearth_scheduler::{
    AuthorizationGrant, JobEdit, JobError, JobFilter, JobSpec, JobView, Preview, RunView, Schedule,
};
use serde::Deserialize;
use tauri::{AppHandle, State};
use ts_rs::TS;

use crate::state::{AppState, CommandResult};
use crate::tray;

/// Runs a history shows at most.
const MAX_HISTORY: usize = 100;

/// A job as the Jobs page's form describes it.
#[derive(Debug, Deserialize, TS)]
pub struct JobForm {
    pub name: String,
    /// Cron, a phrase ("every weekday at 9:30", "每天早上8点") or schedule JSON.
    pub schedule: String,
    /// IANA zone; empty or absent means the system's.
    pub tz: Option<String>,
    pub prompt: String,
    /// `desktop:<session id>` or absent.
    pub target: Option<String>,
    pub model: Option<String>,
    pub notify: bool,
    /// The skill whose runs the job's are (the Skills page's "Schedule…"); absent for others.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub skill: Option<String>,
}

fn blank_to_none(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.trim().is_empty())
}

/// Refreshes the tray's next-run line and the page after a change.
fn changed(app: &AppHandle, result: Result<JobView, JobError>) -> CommandResult<JobView> {
    let view = result.map_err(AppError::from)?;
    tray::jobs_changed(app);
    Ok(view)
}

#[command]
pub async fn list_jobs(state: State<'_, AppState>) -> CommandResult<Vec<JobView>> {
    Ok(state.jobs.read(|jobs| jobs.list(JobFilter::All)).await?)
}

#[command]
pub async fn create_job(
    app: AppHandle,
    state: State<'_, AppState>,
    form: JobForm,
) -> CommandResult<JobView> {
    let spec = JobSpec {
        name: form.name,
        schedule: Schedule::parse(&form.schedule).map_err(AppError::from)?,
        tz: blank_to_none(form.tz),
        prompt: form.prompt,
        target: blank_to_none(form.target),
        model: blank_to_none(form.model),
        enabled: true,
        notify: form.notify,
        skill: blank_to_none(form.skill),
    };
    changed(&app, state.jobs.write(|jobs| jobs.create(spec)).await)
}

#[command]
pub async fn update_job(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
    form: JobForm,
) -> CommandResult<JobView> {
    let edit = JobEdit {
        name: Some(form.name),
        schedule: Some(Schedule::parse(&form.schedule).map_err(AppError::from)?),
        tz: blank_to_none(form.tz),
        prompt: Some(form.prompt),
        target: Some(blank_to_none(form.target)),
        model: Some(blank_to_none(form.model)),
        notify: Some(form.notify),
    };
    changed(
        &app,
        state.jobs.write(move |jobs| jobs.edit(&id, edit)).await,
    )
}

#[command]
pub async fn set_job_enabled(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
    enabled: bool,
) -> CommandResult<JobView> {
    let changes = state.jobs.write(move |jobs| jobs.set_enabled(&id, enabled));
    changed(&app, changes.await)
}

#[command]
pub async fn delete_job(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
) -> CommandResult<()> {
    changed(&app, state.jobs.write(move |jobs| jobs.delete(&id)).await).map(|_| ())
}

#[command]
pub async fn run_job_now(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
) -> CommandResult<JobView> {
    changed(&app, state.jobs.write(move |jobs| jobs.trigger(&id)).await)
}

#[command]
pub async fn job_history(
    state: State<'_, AppState>,
    id: String,
    limit: usize,
) -> CommandResult<Vec<RunView>> {
    let limit = limit.min(MAX_HISTORY);
    Ok(state
        .jobs
        .read(move |jobs| jobs.history(&id, limit))
        .await?)
}

#[command]
pub fn preview_schedule(
    state: State<'_, AppState>,
    schedule: String,
    tz: Option<String>,
) -> CommandResult<Preview> {
    let schedule = Schedule::parse(&schedule).map_err(AppError::from)?;
    let tz = blank_to_none(tz);
    state
        .jobs
        .preview(&schedule, tz.as_deref())
        .map_err(AppError::from)
}

/// The high-risk tools an approval covers: those approved before, else every authorizable one.
async fn approval_scope(state: &AppState, id: &str) -> CommandResult<Vec<String>> {
    let key = id.to_string();
    let job = state.jobs.read(move |jobs| jobs.find(&key)).await?;
    Ok(job
        .authorization
        .map(|auth| auth.tools)
        .filter(|tools| !tools.is_empty())
        .unwrap_or_else(hearth_tools::authorizable_tools))
}

/// What approving the job would bind (instruction, frequency, target, tools), for the
/// confirmation dialog; records nothing.
#[command]
pub async fn job_approval_request(
    state: State<'_, AppState>,
    id: String,
) -> CommandResult<AuthorizationGrant> {
    let tools = approval_scope(&state, &id).await?;
    Ok(state
        .jobs
        .read(move |jobs| jobs.authorization_request(&id, &tools))
        .await?)
}

/// Records the approval; called only from the confirmation dialog's "Approve" button, with
/// the MCP servers whose tools the job may use (`mcp__<server>__*`, replacing those named
/// before).
#[command]
pub async fn approve_job(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
    mcp_servers: Vec<String>,
) -> CommandResult<JobView> {
    let mut tools: Vec<String> = approval_scope(&state, &id)
        .await?
        .into_iter()
        .filter(|tool| !(tool.starts_with("mcp__") && tool.ends_with("__*")))
        .collect();
    for server in &mcp_servers {
        if !hearth_mcp::valid_server_name(server) {
            return Err(AppError::UnknownMcpServer {
                name: server.clone(),
            });
        }
        tools.push(hearth_policy::mcp_server_scope(server));
    }
    let grant = state
        .jobs
        .write(move |jobs| jobs.authorize(&id, &tools))
        .await?;
    tracing::info!(job = %grant.job.id, tools = ?grant.tools, "job approved from the Jobs page");
    tray::jobs_changed(&app);
    Ok(grant.job)
}

/// Withdraws the job's approval: its runs use no high-risk tool until it is approved again.
#[command]
pub async fn revoke_job_approval(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
) -> CommandResult<JobView> {
    let view = changed(&app, state.jobs.write(move |jobs| jobs.revoke(&id)).await)?;
    tracing::info!(job = %view.id, "job approval revoked from the Jobs page");
    Ok(view)
}
