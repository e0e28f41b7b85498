// Typed wrappers over the Tauri commands the backend exposes (one function per command; argument
// names are the camelCase keys the commands expect). Errors reject with the backend's `AppError`
// (see errors.ts).
import { Channel, invoke } from '@tauri-apps/api/core';
import type { AboutInfo } from './bindings/AboutInfo';
import type { ApprovalDecision } from './bindings/ApprovalDecision';
import type { FormAnswer } from './bindings/FormAnswer';
import type { BrowserStatus } from './bindings/BrowserStatus';
import type { SandboxStatus } from './bindings/SandboxStatus';
import type { ChatSandbox } from './bindings/ChatSandbox';
import type { ChannelDelivery } from './bindings/ChannelDelivery';
import type { CloseWithoutTray } from './bindings/CloseWithoutTray';
import type { ChannelStatus } from './bindings/ChannelStatus';
import type { ArtifactView } from './bindings/ArtifactView';
import type { Citation } from './bindings/Citation';
import type { Opened } from './bindings/Opened';
import type { ContentPart } from './bindings/ContentPart';
import type { McpPromptMessage } from './bindings/McpPromptMessage';
import type { McpPromptView } from './bindings/McpPromptView';
import type { McpResourceListing } from './bindings/McpResourceListing';
import type { DetectedServer } from './bindings/DetectedServer';
import type { EngineEvent } from './bindings/EngineEvent';
import type { KeyStatus } from './bindings/KeyStatus';
import type { McpServerView } from './bindings/McpServerView';
import type { KnowledgeStatus } from './bindings/KnowledgeStatus';
import type { MessagePage } from './bindings/MessagePage';
import type { ParkedWindow } from './bindings/ParkedWindow';
import type { PolicyRule } from './bindings/PolicyRule';
import type { ListedModel } from './bindings/ListedModel';
import type { LocalModel } from './bindings/LocalModel';
import type { LocalModelsView } from './bindings/LocalModelsView';
import type { ModelDownload } from './bindings/ModelDownload';
import type { StartDownloadParams } from './bindings/StartDownloadParams';
import type { ProviderEntry } from './bindings/ProviderEntry';
import type { SearchHit } from './bindings/SearchHit';
import type { Session } from './bindings/Session';
import type { Settings } from './bindings/Settings';
import type { StartupProblem } from './bindings/StartupProblem';
import type { SubAgentRun } from './bindings/SubAgentRun';
import type { TodoList } from './bindings/TodoList';
import type { UpdateCheck } from './bindings/UpdateCheck';
import type { WorkspaceMedia } from './bindings/WorkspaceMedia';
import type { AuthorizationGrant, JobForm, JobView, Preview, RunView } from './jobs';
import type { Contradiction, Memory, MemoryForm, MemoryList } from './memory';
import type { ImportCandidate, InstallKind, InstallPreview, SkillDetail, SkillItem, SkillsList } from './skills';
import type { AuditRecord } from './types';

export type EventHandler = (event: EngineEvent) => void;

function channel(onEvent: EventHandler): Channel<EngineEvent> {
  return new Channel<EngineEvent>(onEvent);
}

/** What a terminal view receives from `watch_terminal` (see src-tauri commands/terminals.rs). */
export type TerminalEvent =
  | { kind: 'screen'; rows: number; cols: number; data: string }
  | { kind: 'output'; data: number[] }
  | { kind: 'closed' };

export interface PageRequest {
  before?: number | null;
  through?: number | null;
  limit: number;
}

