//! The MCP client: servers from `[[mcp_servers]]` (stdio and streamable HTTP) kept running in
//! the background, restarted when they fail, and their tools offered to the registry as
//! `mcp__<server>__<tool>`.

mod config;
mod connect;
mod elicitation;
mod import;
mod log;
mod manager;
mod mrtr;
mod names;
pub mod oauth;
mod oversize;
mod path;
mod prompts;
mod resources;
mod result;
mod sandbox;
mod search;
mod server;
mod source;
mod sse;
mod status;
mod stdio;
mod tool;

pub use config::{
    check_servers, env_secret_account, header_secret_account, resolve, secret_accounts,
    ConfigError, ServerSpec, Transport,
};
pub use import::{import_servers, ImportError, Imported};
pub use log::{MAX_LOG_BYTES, TAIL_LINES};
pub use manager::{Changes, McpManager};
pub use names::{qualified_name, sanitize, valid_server_name, MAX_TOOL_NAME};
pub use oversize::MAX_ANSWER_BYTES;
pub use path::server_path;
pub use result::MEDIA_DIR;
pub use search::{schema_tokens, too_many, SCHEMA_BUDGET_PERCENT, TOOL_SEARCH};
pub use server::{FIRST_BACKOFF, MAX_BACKOFF};
pub use status::{ServerStatus, State};
pub use tool::ToolInfo;
