//! CeeCore `schedule_task`: create a named job (cron or natural language) whose action is
//! delivered to the current chat; `enabled: false` saves it without scheduling.

use async_trait::async_trait;
use hearth_policy::catalogue::{self, CanonicalTool};
use hearth_scheduler::{JobSpec, Schedule};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{saved_status, scheduler, target, Fields, Jobs};
use crate::error::ToolError;
use crate::tool::{Tool, ToolContext};

/// `schedule_task` over the job service.
pub struct ScheduleTask(pub(super) Jobs);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScheduleTaskArgs {
    /// Task name, unique across all tasks.
    #[schemars(length(min = 1, max = 100))]
    pub name: String,
    /// A cron expression ("0 8 * * *" every day at 8:00, "0 */6 * * *" every 6 hours,
    /// "30 9 * * 1-5" weekdays at 9:30) or a description ("every morning at 8:00", "every 6
    /// hours", "every weekday at 9:30", "每天早上8点").
    #[schemars(length(min = 1, max = 500))]
    pub schedule: String,
    /// What to do when the task fires (a self-contained instruction).
    #[schemars(length(min = 1, max = 20000))]
    pub action: String,
    /// Whether the task is active (default true).
    pub enabled: Option<bool>,
}

const FIELDS: Fields = Fields {
    prompt: "action",
    target: "name",
};

#[async_trait]
impl Tool for ScheduleTask {
    type Args = ScheduleTaskArgs;

    fn entry(&self) -> &'static CanonicalTool {
        &catalogue::CRONJOB
    }

    fn name(&self) -> &str {
        "schedule_task"
    }

    fn description(&self) -> &str {
        "Create a scheduled task that performs an action on a cron or natural-language \
         schedule. Task names are unique; at most 20 tasks are active; tasks survive restarts."
    }

    async fn run(&self, ctx: &ToolContext, args: ScheduleTaskArgs) -> Result<Value, ToolError> {
        let schedule = Schedule::parse(&args.schedule)
            .map_err(|e| ToolError::invalid("schedule", e.to_string()))?;
        let enabled = args.enabled.unwrap_or(true);
        let spec = JobSpec {
            name: args.name,
            schedule,
            tz: None,
            prompt: args.action,
            target: target(ctx, None, None, ("", ""))?,
            model: None,
            enabled,
            notify: true,
            skill: self.0.skill(),
        };
        let (view, scheduler) = self
            .0
            .write(&FIELDS, |s| Ok((s.create(spec)?, scheduler(s))))
            .await?;
        let status = if enabled {
            saved_status(&scheduler)
        } else {
            "disabled"
        };
        Ok(json!({
            "task_id": view.id,
            "name": view.name,
            "schedule": view.schedule,
            "description": view.schedule_description,
            "timezone": view.tz,
            "enabled": view.enabled,
            "next_run": view.next_run,
            "status": status,
            "scheduler": scheduler,
        }))
    }
}