export const api = {
  listSessions: () => invoke<Session[]>('list_sessions'),
  /** Feeds `onEvent` with a `pty` session's screen and live output; false when it is not open. */
  watchTerminal: (sessionId: string, onEvent: (event: TerminalEvent) => void) =>
    invoke<boolean>('watch_terminal', { sessionId, onEvent: new Channel<TerminalEvent>(onEvent) }),
  /** Types `data` (the bytes xterm.js makes of the keys pressed) into a `pty` session. */
  writeTerminal: (sessionId: string, data: string) => invoke<number>('write_terminal', { sessionId, data }),
  createSession: (title: string | null = null) => invoke<Session>('create_session', { title }),
  renameSession: (id: string, title: string) => invoke<void>('rename_session', { id, title }),
  setSessionPinned: (id: string, pinned: boolean) => invoke<void>('set_session_pinned', { id, pinned }),
  deleteSession: (id: string) => invoke<void>('delete_session', { id }),
  setSessionModel: (id: string, model: string | null) => invoke<void>('set_session_model', { id, model }),
  setSessionWorkspace: (id: string, workspace: string) => invoke<void>('set_session_workspace', { id, workspace }),
  /** The `limit` newest messages before `before` (the newest when null), reaching back to
   * `through` when given. */
  listMessagePage: (sessionId: string, page: PageRequest) =>
    invoke<MessagePage>('list_message_page', {
      sessionId,
      before: page.before ?? null,
      through: page.through ?? null,
      limit: page.limit,
    }),
  searchMessages: (query: string) => invoke<SearchHit[]>('search_messages', { query }),

  sendMessage: (sessionId: string, content: ContentPart[], onEvent: EventHandler) =>
    invoke<void>('send_message', { sessionId, content, onEvent: channel(onEvent) }),
  cancelTurn: (sessionId: string) => invoke<void>('cancel_turn', { sessionId }),
  cancelSubagent: (runId: string) => invoke<void>('cancel_subagent', { runId }),
  listBackgroundTasks: () => invoke<SubAgentRun[]>('list_background_tasks'),
  regenerate: (sessionId: string, onEvent: EventHandler) =>
    invoke<void>('regenerate', { sessionId, onEvent: channel(onEvent) }),
  editMessage: (sessionId: string, messageId: number, content: ContentPart[], onEvent: EventHandler) =>
    invoke<Session>('edit_message', { sessionId, messageId, content, onEvent: channel(onEvent) }),
  resolveApproval: (requestId: string, decision: ApprovalDecision) =>
    invoke<void>('resolve_approval', { requestId, decision }),
  /** The session's checklist (`todo`); null when it never had one. */
  todoList: (sessionId: string) => invoke<TodoList | null>('todo_list', { sessionId }),
  /** Answers a question the model asked (`clarify`). */
  answerQuestion: (requestId: string, answer: string) => invoke<void>('answer_question', { requestId, answer }),
  /** The form card's answer to a waiting form (refused, with the field, when it does not fit). */
  answerForm: (requestId: string, answer: FormAnswer) => invoke<void>('answer_form', { requestId, answer }),

  /** A generated image or audio file of the chat's workspace, for a tool card to show. */
  readWorkspaceMedia: (sessionId: string, path: string) =>
    invoke<WorkspaceMedia>('read_workspace_media', { sessionId, path }),
  prepareAttachment: (sessionId: string, path: string) => invoke<ContentPart>('prepare_attachment', { sessionId, path }),
  /** The image on the OS clipboard (null when it holds none), for a paste the webview gave no
   * image (WebKitGTK). */
  pasteClipboardImage: (sessionId: string, name: string) =>
    invoke<ContentPart | null>('paste_clipboard_image', { sessionId, name }),
  attachBytes: (sessionId: string, name: string, mimeType: string, dataBase64: string) =>
    invoke<ContentPart>('attach_bytes', { sessionId, name, mimeType, dataBase64 }),

  getSettings: () => invoke<Settings>('get_settings'),
  saveSettings: (settings: Settings) => invoke<void>('save_settings', { settings }),
  /** Rejects with a `RuleError` (the first bad rule's index and why), as loading would. */
  validateRules: (rules: PolicyRule[]) => invoke<void>('validate_rules', { rules }),
  /** Every configured MCP server: state, reason, log tail and tools. */
  mcpServers: () => invoke<McpServerView[]>('mcp_servers'),
  mcpRestart: (name: string) => invoke<void>('mcp_restart', { name }),
  /** Every ready server's resources and templates. */
  mcpResources: () => invoke<McpResourceListing>('mcp_resources'),
  /** A resource read as the text part attached to a message. */
  mcpAttachResource: (server: string, uri: string) => invoke<ContentPart>('mcp_attach_resource', { server, uri }),
  /** Every ready server's prompts (offered as `/<server>:<prompt>`). */
  mcpPrompts: () => invoke<McpPromptView[]>('mcp_prompts'),
  /** A prompt fetched with its arguments, as a message. */
  mcpGetPrompt: (server: string, name: string, args: Record<string, string>) =>
    invoke<McpPromptMessage>('mcp_get_prompt', { server, name, arguments: args }),
  /** Adds the servers of `mcpServers` JSON (secrets to the keychain); the settings saved. */
  mcpImport: (text: string) => invoke<Settings>('mcp_import', { text }),
  /** Removes a server and its keychain secrets; the settings saved. */
  mcpRemove: (name: string) => invoke<Settings>('mcp_remove', { name }),
  /** Signs in to a URL server with OAuth (the page opens in the browser); resolves once signed in. */
  mcpSignIn: (name: string) => invoke<void>('mcp_sign_in', { name }),
  mcpSignOut: (name: string) => invoke<void>('mcp_sign_out', { name }),
  /** Whether a URL server's pre-registered OAuth client has a secret in the keychain (masked). */
  mcpClientSecretStatus: (name: string) => invoke<KeyStatus>('mcp_client_secret_status', { name }),
  /** Stores the OAuth client secret in the keychain (the server restarts with it). */
  setMcpClientSecret: (name: string, secret: string) => invoke<KeyStatus>('set_mcp_client_secret', { name, secret }),
  deleteMcpClientSecret: (name: string) => invoke<void>('delete_mcp_client_secret', { name }),
  getKeyStatus: (providerId: string) => invoke<KeyStatus>('get_key_status', { providerId }),
  setApiKey: (providerId: string, key: string) => invoke<KeyStatus>('set_api_key', { providerId, key }),
  deleteApiKey: (providerId: string) => invoke<void>('delete_api_key', { providerId }),
  channelStatuses: () => invoke<ChannelStatus[]>('channel_statuses'),
  channelTokenStatus: (name: string) => invoke<KeyStatus>('channel_token_status', { name }),
  setChannelToken: (name: string, token: string) => invoke<KeyStatus>('set_channel_token', { name, token }),
  deleteChannelToken: (name: string) => invoke<void>('delete_channel_token', { name }),
  /** Sends the test message and waits for the channel's delivery result. */
  testChannel: (name: string) => invoke<ChannelDelivery>('test_channel', { name }),
  /** Lists the provider's models; `apiKey` is a key typed in the form and not saved yet. */
  testConnection: (provider: ProviderEntry, apiKey: string | null = null) =>
    invoke<ListedModel[]>('test_connection', { provider, apiKey }),
  /** Model servers running on this machine (Ollama, LM Studio, llama.cpp, vLLM). */
  detectLocalServers: () => invoke<DetectedServer[]>('detect_local_servers'),
  /** The models folder, its GGUF files and the recommended downloads (Settings → Models). */
  localModels: () => invoke<LocalModelsView>('local_models'),
  /** Copies a GGUF file into the models folder, or links it there with `link`; rejects a file
   * that is not a usable GGUF (`local_model_unusable`). */
  importLocalModel: (path: string, link: boolean) => invoke<LocalModel>('import_local_model', { path, link }),
  /** Deletes a model's file (a link, not its target) from the models folder. */
  removeLocalModel: (name: string) => invoke<void>('remove_local_model', { name }),
  /** The model downloads running, paused or failed; each change comes as `models://download`. */
  modelDownloads: () => invoke<ModelDownload[]>('model_downloads'),
  /** Starts downloading a model into the models folder (through the network guard); rejects a
   * bad source or SHA-256 (`download_refused`), a model already there, or a file already being
   * downloaded (`download_running`). */
  startModelDownload: (params: StartDownloadParams) => invoke<ModelDownload>('start_model_download', { params }),
  pauseModelDownload: (id: string) => invoke<void>('pause_model_download', { id }),
  resumeModelDownload: (id: string) => invoke<void>('resume_model_download', { id }),
  /** Stops a download and deletes its partial file (a failed one is dismissed). */
  cancelModelDownload: (id: string) => invoke<void>('cancel_model_download', { id }),
  listAudit: (limit: number) => invoke<AuditRecord[]>('list_audit', { limit }),
  /** The first screen is on display; `marks` are wall-clock epoch milliseconds (logged). */
  appReady: (marks: Record<string, number>) => invoke<void>('app_ready', { marks }),
  /** Why Hearth could not start (only on the start-up error screen). */
  startupProblem: () => invoke<StartupProblem>('startup_problem'),
  quitApp: () => invoke<void>('quit_app'),
  restartApp: () => invoke<void>('restart_app'),
  /** Shows the data dir (config.toml, logs) in the file manager: on the start-up error screen and
   * on the card of a part of the window that failed. */
  openDataFolder: () => invoke<void>('open_data_folder'),
  /** Writes a part of the window that failed (`what`) and its error to Hearth's log. */
  logUiError: (what: string, error: string) => invoke<void>('log_ui_error', { what, error }),
  /** The running version and whether updates are configured (Settings → About). */
  about: () => invoke<AboutInfo>('about'),
  /** Asks the configured update endpoint for a newer version. */
  checkForUpdate: () => invoke<UpdateCheck>('check_for_update'),
  /** Downloads, verifies and installs the version the last check offered, then restarts. */
  installUpdate: () => invoke<void>('install_update'),
  /** The browser program the agent would run and whether its browser is running (Settings → Browser). */
  browserStatus: () => invoke<BrowserStatus>('browser_status'),
  /** What the OS sandbox of the agent's commands gives on this system (Settings → Security). */
  sandboxStatus: () => invoke<SandboxStatus>('sandbox_status'),
  chatSandbox: (sessionId: string) => invoke<ChatSandbox>('chat_sandbox', { sessionId }),
  setChatSandbox: (sessionId: string, choice: ChatSandbox) =>
    invoke<void>('set_chat_sandbox', { sessionId, choice }),
  /** Starts the agent's browser with its window shown, to log in to a site or watch. */
  openAgentBrowser: () => invoke<void>('open_agent_browser'),
  /** Closes the agent's browser and deletes its profile (cookies, logins, cache). */
  clearBrowserData: () => invoke<void>('clear_browser_data'),
  /** Hands the window's state to the backend before the hidden window is torn down. */
  parkWindow: (window: ParkedWindow) => invoke<void>('park_window', { window }),
  /** What the previous (torn down) window parked; empty after a fresh start. */
  unparkWindow: () => invoke<ParkedWindow>('unpark_window'),
  /** Acts on the answer to "keep running without a tray icon?" (saved first): hide or quit. */
  answerClose: (choice: CloseWithoutTray) => invoke<void>('answer_close', { choice }),

  listJobs: () => invoke<JobView[]>('list_jobs'),
  createJob: (form: JobForm) => invoke<JobView>('create_job', { form }),
  updateJob: (id: string, form: JobForm) => invoke<JobView>('update_job', { id, form }),
  setJobEnabled: (id: string, enabled: boolean) => invoke<JobView>('set_job_enabled', { id, enabled }),
  deleteJob: (id: string) => invoke<void>('delete_job', { id }),
  runJobNow: (id: string) => invoke<JobView>('run_job_now', { id }),
  jobHistory: (id: string, limit: number) => invoke<RunView[]>('job_history', { id, limit }),
  previewSchedule: (schedule: string, tz: string | null) => invoke<Preview>('preview_schedule', { schedule, tz }),
  jobApprovalRequest: (id: string) => invoke<AuthorizationGrant>('job_approval_request', { id }),
  /** Approves the job for the high-risk tools and every tool of `mcpServers`. */
  approveJob: (id: string, mcpServers: string[]) => invoke<JobView>('approve_job', { id, mcpServers }),
  revokeJobApproval: (id: string) => invoke<JobView>('revoke_job_approval', { id }),

  listMemories: (offset: number, limit: number) => invoke<MemoryList>('list_memories', { offset, limit }),
  searchMemories: (query: string, limit: number) => invoke<MemoryList>('search_memories', { query, limit }),
  addMemory: (form: MemoryForm) => invoke<Memory>('add_memory', { form }),
  updateMemory: (id: number, form: MemoryForm) => invoke<Memory>('update_memory', { id, form }),
  setMemoryPinned: (id: number, pinned: boolean) => invoke<Memory>('set_memory_pinned', { id, pinned }),
  deleteMemory: (id: number) => invoke<void>('delete_memory', { id }),
  listContradictions: () => invoke<Contradiction[]>('list_contradictions'),
  resolveContradiction: (id: number, winnerId: number) => invoke<Memory>('resolve_contradiction', { id, winnerId }),

  listSkills: () => invoke<SkillsList>('list_skills'),
  viewSkill: (name: string) => invoke<SkillDetail>('view_skill', { name }),
  setSkillEnabled: (name: string, enabled: boolean) => invoke<void>('set_skill_enabled', { name, enabled }),
  removeSkill: (name: string) => invoke<void>('remove_skill', { name }),
  /** Fetches, unpacks and checks a skill without installing it; confirm or cancel by token. */
  previewSkillInstall: (kind: InstallKind, location: string) =>
    invoke<InstallPreview>('preview_skill_install', { kind, location }),
  confirmSkillInstall: (token: string) => invoke<SkillItem>('confirm_skill_install', { token }),
  cancelSkillInstall: (token: string) => invoke<void>('cancel_skill_install', { token }),
  listSkillImports: () => invoke<ImportCandidate[]>('list_skill_imports'),
  importSkills: (dirs: string[]) => invoke<SkillItem[]>('import_skills', { dirs }),
  /** Sends a message as a run of `skill`: its instructions join the turn, only what it declares. */
  sendSkillMessage: (sessionId: string, skill: string, content: ContentPart[], onEvent: EventHandler) =>
    invoke<void>('send_skill_message', { sessionId, skill, content, onEvent: channel(onEvent) }),
  artifactView: (id: string) => invoke<ArtifactView>('artifact_view', { id }),
  saveArtifact: (id: string) => invoke<string | null>('save_artifact', { id }),
  knowledgeStatus: () => invoke<KnowledgeStatus>('knowledge_status'),
  knowledgeRebuild: () => invoke<boolean>('knowledge_rebuild'),
  knowledgeSearch: (query: string, limit: number) => invoke<Citation[]>('knowledge_search', { query, limit }),
  /** Opens a cited file at its page or line where an installed viewer can; how it did. */
  openCitation: (hit: Citation) => invoke<Opened>('open_knowledge_file', { path: hit.file, unit: hit.unit, first: hit.first }),
};

/** The message of a rejected command: the backend rejects with a string. */
export { errorText } from './errors';
