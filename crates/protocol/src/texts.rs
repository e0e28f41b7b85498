//! Text made in Rust that the user reads (the tray menu, OS notifications, default chat titles,
//! job reply headers, a form's questions), in each UI [`Language`]: one exhaustive `match` per
//! language, so a text added in one language only does not compile.

use crate::{Language, SubAgentStatus};

/// A user-visible text with its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text<'a> {
    /// The title of a chat before it has one of its own.
    NewChat,
    /// The title of a chat forked to edit a message of `title`.
    EditedTitle {
        title: &'a str,
    },
    /// The title of a scheduled job's run.
    JobRunTitle {
        name: &'a str,
    },
    TrayOpen,
    TrayNewChat,
    TrayNoJobs,
    /// The tray's next-run line; `when` is already formatted.
    TrayNextRun {
        name: &'a str,
        when: &'a str,
    },
    TrayPauseJobs,
    TrayQuit,
    /// The notification shown the first time the window is closed to the tray.
    StillRunningTitle,
    StillRunningBody,
    /// The same notice on a desktop with no tray icon host.
    StillRunningBodyNoTray,
    /// A chat's reply finished while nobody watched.
    ReplyFinished,
    /// A chat's reply failed while nobody watched.
    ReplyFailed {
        error: &'a str,
    },
    JobFinished {
        name: &'a str,
    },
    JobFailed {
        name: &'a str,
    },
    /// The first line of a background sub-agent's result delivered into its parent chat.
    SubAgentReport {
        goal: &'a str,
        status: SubAgentStatus,
    },
    /// What a sub-agent's approval request says it is from.
    SubAgentApproval {
        goal: &'a str,
    },
    /// The first line of a job's answer delivered into a chat.
    JobReplyHeader {
        name: &'a str,
    },
    JobReplyHeaderRunNow {
        name: &'a str,
    },
    /// `missed` is already formatted.
    JobReplyHeaderCatchUp {
        name: &'a str,
        missed: &'a str,
    },
    /// The one reply a chat not on a channel's allow list gets.
    ChannelChatRefused {
        chat_id: &'a str,
    },
    /// The reply to an allowed chat when its turn failed.
    ChannelTurnFailed {
        error: &'a str,
    },
    /// The message Settings → Channels sends to test a channel.
    ChannelTest,
    /// The first question of a form (an MCP server's elicitation) asked as questions; `fields`
    /// is already joined.
    FormOpening {
        source: &'a str,
        message: &'a str,
        fields: &'a str,
    },
    FormAnswer,
    FormDecline,
    FormCancel,
    /// The answer that leaves an optional field out.
    FormLeaveOut,
    /// A field's question.
    FormField {
        label: &'a str,
        required: bool,
    },
    FormYes,
    FormNo,
}

