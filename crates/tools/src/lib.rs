//! Hearth's tools: the `Tool` trait (each tool refers to its catalogue entry and judges each
//! call), the registry (the only dispatcher) with its dialects, the error the model reads, the
//! output cap, the generated reference (`docs/tools.md`), the built-in tools, and the typed views
//! tool cards show of their calls.

pub mod artifacts;
mod background;
mod calculator;
pub mod channels;
mod conversation;
mod db;
mod device_info;
mod dialect;
mod error;
#[cfg(unix)]
mod exec;
mod form;
pub mod fs;
mod history;
mod images;
mod jobs;
mod mcp_resources;
pub mod media;
mod memory;
pub mod net;
mod notify;
mod output;
mod planning;
mod reference;
mod registry;
mod skills;
mod tool;
mod validate;
mod views;

pub use artifacts::register_artifacts;
pub use background::Background;
pub use calculator::{Action as CalculatorAction, Calculator, CalculatorArgs};
pub use channels::{register_channels, ChannelError, ChannelSink};
pub use conversation::{Conversation, Question, Reply};
pub use device_info::{DeviceField, DeviceInfo, DeviceInfoArgs};
pub use dialect::{Dialect, DialectArgs, DialectTool};
pub use error::{ErrorKind, ToolError};
#[cfg(unix)]
pub use exec::{
    bash, BashArgs, Exec, ExecArgs, ExecuteCode, ExecuteCodeArgs, Language, Process, ProcessAction,
    ProcessArgs, Pty, PtyAction, PtyArgs, SkillRun, SkillRunArgs, TerminalFeed, Terminals,
    ENV_ALLOW_LIST,
};
pub use form::{
    ask_fields, check as check_form, FieldKind, Form, FormAnswer, FormChoice, FormField,
    FormProblem, FormReply, TextFormat,
};
pub use history::register_history;
pub use images::{image_type, ImageSink, IMAGE_TYPES, MAX_IMAGE_BYTES};
pub use jobs::{authorizable_tools, bind_jobs_to_skill, register_jobs, NOT_RUNNING};
pub use mcp_resources::{
    McpResourceList, McpResourceListArgs, McpResourceRead, McpResourceReadArgs, McpResources,
    NoMcpServers, RESOURCE_DEFAULT_CHARS, RESOURCE_MAX_CHARS,
};
pub use media::{register_media, MediaConfig};
pub use memory::register_memory;
pub use net::{register_network, NetworkConfig, SearchBackend, SearchConfig};
pub use notify::{
    register_notifications, Notice, Notifier, NotifyError, OnClick, NOTIFICATIONS_PER_HOUR,
};
pub use output::{spill_if_large, MODEL_OUTPUT_CAP};
pub use planning::register_planning;
pub use reference::{minimal_arguments, reference, reference_difference};
pub use registry::{PreparedCall, Registry, RegistryError, ToolSpecInfo};
pub use skills::{
    download_skill_archive, register_declared_tools, GetSkill, GetSkillAction, GetSkillArgs,
    InstallSource, ManageAction, SkillInstall, SkillInstallArgs, SkillManage, SkillManageArgs,
    SkillView, SkillViewArgs, SkillsList, SkillsListArgs,
};
pub use tool::{BoundCall, CallFacts, CallFuture, DynTool, IntoDynTool, Tool, ToolContext};
pub use validate::MAX_ARGUMENT_BYTES;
pub use views::{attach_views, call_views, canonical_name, proposed_view, result_views};

/// The registry of every built-in tool a dialect has. One line per tool: the dialects that
/// offer it (under its canonical name, or through a [`DialectTool`] wrapper) and the tool.
/// Built-in registration cannot fail short of a programming error (a duplicate name), which
/// tests catch; should it happen, the tool is left out and the error logged. Its background
/// processes and terminal sessions are its own: see [`builtin_registry_on`] to share them.
pub fn builtin_registry(dialect: Dialect) -> Registry {
    builtin_registry_on(dialect, &Background::new())
}

/// [`builtin_registry`] whose `process` and `pty` tools use `background`.
#[cfg_attr(not(unix), allow(unused_variables))]
pub fn builtin_registry_on(dialect: Dialect, background: &Background) -> Registry {
    use Dialect::{Ceecore, Echo, Hearth, Picobot};
    let mut registry = Registry::new(dialect);
    let outcomes = [
        registry.register_for(&[Hearth, Echo, Picobot], Calculator),
        registry.register_for(&[Hearth, Echo, Ceecore], DeviceInfo),
        registry.register_for(&[Hearth, Echo], fs::ReadFile),
        registry.register_for(&[Ceecore], fs::ceecore_read_file()),
        registry.register_for(&[Picobot], fs::picobot_file_read()),
        registry.register_for(&[Hearth, Echo, Ceecore], fs::WriteFile),
        registry.register_for(&[Picobot], fs::picobot_file_write()),
        registry.register_for(&[Hearth, Echo], fs::EditFile),
        registry.register_for(&[Picobot], fs::picobot_file_edit()),
        registry.register_for(&[Hearth, Echo], fs::Patch),
        registry.register_for(&[Hearth, Echo], fs::ListDir),
        registry.register_for(&[Hearth, Echo], fs::SearchFiles),
        registry.register_for(&[Picobot], fs::picobot_file_search()),
        registry.register_for(&[Picobot], fs::picobot_content_search()),
        registry.register_for(&[Hearth, Echo], fs::ReadSpill),
        registry.register_for(&[Hearth, Echo], fs::ReadDocument),
        #[cfg(unix)]
        registry.register_for(&[Hearth, Echo], Exec),
        #[cfg(unix)]
        registry.register_for(&[Picobot], bash()),
        #[cfg(unix)]
        registry.register_for(&[Hearth, Echo], ExecuteCode),
        #[cfg(unix)]
        registry.register_for(&[Hearth, Echo], background.process_tool()),
        #[cfg(unix)]
        registry.register_for(&[Hearth, Echo, Picobot], background.pty_tool()),
        registry.register_for(&[Hearth, Echo], SkillsList),
        registry.register_for(&[Hearth, Echo], SkillView),
        registry.register_for(&[Picobot], GetSkill),
        #[cfg(unix)]
        registry.register_for(&[Hearth, Echo], SkillRun),
        registry.register_for(&[Hearth, Echo], SkillManage),
    ];
    for error in outcomes.into_iter().filter_map(Result::err) {
        tracing::error!(%error, %dialect, "built-in tool left out");
    }
    registry
}
