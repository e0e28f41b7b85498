//! Typed errors in the user's language for text made in Rust (an OS notification about a failed
//! reply): English is the error's own message; Chinese comes from one exhaustive `match`, so an
//! error code added without its Chinese text does not compile. The UI's Chinese table takes these
//! same texts (generated into `ui/src/lib/bindings/errorTexts.zh-CN.ts` by this crate's tests).

use crate::{AppError, Language};

impl AppError {
    /// The message in `language`, its parameters filled in.
    pub fn in_language(&self, language: Language) -> String {
        match language {
            Language::En => self.to_string(),
            Language::ZhCn => fill(chinese(self), self),
        }
    }
}

/// `template` with each `{name}` replaced by the parameter of that name.
fn fill(template: &str, error: &AppError) -> String {
    let value = serde_json::to_value(error).unwrap_or_default();
    let Some(params) = value.get("params").and_then(serde_json::Value::as_object) else {
        return template.to_string();
    };
    params
        .iter()
        .fold(template.to_string(), |text, (name, value)| {
            let shown = match value {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            text.replace(&format!("{{{name}}}"), &shown)
        })
}

fn chinese(error: &AppError) -> &'static str {
    match error {
            AppError::NoProvider => "还没有配置模型服务：请打开设置添加一个（OpenAI 兼容、Anthropic、Ollama 或 Gemini）。",
            AppError::NoModel { .. } => "请在设置中为“{provider}”选择默认模型。",
            AppError::EmptyMessage => "消息为空。",
            AppError::UnknownSession { .. } => "该对话已不存在（{session_id}）。",
            AppError::Busy { .. } => "此对话正在回复中；请等待完成或先停止。",
            AppError::BusyElsewhere { .. } => "另一个 Hearth 进程（应用或 hearth-cli）正在此对话中回复；请等待其完成。",
            AppError::ApprovalGone => "此审批已不再等待（已超时或本轮已结束）。",
            AppError::QuestionGone => "此问题已不再等待（已超时或本轮已结束）。",
            AppError::FormFieldMissing { .. } => "“{field}”为必填项。",
            AppError::FormFieldInvalid { .. } => "“{field}”的值不符合表单要求（类型、格式或范围）。",
            AppError::NothingToRegenerate => "没有可重新生成的内容：对话中还没有消息。",
            AppError::ProviderIdTaken { .. } => "服务 ID 必须唯一且不能为空（“{id}”）。",
            AppError::ProviderIdReserved { .. } => "“{id}”是网页搜索密钥的名称；请换一个 ID。",
            AppError::NotHttpUrl { .. } => "{field}：“{url}”必须以 http:// 或 https:// 开头。",
            AppError::BadLocalHost { .. } => "允许的本地主机“{entry}”：{reason}",
            AppError::EmptyKey => "密钥为空。",
            AppError::NotAFolder { .. } => "{path} 不是文件夹。",
            AppError::ArtifactNotFound { .. } => "没有产物“{id}”（可能已被删除，或属于另一个数据文件夹）。",
            AppError::ArtifactUnreadable { .. } => "无法读取产物“{id}”：{reason}",
            AppError::ArtifactNotSaved { .. } => "无法将产物保存到 {path}：{reason}",
            AppError::KnowledgeFailed { .. } => "知识库出错：{reason}",
            AppError::NotInKnowledge { .. } => "{path} 不在知识库中。",
            AppError::CannotOpen { .. } => "无法打开 {path}：{reason}",
            AppError::MemoryGone { .. } => "记忆 {id} 不存在（可能已在别处删除）。",
            AppError::ContradictionResolved { .. } => "矛盾 {id} 已经解决。",
            AppError::NotAParty { .. } => "记忆 {memory_id} 不是矛盾 {contradiction_id} 的一方。",
            AppError::NotAnImage { .. } => "只支持粘贴图片，不支持 {mime_type}。",
            AppError::BadBase64 => "无法读取粘贴的数据。",
            AppError::ImageTooLarge { .. } => "图片超过 {megabytes} MB。",
            AppError::Settings { .. } => "设置有误：{message}",
            AppError::KeychainUnavailable { .. } => "无法访问系统钥匙串（{message}）。在 Linux 上请启动并解锁 Secret Service 服务（gnome-keyring 或 KeePassXC），或改用环境变量提供密钥。",
            AppError::KeychainFailed { .. } => "系统钥匙串拒绝了此操作：{message}",
            AppError::ModelAuth { .. } => "身份验证失败（{status}）：请在设置中检查此服务的 API 密钥。{detail}",
            AppError::KeyRequired { .. } => "此服务器需要 API 密钥（{status}）：请在“设置 → 服务商”中为服务商“{provider_id}”添加密钥，或设置 HEARTH_API_KEY 或 {env_var}。服务器返回：{detail}",
            AppError::ModelRateLimited { .. } => "服务端限制了请求频率：请稍候再试。{detail}",
            AppError::ContextTooLong { .. } => "对话超出了此模型的上下文窗口：请新建对话，或选择上下文更大的模型。",
            AppError::ModelRejected { .. } => "服务端拒绝了请求（{status}）：请检查模型名称和设置。{detail}",
            AppError::ModelServer { .. } => "服务端出错（{status}）；请稍后再试。{detail}",
            AppError::ModelUnreachable { .. } => "无法连接到 {url} 的服务：请检查基础 URL 和网络。{detail}",
            AppError::ModelProtocol { .. } => "服务端返回了 Hearth 无法理解的响应：{detail}",
            AppError::LocalModelMissing { .. } => "{folder} 中没有名为“{name}”的本地模型：请在 设置 → 模型 中导入 .gguf 文件，或运行 `hearth-cli models list`。",
            AppError::LocalModelUnusable { .. } => "{file} 无法用作本地模型：{detail}",
            AppError::LocalModelExists { .. } => "{folder} 中已有名为 {name} 的模型：请先移除它，或选择其他文件。",
            AppError::DownloadFailed { .. } => "无法下载 {url}：{detail}",
            AppError::DownloadRefused { .. } => "已拒绝从 {url} 下载：{detail}",
            AppError::DownloadStalled { .. } => "{url} 已 {seconds} 秒没有发送任何数据，下载已停止，未完成的文件已删除；请稍后重试。",
            AppError::DownloadChecksum { .. } => "下载的文件与预期不符（其 SHA-256 为 {actual}，预期为 {expected}），已将其删除。",
            AppError::DiskTooSmall { .. } => "{folder} 所在磁盘空间不足：下载需要 {needed_mb} MB，可用 {available_mb} MB。",
            AppError::DownloadCancelled => "下载已取消，未完成的文件已删除。",
            AppError::DownloadRunning { .. } => "{file} 正在下载中：请先暂停或取消该下载。",
            AppError::LocalWorkerCrashed { .. } => "本地模型的工作进程已停止（{detail}）；此回复已标记为失败，下一条消息会重新启动它。",
            AppError::ProbablyTooLong { .. } => "发送较长的请求（约 {tokens} 个 token）后服务器立即关闭了连接：消息可能超出了此模型的上下文（{window} 个 token）。请缩短消息、新建对话，或在设置中填写该模型的上下文窗口。",
            AppError::MessageTooLong { .. } => "这条消息对此模型来说太长了：连同系统提示和工具约 {tokens} 个 token，而模型的上下文窗口是 {window} 个 token。请缩短消息、少附加一些内容，或选择上下文更大的模型。",
            AppError::Stalled { .. } => "服务端 {seconds} 秒没有任何响应，回复已停止并标记为失败；请重试。",
            AppError::RunStoppedAtIterations { .. } => "运行在 {iterations} 轮工具调用后停止，没有得到回答。",
            AppError::RunCancelled => "运行已取消。",
            AppError::RunWithoutAnswer => "运行结束了，但没有得到回答。",
            AppError::RunCrashed { .. } => "运行崩溃：{message}",
            AppError::Store { .. } => "Hearth 的数据库出错：{message}",
            AppError::UpdatesOff => "更新未开启：请在 config.toml 的 [updates] 中设置 endpoint 和 pubkey。",
            AppError::NoPendingUpdate => "没有待安装的更新：请先检查更新。",
            AppError::UpdateFailed { .. } => "更新失败：{message}",
            AppError::RunInterrupted => "已中断：运行结束前调度器已停止。",
            AppError::FileSystem { .. } => "文件操作失败：{message}",
            AppError::Skill { .. } => "无法使用该技能：{message}",
            AppError::McpServers { .. } => "MCP 服务器：{message}",
            AppError::UnknownMcpServer { .. } => "没有名为“{name}”的 MCP 服务器。",
            AppError::BadChannel { .. } => "渠道“{name}”：{reason}",
            AppError::DeliveryFailed { .. } => "未能送达 {target}：{reason}",
            AppError::NotFound { .. } => "找不到 {what}：{id}",
            AppError::InvalidValue { .. } => "{field} 的值无效：{message}",
            AppError::BadSchedule { .. } => "无法识别该计划时间：{message}",
            AppError::JobRejected { .. } => "任务未保存：{message}",
            AppError::BrowserFailed { .. } => "浏览器出错：{message}",
            AppError::TerminalFailed { .. } => "终端出错：{message}",
            AppError::Internal { .. } => "Hearth 内部出错（{message}）；请重试，如果反复出现请报告。",
            AppError::Other { .. } => "{message}",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// One error of every code (the UI's type check fails if one is missing: its Chinese table
    /// takes these texts).
    fn samples() -> Vec<AppError> {
        vec![
            AppError::NoProvider,
            AppError::NoModel {
                provider: "x".into(),
            },
            AppError::EmptyMessage,
            AppError::UnknownSession {
                session_id: "x".into(),
            },
            AppError::Busy {
                session_id: "x".into(),
            },
            AppError::BusyElsewhere {
                session_id: "x".into(),
            },
            AppError::ApprovalGone,
            AppError::QuestionGone,
            AppError::FormFieldMissing { field: "x".into() },
            AppError::FormFieldInvalid { field: "x".into() },
            AppError::NothingToRegenerate,
            AppError::ProviderIdTaken { id: "x".into() },
            AppError::ProviderIdReserved { id: "x".into() },
            AppError::NotHttpUrl {
                field: "x".into(),
                url: "x".into(),
            },
            AppError::BadLocalHost {
                entry: "x".into(),
                reason: "x".into(),
            },
            AppError::EmptyKey,
            AppError::NotAFolder { path: "x".into() },
            AppError::ArtifactNotFound { id: "x".into() },
            AppError::ArtifactUnreadable {
                id: "x".into(),
                reason: "x".into(),
            },
            AppError::ArtifactNotSaved {
                path: "x".into(),
                reason: "x".into(),
            },
            AppError::KnowledgeFailed { reason: "x".into() },
            AppError::NotInKnowledge { path: "x".into() },
            AppError::CannotOpen {
                path: "x".into(),
                reason: "x".into(),
            },
            AppError::MemoryGone { id: 7 },
            AppError::ContradictionResolved { id: 7 },
            AppError::NotAParty {
                memory_id: 7,
                contradiction_id: 7,
            },
            AppError::NotAnImage {
                mime_type: "x".into(),
            },
            AppError::BadBase64,
            AppError::ImageTooLarge { megabytes: 7 },
            AppError::Settings {
                message: "x".into(),
            },
            AppError::KeychainUnavailable {
                message: "x".into(),
            },
            AppError::KeychainFailed {
                message: "x".into(),
            },
            AppError::ModelAuth {
                status: 7,
                detail: "x".into(),
            },
            AppError::KeyRequired {
                status: 7,
                provider_id: "x".into(),
                env_var: "x".into(),
                detail: "x".into(),
            },
            AppError::ModelRateLimited { detail: "x".into() },
            AppError::ContextTooLong { detail: "x".into() },
            AppError::ModelRejected {
                status: 7,
                detail: "x".into(),
            },
            AppError::ModelServer {
                status: 7,
                detail: "x".into(),
            },
            AppError::ModelUnreachable {
                url: "x".into(),
                detail: "x".into(),
            },
            AppError::ModelProtocol { detail: "x".into() },
            AppError::LocalModelMissing {
                name: "x".into(),
                folder: "x".into(),
            },
            AppError::LocalModelUnusable {
                file: "x".into(),
                detail: "x".into(),
            },
            AppError::LocalModelExists {
                name: "x".into(),
                folder: "x".into(),
            },
            AppError::DownloadFailed {
                url: "x".into(),
                detail: "x".into(),
            },
            AppError::DownloadRefused {
                url: "x".into(),
                detail: "x".into(),
            },
            AppError::DownloadStalled {
                url: "x".into(),
                seconds: 7,
            },
            AppError::DownloadChecksum {
                expected: "x".into(),
                actual: "x".into(),
            },
            AppError::DiskTooSmall {
                folder: "x".into(),
                needed_mb: 7,
                available_mb: 7,
            },
            AppError::DownloadCancelled,
            AppError::DownloadRunning { file: "x".into() },
            AppError::LocalWorkerCrashed { detail: "x".into() },
            AppError::ProbablyTooLong {
                tokens: 7,
                window: 7,
            },
            AppError::MessageTooLong {
                tokens: 7,
                window: 7,
            },
            AppError::Stalled { seconds: 7 },
            AppError::RunStoppedAtIterations { iterations: 7 },
            AppError::RunCancelled,
            AppError::RunWithoutAnswer,
            AppError::RunCrashed {
                message: "x".into(),
            },
            AppError::Store {
                message: "x".into(),
            },
            AppError::UpdatesOff,
            AppError::NoPendingUpdate,
            AppError::UpdateFailed {
                message: "x".into(),
            },
            AppError::RunInterrupted,
            AppError::FileSystem {
                message: "x".into(),
            },
            AppError::Skill {
                message: "x".into(),
            },
            AppError::McpServers {
                message: "x".into(),
            },
            AppError::UnknownMcpServer { name: "x".into() },
            AppError::BadChannel {
                name: "x".into(),
                reason: "x".into(),
            },
            AppError::DeliveryFailed {
                target: "x".into(),
                reason: "x".into(),
            },
            AppError::NotFound {
                what: "x".into(),
                id: "x".into(),
            },
            AppError::InvalidValue {
                field: "x".into(),
                message: "x".into(),
            },
            AppError::BadSchedule {
                message: "x".into(),
            },
            AppError::JobRejected {
                message: "x".into(),
            },
            AppError::BrowserFailed {
                message: "x".into(),
            },
            AppError::TerminalFailed {
                message: "x".into(),
            },
            AppError::Internal {
                message: "x".into(),
            },
            AppError::Other {
                message: "x".into(),
            },
        ]
    }

    /// Writes the Chinese text of every code beside the ts-rs bindings, so the UI's Chinese
    /// table takes them from here (CI checks the file is committed).
    #[test]
    fn export_chinese_error_texts() {
        let dir = crate::bindings_dir();
        let mut text = String::from(
            "// Generated by `cargo test -p hearth-protocol` from the Chinese text of every \
             error code\n// in crates/protocol/src/error_texts.rs. Do not edit.\n\
             export const errorTextsZhCN = {\n",
        );
        for error in samples() {
            let value = serde_json::to_value(&error).unwrap();
            let code = value["code"].as_str().unwrap();
            let key = serde_json::to_string(&format!("error.{code}")).unwrap();
            let chinese = serde_json::to_string(chinese(&error)).unwrap();
            text.push_str(&format!("  {key}: {chinese},\n"));
        }
        text.push_str("} as const;\n");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("errorTexts.zh-CN.ts"), text).unwrap();
    }

    #[test]
    fn errors_read_in_chinese_with_their_parameters() {
        let unreachable = AppError::ModelUnreachable {
            url: "http://127.0.0.1:9/v1".into(),
            detail: "connection refused".into(),
        };
        let text = unreachable.in_language(Language::ZhCn);
        assert_eq!(
            text,
            "无法连接到 http://127.0.0.1:9/v1 的服务：请检查基础 URL 和网络。connection refused"
        );
        let too_long = AppError::MessageTooLong {
            tokens: 14_012,
            window: 8_192,
        };
        let text = too_long.in_language(Language::ZhCn);
        assert!(
            text.contains("14012") && text.contains("8192") && !text.contains('{'),
            "{text}"
        );
        assert_eq!(
            AppError::NoProvider.in_language(Language::En),
            AppError::NoProvider.to_string()
        );
    }

    #[test]
    fn every_error_has_chinese_words_and_no_placeholder_left() {
        for error in samples() {
            let chinese = error.in_language(Language::ZhCn);
            let english = error.in_language(Language::En);
            assert!(!chinese.contains('{'), "{error:?}: {chinese}");
            if !matches!(error, AppError::Other { .. }) {
                assert_ne!(chinese, english, "{error:?}");
                assert!(
                    chinese
                        .chars()
                        .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                    "{error:?}: {chinese}"
                );
            }
        }
    }
}
