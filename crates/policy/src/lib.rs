//! Hearth's policy: pure functions over data deciding whether a tool call runs (the README's
//! "Rules" section), and the catalogue of every canonical tool's facts.

mod authorization;
mod capability;
pub mod catalogue;
mod decide;
mod profile;
mod rules;
mod sandbox_grants;
mod skill;

pub use authorization::{authorization_covers, mcp_server_scope};
pub use capability::{Capability, ParseError};
pub use catalogue::{canonical_tool, mcp_tool_facts, CanonicalTool, ToolFacts, CANONICAL_TOOLS};
pub use decide::{decide, decide_always_ask, Authority, Decision, PolicyInput};
pub use hearth_protocol::PolicyReason;
pub use profile::{exposed, smallest_exposing, SecurityProfile, ToolProfile};
pub use rules::{Effect, Matcher, Rule};
pub use sandbox_grants::{command_matches, grant_problem, granted, Granted};
pub use skill::{Declaration, SkillGrant, SkillPermission, SkillRefusal};
