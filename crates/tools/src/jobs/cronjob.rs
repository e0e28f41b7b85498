//! `cronjob` (Hearth and Echo): create, list, delete, trigger, authorize and revoke scheduled
//! jobs. `list` only reads; the others ask first. `authorize` records the user's approval of the
//! job as it is now: it is asked every time, showing the instruction, frequency and delivery
//! target it binds, and returns them.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_scheduler::{JobFilter, JobSpec, Schedule};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{
    authorizable_tools, required, saved_status, scheduler, target, view_json, Fields, Jobs,
};
use crate::error::ToolError;
use crate::tool::{CallFacts, Tool, ToolContext};

/// The canonical job tool.
pub struct Cronjob(pub(super) Jobs);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CronjobAction {
    Create,
    List,
    Delete,
    Trigger,
    Authorize,
    Revoke,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CronjobArgs {
    /// `create` (name, schedule, command; target_channel + target_chat_id, default: this
    /// chat), `list`, `delete`, `trigger` (run now), `authorize` (approve the job's high-risk
    /// tools for its unattended runs; asks the user), `revoke` (withdraw that approval).
    pub action: CronjobAction,
    /// The job's unique name, for `create`.
    #[schemars(length(max = 100))]
    pub name: Option<String>,
    /// When to run, for `create`: a cron expression ("0 8 * * *", or 6 fields with seconds
    /// first), a phrase ("every morning at 8:00", "every 6 hours", "every weekday at 9:30",
    /// "每天早上8点"), or JSON ({"type":"every","every_ms":3600000}, {"type":"at","at":<unix
    /// ms>}, {"type":"cron","expr":"0 9 * * *","tz":"Asia/Shanghai"}). Times are in the
    /// system's time zone unless the JSON names one.
    #[schemars(length(max = 500))]
    pub schedule: Option<String>,
    /// What each run does, for `create`: a self-contained instruction (runs start without
    /// this chat's history).
    #[schemars(length(max = 20000))]
    pub command: Option<String>,
    /// The job's id (or name), for `delete`, `trigger`, `authorize` and `revoke`.
    pub job_id: Option<String>,
    /// Where results are delivered (a channel such as `desktop`), with `target_chat_id`.
    pub target_channel: Option<String>,
    /// The chat (session) results are delivered to, with `target_channel`.
    pub target_chat_id: Option<String>,
}

const FIELDS: Fields = Fields {
    prompt: "command",
    target: "target_channel",
};

#[async_trait]
impl Tool for Cronjob {
    type Args = CronjobArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::CRONJOB
    }

    fn description(&self) -> &str {
        "Manage scheduled jobs that run an instruction on a schedule, unattended, and deliver \
         the result to a chat. Actions: create, list, delete, trigger (run now), authorize \
         (the user approves the job's high-risk tools for its runs; without it, its runs cannot \
         use them), revoke. At most 20 enabled jobs; names are unique."
    }

    async fn call_facts(&self, args: &CronjobArgs) -> CallFacts {
        match args.action {
            CronjobAction::List => CallFacts::read_only(),
            CronjobAction::Authorize => CallFacts::of(self.entry()).always_asked(
                self.0
                    .authorization_prompt(args.job_id.as_deref().unwrap_or(""))
                    .await,
            ),
            CronjobAction::Create
            | CronjobAction::Delete
            | CronjobAction::Trigger
            | CronjobAction::Revoke => CallFacts::of(self.entry()),
        }
    }

    async fn run(&self, ctx: &ToolContext, args: CronjobArgs) -> Result<Value, ToolError> {
        let jobs = &self.0;
        let job_id = |action: &str| required(args.job_id.clone(), "job_id", action);
        match args.action {
            CronjobAction::Create => {
                let name = required(args.name.clone(), "name", "create")?;
                let schedule = required(args.schedule.clone(), "schedule", "create")?;
                let schedule = Schedule::parse(&schedule)
                    .map_err(|e| ToolError::invalid("schedule", e.to_string()))?;
                let prompt = required(args.command.clone(), "command", "create")?;
                let target = target(
                    ctx,
                    args.target_channel.as_deref(),
                    args.target_chat_id.as_deref(),
                    ("target_channel", "target_chat_id"),
                )?;
                let spec = JobSpec {
                    name,
                    schedule,
                    tz: None,
                    prompt,
                    target,
                    model: None,
                    enabled: true,
                    notify: true,
                    skill: jobs.skill(),
                };
                let (view, upcoming, scheduler) = jobs
                    .write(&FIELDS, |s| {
                        let view = s.create(spec)?;
                        let upcoming = s.upcoming(&view.id)?;
                        Ok((view, upcoming, scheduler(s)))
                    })
                    .await?;
                Ok(json!({
                    "status": saved_status(&scheduler),
                    "job": view_json(&view),
                    "next_runs": upcoming.next_runs,
                    "scheduler": scheduler,
                    "note": "The job is not authorized: its runs cannot use high-risk tools \
                             (exec, process, skill_run…) until the user approves it with \
                             action=authorize.",
                }))
            }
            CronjobAction::List => {
                let (views, scheduler) = jobs
                    .read(&FIELDS, |s| Ok((s.list(JobFilter::All)?, scheduler(s))))
                    .await?;
                let list: Vec<Value> = views.iter().map(view_json).collect();
                Ok(json!({"jobs": list, "count": list.len(), "scheduler": scheduler}))
            }
            CronjobAction::Delete => {
                let key = job_id("delete")?;
                let view = jobs.write(&FIELDS, move |s| s.delete(&key)).await?;
                Ok(json!({"deleted": view_json(&view)}))
            }
            CronjobAction::Trigger => {
                let key = job_id("trigger")?;
                let (view, scheduler) = jobs
                    .write(&FIELDS, move |s| Ok((s.trigger(&key)?, scheduler(s))))
                    .await?;
                let status = if scheduler["running"] == true {
                    "queued"
                } else {
                    "saved_not_scheduled"
                };
                Ok(json!({"status": status, "job": view_json(&view), "scheduler": scheduler}))
            }
            CronjobAction::Authorize => {
                let key = job_id("authorize")?;
                let tools = authorizable_tools();
                let grant = jobs
                    .write(&FIELDS, move |s| s.authorize(&key, &tools))
                    .await?;
                Ok(json!({
                    "authorized": true,
                    "job_id": grant.job.id,
                    "instruction": grant.instruction,
                    "frequency": grant.frequency,
                    "delivery_target": grant.delivery_target,
                    "tools": grant.tools,
                    "job": view_json(&grant.job),
                    "note": "Any change to the instruction, schedule, time zone or target \
                             voids this approval; the job then needs re-approval.",
                }))
            }
            CronjobAction::Revoke => {
                let key = job_id("revoke")?;
                let view = jobs.write(&FIELDS, move |s| s.revoke(&key)).await?;
                Ok(json!({"revoked": true, "job": view_json(&view)}))
            }
        }
    }
}
