//! What a tool asks the user to confirm before a call, as data the UI words in its language (an
//! approval card, the audit log) and the engine writes in English (the terminal, the model, the
//! log): a job's authorization, a skill's declared tool, the browser in the user's own Chrome.

use std::fmt;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A tool's own confirmation question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(tag = "code", content = "params", rename_all = "snake_case")]
pub enum Confirmation {
    /// `cronjob authorize`: what the authorization binds.
    AuthorizeJob(Box<JobAuthorization>),
    /// `cronjob authorize` for a job that cannot be shown (the call then fails itself).
    AuthorizeUnknownJob { job: String, error: String },
    /// A tool a skill declares, run by that skill.
    SkillTool { skill: String, tool: String },
    /// A browser action in the user's own Chrome (`browser.cdp_url`).
    OwnBrowser { action: String, cdp_url: String },
    /// The English text an older version stored in the audit log.
    #[serde(untagged)]
    Text(String),
}

/// A job's authorization as the user is asked it: the job, its high-risk tools, instruction,
/// schedule (as stored, and in English words) with the next run, and where results go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct JobAuthorization {
    pub job: String,
    pub tools: Vec<String>,
    pub instruction: String,
    /// The schedule as stored (`{"type": "cron", …}`).
    #[ts(type = "import('./Schedule').Schedule")]
    pub schedule: serde_json::Value,
    pub schedule_description: String,
    pub tz: String,
    /// RFC 3339 with the zone's offset; none when no run is due.
    pub next_run: Option<String>,
    /// The chat results go to; none for the job's own session.
    pub delivers_to: Option<String>,
}

impl fmt::Display for Confirmation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Confirmation::AuthorizeJob(job) => job.fmt(f),
            Confirmation::AuthorizeUnknownJob { job, error } => {
                write!(f, "Authorize job \"{job}\"? It cannot be shown: {error}.")
            }
            Confirmation::SkillTool { skill, tool } => {
                write!(f, "The skill `{skill}` runs its tool `{tool}`")
            }
            Confirmation::OwnBrowser { action, cdp_url } => write!(
                f,
                "browser {action} in your own Chrome at {cdp_url} (browser.cdp_url): it is logged \
                 in as you and its traffic does not go through Hearth's egress guard"
            ),
            Confirmation::Text(text) => f.write_str(text),
        }
    }
}

impl fmt::Display for JobAuthorization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Authorize job \"{name}\" to use high-risk tools ({tools}) in its unattended runs?\n\
             Instruction: {instruction}\n\
             Frequency: {description} ({tz}); next run {next}\n\
             Delivers to: {target}\n\
             Any later change to the instruction, schedule, time zone or target voids this \
             approval.",
            name = self.job,
            tools = self.tools.join(", "),
            instruction = self.instruction,
            description = self.schedule_description,
            tz = self.tz,
            next = self.next_run.as_deref().unwrap_or("none scheduled"),
            target = self
                .delivers_to
                .as_deref()
                .unwrap_or("the job's own session only"),
        )
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_confirmation_is_sent_typed_and_an_older_sentence_reads_back_as_text() {
        let skill = Confirmation::SkillTool {
            skill: "trip".into(),
            tool: "book".into(),
        };
        let json = serde_json::to_value(&skill).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"code": "skill_tool", "params": {"skill": "trip", "tool": "book"}})
        );
        assert_eq!(serde_json::from_value::<Confirmation>(json).unwrap(), skill);
        assert_eq!(skill.to_string(), "The skill `trip` runs its tool `book`");
        let old: Confirmation =
            serde_json::from_value(serde_json::json!("Authorize job \"daily\"?")).unwrap();
        assert_eq!(old, Confirmation::Text("Authorize job \"daily\"?".into()));
        assert_eq!(old.to_string(), "Authorize job \"daily\"?");
    }

    #[test]
    fn a_job_authorization_reads_in_english_with_its_schedule_and_target() {
        let job = JobAuthorization {
            job: "daily".into(),
            tools: vec!["exec".into(), "write_file".into()],
            instruction: "Summarise the news".into(),
            schedule: serde_json::json!({"type": "cron", "expr": "0 9 * * *"}),
            schedule_description: "At 09:00.".into(),
            tz: "Europe/Lisbon".into(),
            next_run: None,
            delivers_to: None,
        };
        let text = Confirmation::AuthorizeJob(Box::new(job)).to_string();
        assert!(text.starts_with(
            "Authorize job \"daily\" to use high-risk tools (exec, write_file) in its unattended runs?\n"
        ));
        assert!(text.contains("Frequency: At 09:00. (Europe/Lisbon); next run none scheduled\n"));
        assert!(text.contains("Delivers to: the job's own session only\n"));
    }
}
