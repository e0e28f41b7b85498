// Generated from crates/protocol/src/choices.rs by `cargo test -p hearth-protocol`. Do not edit.
import type { ToolProfile } from './ToolProfile';
export const TOOL_PROFILES = ['minimal', 'messaging', 'coding', 'full'] as const satisfies readonly ToolProfile[];
import type { SecurityProfile } from './SecurityProfile';
export const SECURITY_PROFILES = ['personal_cli', 'daemon', 'public_gateway'] as const satisfies readonly SecurityProfile[];
import type { ProviderKind } from './ProviderKind';
export const PROVIDER_KINDS = ['openai', 'anthropic', 'ollama', 'gemini'] as const satisfies readonly ProviderKind[];
import type { RuleEffect } from './RuleEffect';
export const RULE_EFFECTS = ['allow', 'deny'] as const satisfies readonly RuleEffect[];
import type { McpApproval } from './McpApproval';
export const MCP_APPROVALS = ['always', 'ask', 'never'] as const satisfies readonly McpApproval[];
import type { SearchBackend } from './SearchBackend';
export const SEARCH_BACKENDS = ['searxng', 'brave', 'tavily'] as const satisfies readonly SearchBackend[];
import type { Theme } from './Theme';
export const THEMES = ['light', 'dark', 'system'] as const satisfies readonly Theme[];
import type { Language } from './Language';
export const LANGUAGES = ['en', 'zh-CN'] as const satisfies readonly Language[];
import type { Capability } from './Capability';
export const CAPABILITIES = ['fs.read', 'fs.write', 'process.exec', 'process.manage', 'code.exec', 'network.outbound', 'message.send', 'message.ask', 'notification', 'memory.read', 'memory.write', 'session.read', 'knowledge.read', 'knowledge.write', 'artifact.read', 'artifact.write', 'media.generate', 'media.read', 'browser.control', 'task.write', 'workflow.write', 'scheduler.write', 'agent.read', 'agent.dispatch', 'skill.read', 'skill.write', 'skill.install', 'mcp.call'] as const satisfies readonly Capability[];
