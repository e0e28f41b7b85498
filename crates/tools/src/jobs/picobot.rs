//! PicoBot's six cron tools: `cron_add` (schedule as `{"type":"at"|"every"|"cron"}` JSON or
//! text; the job's `model` is honoured), `cron_list`, `cron_update`, `cron_remove`,
//! `cron_enable` and `cron_disable`. `cron_list` only reads; the others ask first.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_scheduler::{JobEdit, JobFilter, JobSpec, Schedule};
use hearth_store::Job;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{join_target, saved_status, scheduler, view_json, Fields, Jobs};
use crate::error::ToolError;
use crate::tool::{CallFacts, Tool, ToolContext};

const FIELDS: Fields = Fields {
    prompt: "prompt",
    target: "channel",
};

/// A schedule as PicoBot writes it: `{"type":"at","at":<unix ms>}`,
/// `{"type":"every","every_ms":N}`, `{"type":"cron","expr":"0 0 9 * * *","tz":"Asia/Shanghai"}`
/// (6 fields: seconds first), or the same as text (also "every 6 hours", "每天早上8点").
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum PicoSchedule {
    Spec(PicoScheduleSpec),
    Text(String),
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum PicoScheduleSpec {
    /// Once, at a unix time in milliseconds.
    At { at: i64 },
    /// Every N milliseconds (at least 60000).
    Every {
        #[schemars(range(min = 60000))]
        every_ms: u64,
    },
    /// A cron expression (5 or 6 fields) in an IANA zone (default: the system's).
    Cron { expr: String, tz: Option<String> },
}

impl PicoSchedule {
    fn parse(&self) -> Result<Schedule, ToolError> {
        let parsed = match self {
            PicoSchedule::Text(text) => Schedule::parse(text),
            PicoSchedule::Spec(spec) => {
                let value = match spec {
                    PicoScheduleSpec::At { at } => json!({"type": "at", "at": at}),
                    PicoScheduleSpec::Every { every_ms } => {
                        json!({"type": "every", "every_ms": every_ms})
                    }
                    PicoScheduleSpec::Cron { expr, tz } => {
                        json!({"type": "cron", "expr": expr, "tz": tz})
                    }
                };
                Schedule::from_json(value)
            }
        };
        parsed.map_err(|e| ToolError::invalid("schedule", e.to_string()))
    }
}

/// A PicoBot cron tool: its type, name, arguments, what each of its calls does, description.
macro_rules! cron_tool {
    ($tool:ident, $name:literal, $args:ty, $facts:expr, $description:literal) => {
        #[doc = concat!("`", $name, "` over the job service.")]
        pub struct $tool(pub(super) Jobs);

        #[async_trait]
        impl Tool for $tool {
            type Args = $args;

            fn entry(&self) -> &'static CanonicalTool {
                &catalogue::CRONJOB
            }

            fn name(&self) -> &str {
                $name
            }

            fn description(&self) -> &str {
                $description
            }

            async fn call_facts(&self, _args: &$args) -> CallFacts {
                $facts
            }

            async fn run(&self, ctx: &ToolContext, args: $args) -> Result<Value, ToolError> {
                self.handle(ctx, args).await
            }
        }
    };
}

cron_tool!(
    CronAdd,
    "cron_add",
    CronAddArgs,
    CallFacts::of(&catalogue::CRONJOB),
    "Create a scheduled agent run: the prompt (self-contained; runs start without chat \
     history) runs on the schedule and its result goes to channel/chat_id. The job's model is \
     honoured."
);
cron_tool!(
    CronList,
    "cron_list",
    CronListArgs,
    CallFacts::read_only(),
    "List scheduled jobs with their next run."
);
cron_tool!(
    CronUpdate,
    "cron_update",
    CronUpdateArgs,
    CallFacts::of(&catalogue::CRONJOB),
    "Change a scheduled job's prompt, schedule, channel, chat_id or model. Changing the prompt, \
     schedule or target voids its authorization."
);
cron_tool!(
    CronRemove,
    "cron_remove",
    CronJobIdArgs,
    CallFacts::of(&catalogue::CRONJOB),
    "Delete a scheduled job and its run history for good."
);
cron_tool!(
    CronEnable,
    "cron_enable",
    CronJobIdArgs,
    CallFacts::of(&catalogue::CRONJOB),
    "Enable a scheduled job and compute its next run (at most 20 enabled)."
);
cron_tool!(
    CronDisable,
    "cron_disable",
    CronJobIdArgs,
    CallFacts::of(&catalogue::CRONJOB),
    "Disable a scheduled job, keeping it."
);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CronAddArgs {
    pub schedule: PicoSchedule,
    /// The instruction each run starts from (include all the context it needs).
    #[schemars(length(min = 1, max = 20000))]
    pub prompt: String,
    /// The channel results are delivered to (e.g. `desktop`).
    #[schemars(length(min = 1))]
    pub channel: String,
    /// The chat (session) results are delivered to.
    #[schemars(length(min = 1))]
    pub chat_id: String,
    /// A unique name (default: generated).
    #[schemars(length(max = 100))]
    pub name: Option<String>,
    /// The model the runs use (default: the configured one).
    pub model: Option<String>,
}

