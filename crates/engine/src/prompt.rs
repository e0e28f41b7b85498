//! The system prompt: who the agent is, today's date, the OS, the workspace, what it remembers
//! and, when the skill tools are offered, the compact catalogue of skills.

use std::path::Path;

use chrono::{DateTime, Local};

/// Builds the system prompt for a turn; `memories` are pinned and relevant memories, `skills`
/// the skill catalogue (see [`hearth_skills::prompt_catalogue`]).
pub fn system_prompt(
    now: DateTime<Local>,
    workspace: &Path,
    memories: &[String],
    skills: Option<&str>,
) -> String {
    let mut prompt = format!(
        "You are Hearth, a capable assistant running on the user's computer with tools.\n\
         Current date and time: {} ({}).\n\
         Operating system: {} ({}).\n\
         Workspace folder (file tools are confined to it): {}\n\
         Use tools when they help; tool results are JSON, and errors come as {{\"error\": {{\"kind\", \"message\"}}}}. \
         Answer in the user's language, using Markdown.",
        now.format("%Y-%m-%d %H:%M"),
        now.format("%A, UTC%:z"),
        std::env::consts::OS,
        std::env::consts::ARCH,
        workspace.display()
    );
    if !memories.is_empty() {
        prompt.push_str("\n\nWhat you remember about the user and their environment:");
        for memory in memories {
            prompt.push_str("\n- ");
            prompt.push_str(memory);
        }
    }
    if let Some(catalogue) = skills {
        prompt.push_str("\n\n");
        prompt.push_str(catalogue);
    }
    prompt
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn names_date_os_and_workspace() {
        let now = Local
            .with_ymd_and_hms(2026, 11, 30, 9, 5, 0)
            .single()
            .unwrap();
        let prompt = system_prompt(
            now,
            Path::new("/tmp/ws"),
            &["likes green tea".to_string()],
            Some("Skills (…):\n- notes: Keeps notes."),
        );
        assert!(prompt.contains("2026-11-30 09:05"));
        assert!(prompt.contains("- likes green tea"));
        assert!(prompt.contains(std::env::consts::OS));
        assert!(prompt.contains("/tmp/ws"));
        assert!(prompt.ends_with("\n\nSkills (…):\n- notes: Keeps notes."));
        let without = system_prompt(now, Path::new("/tmp/ws"), &[], None);
        assert!(!without.contains("Skills"));
    }
}
