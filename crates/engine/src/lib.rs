//! The Hearth engine: configuration, secrets, sessions and the turn loop, with the outside world
//! reached only through traits (model client, approver, secret store) so that the desktop app
//! and `hearth-cli` can both compose it.

mod agents;
mod approval;
mod attachments;
mod builder;
mod channels;
mod compact;
mod config;
mod detect;
mod engine;
mod error;
mod history;
mod jobs;
mod knowledge;
mod media;
mod network;
mod notify;
mod prompt;
mod provider;
mod reference;
mod registry;
mod response;
mod rules;
mod sandbox;
mod secrets;
mod skill_run;
mod startup;
mod titles;
mod tool_calls;
mod turns;

pub use agents::{
    recover_agent_runs, register_agents, Agents, ModelSource, ProgressListener, CANCEL_GRACE,
    PICOBOT_DEFAULT_TOOLS,
};
pub use approval::{
    ask_with_timeout, ApprovalRequest, Approver, FixedApprover, FormRequest, QuestionRequest,
};
pub use attachments::{
    image_part, prepare_attachment, DOCUMENT_ATTACHMENT_CHARS, DOCUMENT_EXTENSIONS,
    IMAGE_ATTACHMENT_CAP, TEXT_ATTACHMENT_CAP,
};
pub use builder::{attended, EngineBuilder, ModelChoice};
pub use channels::{channel_token, Channels, Gateway, GatewayHandle, DESKTOP};
pub use compact::tools_tokens;
pub use config::{default_provider, load_settings, save_settings};
pub use detect::{detect_local_servers, well_known_servers, LocalCandidate, DETECT_TIMEOUT};
pub use engine::{Engine, EngineOptions, EventSink, TurnSummary};
pub use error::EngineError;
pub use hearth_browser::Browsers;
pub use hearth_knowledge::Knowledge;
pub use jobs::{AgentJobExecutor, JobGrant};
pub use knowledge::knowledge_folders;
pub use media::{media_config, takes_images, EngineVision, MEDIA_KEY_IDS};
pub use network::{key_account, network_config, search_account};
pub use notify::OsNotifier;
pub use provider::{choose_provider, client_with_key, model_client};
pub use reference::{tools_reference, REGENERATE_TOOLS_DOC};
pub use registry::{register_browser_tools, tool_registry, tool_registry_with_runner};
pub use rules::{check_rules, enforced_rules, user_rules, RuleError};
pub use sandbox::{sandbox_settings, sandbox_status};
pub use secrets::{
    key_status, log_unreadable, mask_secret, provider_account, read_secret, resolve_api_key,
};
pub use skill_run::SkillRun;
pub use startup::{existing_folder, open_data, startup_problem};
pub use titles::{TITLE_PROMPT, TITLE_TIMEOUT};
pub use tool_calls::{CallScope, ChatSandboxes, ToolRunner};
pub use turns::{title_from, BegunTurn, TurnGuard, Turns};