impl CronAdd {
    async fn handle(&self, _ctx: &ToolContext, args: CronAddArgs) -> Result<Value, ToolError> {
        let name = args
            .name
            .unwrap_or_else(|| format!("cron-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]));
        let spec = JobSpec {
            name,
            schedule: args.schedule.parse()?,
            tz: None,
            prompt: args.prompt,
            target: Some(join_target(args.channel.trim(), args.chat_id.trim())),
            model: args.model,
            enabled: true,
            notify: true,
            skill: self.0.skill(),
        };
        let (view, scheduler) = self
            .0
            .write(&FIELDS, |s| Ok((s.create(spec)?, scheduler(s))))
            .await?;
        Ok(json!({
            "job_id": view.id,
            "status": saved_status(&scheduler),
            "job": view_json(&view),
            "scheduler": scheduler,
        }))
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CronStatus {
    #[default]
    All,
    Enabled,
    Disabled,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CronListArgs {
    /// Which jobs (default all).
    pub status: Option<CronStatus>,
}

impl CronList {
    async fn handle(&self, _ctx: &ToolContext, args: CronListArgs) -> Result<Value, ToolError> {
        let filter = match args.status.unwrap_or_default() {
            CronStatus::All => JobFilter::All,
            CronStatus::Enabled => JobFilter::Enabled,
            CronStatus::Disabled => JobFilter::Disabled,
        };
        let (views, scheduler) = self
            .0
            .read(&FIELDS, move |s| Ok((s.list(filter)?, scheduler(s))))
            .await?;
        let jobs: Vec<Value> = views.iter().map(view_json).collect();
        Ok(json!({"jobs": jobs, "count": jobs.len(), "scheduler": scheduler}))
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CronUpdateArgs {
    /// The job to change (id or name).
    #[schemars(length(min = 1))]
    pub job_id: String,
    /// A new instruction (voids the job's authorization).
    #[schemars(length(min = 1, max = 20000))]
    pub prompt: Option<String>,
    /// A new schedule (voids the job's authorization).
    pub schedule: Option<PicoSchedule>,
    /// New delivery channel (the chat id is kept unless given).
    pub channel: Option<String>,
    /// New delivery chat (the channel is kept unless given).
    pub chat_id: Option<String>,
    /// The model the runs use.
    pub model: Option<String>,
}

impl CronUpdate {
    async fn handle(&self, _ctx: &ToolContext, args: CronUpdateArgs) -> Result<Value, ToolError> {
        // Found and changed in one write turn: no other write through the `Db` runs between.
        let view = self
            .0
            .write(&FIELDS, move |s| {
                let job = s.find(&args.job_id)?;
                match edit(&job, args) {
                    Ok(edit) => s.edit(&job.id, edit).map(Ok),
                    Err(refused) => Ok(Err(refused)),
                }
            })
            .await??;
        Ok(json!({"job_id": view.id, "job": view_json(&view)}))
    }
}

/// The change `args` asks of `job`; refused when it asks for none.
fn edit(job: &Job, args: CronUpdateArgs) -> Result<JobEdit, ToolError> {
    let target = match (args.channel.as_deref(), args.chat_id.as_deref()) {
        (None, None) => None,
        (channel, chat) => {
            let current = job.target.as_deref().unwrap_or_default();
            let (old_channel, old_chat) = current.split_once(':').unwrap_or(("", ""));
            let channel = channel.map_or(old_channel, str::trim);
            let chat = chat.map_or(old_chat, str::trim);
            Some(Some(join_target(channel, chat)))
        }
    };
    let edit = JobEdit {
        prompt: args.prompt,
        schedule: args
            .schedule
            .as_ref()
            .map(PicoSchedule::parse)
            .transpose()?,
        target,
        model: args.model.map(Some),
        ..JobEdit::default()
    };
    if edit == JobEdit::default() {
        return Err(ToolError::invalid(
            "job_id",
            "nothing to change: give prompt, schedule, channel, chat_id or model",
        ));
    }
    Ok(edit)
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CronJobIdArgs {
    /// The job (id or name).
    #[schemars(length(min = 1))]
    pub job_id: String,
}

impl CronRemove {
    async fn handle(&self, _ctx: &ToolContext, args: CronJobIdArgs) -> Result<Value, ToolError> {
        let view = self
            .0
            .write(&FIELDS, move |s| s.delete(&args.job_id))
            .await?;
        Ok(json!({"removed": true, "job_id": view.id, "name": view.name}))
    }
}

impl CronEnable {
    async fn handle(&self, _ctx: &ToolContext, args: CronJobIdArgs) -> Result<Value, ToolError> {
        let (view, scheduler) = self
            .0
            .write(&FIELDS, move |s| {
                Ok((s.set_enabled(&args.job_id, true)?, scheduler(s)))
            })
            .await?;
        Ok(json!({
            "job_id": view.id,
            "enabled": true,
            "next_run": view.next_run,
            "status": saved_status(&scheduler),
            "scheduler": scheduler,
        }))
    }
}

impl CronDisable {
    async fn handle(&self, _ctx: &ToolContext, args: CronJobIdArgs) -> Result<Value, ToolError> {
        let view = self
            .0
            .write(&FIELDS, move |s| s.set_enabled(&args.job_id, false))
            .await?;
        Ok(json!({"job_id": view.id, "enabled": false}))
    }
}