impl Text<'_> {
    /// The text in `language`.
    pub fn in_language(&self, language: Language) -> String {
        match language {
            Language::En => self.english(),
            Language::ZhCn => self.chinese(),
        }
    }

    fn english(&self) -> String {
        match *self {
            Text::NewChat => "New chat".into(),
            Text::EditedTitle { title } => format!("{title} (edited)"),
            Text::JobRunTitle { name } => format!("Job: {name}"),
            Text::TrayOpen => "Open Hearth".into(),
            Text::TrayNewChat => "New chat".into(),
            Text::TrayNoJobs => "No scheduled jobs".into(),
            Text::TrayNextRun { name, when } => format!("Next: {name} — {when}"),
            Text::TrayPauseJobs => "Pause all jobs".into(),
            Text::TrayQuit => "Quit".into(),
            Text::StillRunningTitle => "Hearth is still running".into(),
            Text::StillRunningBody => "Hearth keeps running in the tray so scheduled jobs can fire. Use the tray menu to open it again or quit.".into(),
            Text::StillRunningBodyNoTray => "Hearth keeps running in the background so scheduled jobs can fire. Launch Hearth again to open this window.".into(),
            Text::ReplyFinished => "Hearth finished replying.".into(),
            Text::ReplyFailed { error } => format!("The reply failed: {error}"),
            Text::JobFinished { name } => format!("Job \"{name}\" finished"),
            Text::JobFailed { name } => format!("Job \"{name}\" failed"),
            Text::SubAgentReport { goal, status } => {
                let status = match status {
                    SubAgentStatus::Running => "still running",
                    SubAgentStatus::Completed => "completed",
                    SubAgentStatus::Failed => "failed",
                    SubAgentStatus::Timeout => "timed out",
                    SubAgentStatus::Cancelled => "cancelled",
                    SubAgentStatus::Interrupted => {
                        "interrupted (Hearth stopped while it ran)"
                    }
                };
                format!("**Sub-agent \"{goal}\"**: {status}")
            }
            Text::SubAgentApproval { goal } => format!("Sub-agent \"{goal}\""),
            Text::JobReplyHeader { name } => format!("**Scheduled job \"{name}\"**"),
            Text::JobReplyHeaderRunNow { name } => {
                format!("**Scheduled job \"{name}\"** (run now)")
            }
            Text::JobReplyHeaderCatchUp { name, missed } => {
                format!("**Scheduled job \"{name}\"** (catch-up for the run missed at {missed})")
            }
            Text::ChannelChatRefused { chat_id } => format!(
                "This chat may not talk to this Hearth. Its owner can allow chat id {chat_id} in \
                 Settings → Channels."
            ),
            Text::ChannelTurnFailed { error } => format!("Hearth could not answer: {error}"),
            Text::ChannelTest => {
                "Hearth: a test message from Settings → Channels. This channel works.".to_string()
            }
            Text::FormOpening {
                source,
                message,
                fields,
            } => format!("`{source}` asks: {message}\n(fields: {fields})"),
            Text::FormAnswer => "Answer".into(),
            Text::FormDecline => "Decline".into(),
            Text::FormCancel => "Cancel".into(),
            Text::FormLeaveOut => "(leave out)".into(),
            Text::FormField { label, required } => {
                format!("{label}{}", if required { " (required)" } else { "" })
            }
            Text::FormYes => "yes".into(),
            Text::FormNo => "no".into(),
        }
    }

    fn chinese(&self) -> String {
        match *self {
            Text::NewChat => "新对话".into(),
            Text::EditedTitle { title } => format!("{title}（已编辑）"),
            Text::JobRunTitle { name } => format!("任务：{name}"),
            Text::TrayOpen => "打开 Hearth".into(),
            Text::TrayNewChat => "新对话".into(),
            Text::TrayNoJobs => "没有计划任务".into(),
            Text::TrayNextRun { name, when } => format!("下次：{name} — {when}"),
            Text::TrayPauseJobs => "暂停所有任务".into(),
            Text::TrayQuit => "退出".into(),
            Text::StillRunningTitle => "Hearth 仍在运行".into(),
            Text::StillRunningBody => {
                "Hearth 在托盘中继续运行，以便计划任务按时执行。可通过托盘菜单重新打开或退出。"
                    .into()
            }
            Text::StillRunningBodyNoTray => {
                "Hearth 在后台继续运行，以便计划任务按时执行。再次启动 Hearth 即可打开此窗口。"
                    .into()
            }
            Text::ReplyFinished => "Hearth 已完成回复。".into(),
            Text::ReplyFailed { error } => format!("回复失败：{error}"),
            Text::JobFinished { name } => format!("任务“{name}”已完成"),
            Text::JobFailed { name } => format!("任务“{name}”失败"),
            Text::SubAgentReport { goal, status } => {
                let status = match status {
                    SubAgentStatus::Running => "仍在运行",
                    SubAgentStatus::Completed => "已完成",
                    SubAgentStatus::Failed => "失败",
                    SubAgentStatus::Timeout => "超时",
                    SubAgentStatus::Cancelled => "已取消",
                    SubAgentStatus::Interrupted => "已中断（运行期间 Hearth 停止了）",
                };
                format!("**子代理“{goal}”**：{status}")
            }
            Text::SubAgentApproval { goal } => format!("子代理“{goal}”"),
            Text::JobReplyHeader { name } => format!("**计划任务“{name}”**"),
            Text::JobReplyHeaderRunNow { name } => format!("**计划任务“{name}”**（立即运行）"),
            Text::JobReplyHeaderCatchUp { name, missed } => {
                format!("**计划任务“{name}”**（补运行 {missed} 错过的一次）")
            }
            Text::ChannelChatRefused { chat_id } => format!(
                "此对话无权使用这个 Hearth。主人可以在“设置 → 渠道”中允许对话 ID {chat_id}。"
            ),
            Text::ChannelTurnFailed { error } => format!("Hearth 无法回复：{error}"),
            Text::ChannelTest => {
                "Hearth：来自“设置 → 渠道”的测试消息。此渠道工作正常。".to_string()
            }
            Text::FormOpening {
                source,
                message,
                fields,
            } => format!("`{source}` 请求：{message}\n（字段：{fields}）"),
            Text::FormAnswer => "填写".into(),
            Text::FormDecline => "拒绝".into(),
            Text::FormCancel => "取消".into(),
            Text::FormLeaveOut => "（不填）".into(),
            Text::FormField { label, required } => {
                format!("{label}{}", if required { "（必填）" } else { "" })
            }
            Text::FormYes => "是".into(),
            Text::FormNo => "否".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_its_own_words() {
        let samples = [
            Text::NewChat,
            Text::TrayOpen,
            Text::TrayPauseJobs,
            Text::StillRunningTitle,
            Text::StillRunningBodyNoTray,
            Text::JobFinished { name: "brief" },
        ];
        for text in samples {
            let english = text.in_language(Language::En);
            let chinese = text.in_language(Language::ZhCn);
            assert_ne!(english, chinese, "{text:?}");
            assert!(chinese
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
        }
        assert_eq!(
            Text::JobFinished { name: "早报" }.in_language(Language::ZhCn),
            "任务“早报”已完成"
        );
    }
}
