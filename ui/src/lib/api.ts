// The components' names for the backend's commands: thin wrappers over `call` (ipc.ts), whose
// command names, argument keys and types and results come from the generated contract
// (`bindings/commands.ts`). Errors reject with the backend's `AppError` (see errors.ts).
import { Channel } from '@tauri-apps/api/core';
import { call } from './ipc';
import type { ApprovalDecision } from './bindings/ApprovalDecision';
import type { FormAnswer } from './bindings/FormAnswer';
import type { ChatSandbox } from './bindings/ChatSandbox';
import type { CloseWithoutTray } from './bindings/CloseWithoutTray';
import type { Citation } from './bindings/Citation';
import type { ContentPart } from './bindings/ContentPart';
import type { EngineEvent } from './bindings/EngineEvent';
import type { ParkedWindow } from './bindings/ParkedWindow';
import type { PolicyRule } from './bindings/PolicyRule';
import type { StartDownloadParams } from './bindings/StartDownloadParams';
import type { ProviderEntry } from './bindings/ProviderEntry';
import type { Settings } from './bindings/Settings';
import type { JobForm } from './jobs';
import type { MemoryForm } from './memory';
import type { InstallKind } from './skills';

import type { TerminalEvent } from './bindings/TerminalEvent';

export type EventHandler = (event: EngineEvent) => void;

function channel(onEvent: EventHandler): Channel<EngineEvent> {
  return new Channel<EngineEvent>(onEvent);
}

export type { TerminalEvent };

export interface PageRequest {
  before?: number | null;
  through?: number | null;
  limit: number;
}

export const api = {
  listSessions: () => call('list_sessions'),
  /** Feeds `onEvent` with a `pty` session's screen and live output; false when it is not open. */
  watchTerminal: (sessionId: string, onEvent: (event: TerminalEvent) => void) =>
    call('watch_terminal', { sessionId, onEvent: new Channel<TerminalEvent>(onEvent) }),
  /** Types `data` (the bytes xterm.js makes of the keys pressed) into a `pty` session. */
  writeTerminal: (sessionId: string, data: string) => call('write_terminal', { sessionId, data }),
  createSession: (title: string | null = null) => call('create_session', { title }),
  renameSession: (id: string, title: string) => call('rename_session', { id, title }),
  setSessionPinned: (id: string, pinned: boolean) => call('set_session_pinned', { id, pinned }),
  deleteSession: (id: string) => call('delete_session', { id }),
  setSessionModel: (id: string, model: string | null) => call('set_session_model', { id, model }),
  setSessionWorkspace: (id: string, workspace: string) => call('set_session_workspace', { id, workspace }),
  /** The `limit` newest messages before `before` (the newest when null), reaching back to
   * `through` when given. */
  listMessagePage: (sessionId: string, page: PageRequest) =>
    call('list_message_page', {
      sessionId,
      before: page.before ?? null,
      through: page.through ?? null,
      limit: page.limit,
    }),
  searchMessages: (query: string) => call('search_messages', { query }),

  sendMessage: (sessionId: string, content: ContentPart[], onEvent: EventHandler) =>
    call('send_message', { sessionId, content, onEvent: channel(onEvent) }),
  cancelTurn: (sessionId: string) => call('cancel_turn', { sessionId }),
  cancelSubagent: (runId: string) => call('cancel_subagent', { runId }),
  listBackgroundTasks: () => call('list_background_tasks'),
  regenerate: (sessionId: string, onEvent: EventHandler) =>
    call('regenerate', { sessionId, onEvent: channel(onEvent) }),
  editMessage: (sessionId: string, messageId: number, content: ContentPart[], onEvent: EventHandler) =>
    call('edit_message', { sessionId, messageId, content, onEvent: channel(onEvent) }),
  resolveApproval: (requestId: string, decision: ApprovalDecision) =>
    call('resolve_approval', { requestId, decision }),
  /** The session's checklist (`todo`); null when it never had one. */
  todoList: (sessionId: string) => call('todo_list', { sessionId }),
  /** Answers a question the model asked (`clarify`). */
  answerQuestion: (requestId: string, answer: string) => call('answer_question', { requestId, answer }),
  /** The form card's answer to a waiting form (refused, with the field, when it does not fit). */
  answerForm: (requestId: string, answer: FormAnswer) => call('answer_form', { requestId, answer }),

  /** A generated image or audio file of the chat's workspace, for a tool card to show. */
  readWorkspaceMedia: (sessionId: string, path: string) =>
    call('read_workspace_media', { sessionId, path }),
  prepareAttachment: (sessionId: string, path: string) => call('prepare_attachment', { sessionId, path }),
  /** The image on the OS clipboard (null when it holds none), for a paste the webview gave no
   * image (WebKitGTK). */
  pasteClipboardImage: (sessionId: string, name: string) =>
    call('paste_clipboard_image', { sessionId, name }),
  attachBytes: (sessionId: string, name: string, mimeType: string, dataBase64: string) =>
    call('attach_bytes', { sessionId, name, mimeType, dataBase64 }),

  getSettings: () => call('get_settings'),
  saveSettings: (settings: Settings) => call('save_settings', { settings }),
  /** Rejects with a `RuleError` (the first bad rule's index and why), as loading would. */
  validateRules: (rules: PolicyRule[]) => call('validate_rules', { rules }),
  /** Every configured MCP server: state, reason, log tail and tools. */
  mcpServers: () => call('mcp_servers'),
  mcpRestart: (name: string) => call('mcp_restart', { name }),
  /** Every ready server's resources and templates. */
  mcpResources: () => call('mcp_resources'),
  /** A resource read as the text part attached to a message. */
  mcpAttachResource: (server: string, uri: string) => call('mcp_attach_resource', { server, uri }),
  /** Every ready server's prompts (offered as `/<server>:<prompt>`). */
  mcpPrompts: () => call('mcp_prompts'),
  /** A prompt fetched with its arguments, as a message. */
  mcpGetPrompt: (server: string, name: string, args: Record<string, string>) =>
    call('mcp_get_prompt', { server, name, arguments: args }),
  /** Adds the servers of `mcpServers` JSON (secrets to the keychain); the settings saved. */
  mcpImport: (text: string) => call('mcp_import', { text }),
  /** Removes a server and its keychain secrets; the settings saved. */
  mcpRemove: (name: string) => call('mcp_remove', { name }),
  /** Signs in to a URL server with OAuth (the page opens in the browser); resolves once signed in. */
  mcpSignIn: (name: string) => call('mcp_sign_in', { name }),
  mcpSignOut: (name: string) => call('mcp_sign_out', { name }),
  /** Whether a URL server's pre-registered OAuth client has a secret in the keychain (masked). */
  mcpClientSecretStatus: (name: string) => call('mcp_client_secret_status', { name }),
  /** Stores the OAuth client secret in the keychain (the server restarts with it). */
  setMcpClientSecret: (name: string, secret: string) => call('set_mcp_client_secret', { name, secret }),
  deleteMcpClientSecret: (name: string) => call('delete_mcp_client_secret', { name }),
  getKeyStatus: (providerId: string) => call('get_key_status', { providerId }),
  setApiKey: (providerId: string, key: string) => call('set_api_key', { providerId, key }),
  deleteApiKey: (providerId: string) => call('delete_api_key', { providerId }),
  channelStatuses: () => call('channel_statuses'),
  channelTokenStatus: (name: string) => call('channel_token_status', { name }),
  setChannelToken: (name: string, token: string) => call('set_channel_token', { name, token }),
  deleteChannelToken: (name: string) => call('delete_channel_token', { name }),
  /** Sends the test message and waits for the channel's delivery result. */
  testChannel: (name: string) => call('test_channel', { name }),
  /** Lists the provider's models; `apiKey` is a key typed in the form and not saved yet. */
  testConnection: (provider: ProviderEntry, apiKey: string | null = null) =>
    call('test_connection', { provider, apiKey }),
  /** Model servers running on this machine (Ollama, LM Studio, llama.cpp, vLLM). */
  detectLocalServers: () => call('detect_local_servers'),
  /** The models folder, its GGUF files and the recommended downloads (Settings → Models). */
  localModels: () => call('local_models'),
  /** Copies a GGUF file into the models folder, or links it there with `link`; rejects a file
   * that is not a usable GGUF (`local_model_unusable`). */
  importLocalModel: (path: string, link: boolean) => call('import_local_model', { path, link }),
  /** Deletes a model's file (a link, not its target) from the models folder. */
  removeLocalModel: (name: string) => call('remove_local_model', { name }),
  /** The model downloads running, paused or failed; each change comes as `models://download`. */
  modelDownloads: () => call('model_downloads'),
  /** Starts downloading a model into the models folder (through the network guard); rejects a
   * bad source or SHA-256 (`download_refused`), a model already there, or a file already being
   * downloaded (`download_running`). */
  startModelDownload: (params: StartDownloadParams) => call('start_model_download', { params }),
  pauseModelDownload: (id: string) => call('pause_model_download', { id }),
  resumeModelDownload: (id: string) => call('resume_model_download', { id }),
  /** Stops a download and deletes its partial file (a failed one is dismissed). */
  cancelModelDownload: (id: string) => call('cancel_model_download', { id }),
  listAudit: (limit: number) => call('list_audit', { limit }),
  /** The first screen is on display; `marks` are wall-clock epoch milliseconds (logged). */
  appReady: (marks: Record<string, number>) => call('app_ready', { marks }),
  /** Why Hearth could not start (only on the start-up error screen). */
  startupProblem: () => call('startup_problem'),
  quitApp: () => call('quit_app'),
  restartApp: () => call('restart_app'),
  /** Shows the data dir (config.toml, logs) in the file manager: on the start-up error screen and
   * on the card of a part of the window that failed. */
  openDataFolder: () => call('open_data_folder'),
  /** Writes a part of the window that failed (`what`) and its error to Hearth's log. */
  logUiError: (what: string, error: string) => call('log_ui_error', { what, error }),
  /** The running version and whether updates are configured (Settings → About). */
  about: () => call('about'),
  /** Asks the configured update endpoint for a newer version. */
  checkForUpdate: () => call('check_for_update'),
  /** Downloads, verifies and installs the version the last check offered, then restarts. */
  installUpdate: () => call('install_update'),
  /** The browser program the agent would run and whether its browser is running (Settings → Browser). */
  browserStatus: () => call('browser_status'),
  /** What the OS sandbox of the agent's commands gives on this system (Settings → Security). */
  sandboxStatus: () => call('sandbox_status'),
  chatSandbox: (sessionId: string) => call('chat_sandbox', { sessionId }),
  setChatSandbox: (sessionId: string, choice: ChatSandbox) =>
    call('set_chat_sandbox', { sessionId, choice }),
  /** Starts the agent's browser with its window shown, to log in to a site or watch. */
  openAgentBrowser: () => call('open_agent_browser'),
  /** Closes the agent's browser and deletes its profile (cookies, logins, cache). */
  clearBrowserData: () => call('clear_browser_data'),
  /** Hands the window's state to the backend before the hidden window is torn down. */
  parkWindow: (window: ParkedWindow) => call('park_window', { window }),
  /** What the previous (torn down) window parked; empty after a fresh start. */
  unparkWindow: () => call('unpark_window'),
  /** Acts on the answer to "keep running without a tray icon?" (saved first): hide or quit. */
  answerClose: (choice: CloseWithoutTray) => call('answer_close', { choice }),

  listJobs: () => call('list_jobs'),
  createJob: (form: JobForm) => call('create_job', { form }),
  updateJob: (id: string, form: JobForm) => call('update_job', { id, form }),
  setJobEnabled: (id: string, enabled: boolean) => call('set_job_enabled', { id, enabled }),
  deleteJob: (id: string) => call('delete_job', { id }),
  runJobNow: (id: string) => call('run_job_now', { id }),
  jobHistory: (id: string, limit: number) => call('job_history', { id, limit }),
  previewSchedule: (schedule: string, tz: string | null) => call('preview_schedule', { schedule, tz }),
  jobApprovalRequest: (id: string) => call('job_approval_request', { id }),
  /** Approves the job for the high-risk tools and every tool of `mcpServers`. */
  approveJob: (id: string, mcpServers: string[]) => call('approve_job', { id, mcpServers }),
  revokeJobApproval: (id: string) => call('revoke_job_approval', { id }),

  listMemories: (offset: number, limit: number) => call('list_memories', { offset, limit }),
  searchMemories: (query: string, limit: number) => call('search_memories', { query, limit }),
  addMemory: (form: MemoryForm) => call('add_memory', { form }),
  updateMemory: (id: number, form: MemoryForm) => call('update_memory', { id, form }),
  setMemoryPinned: (id: number, pinned: boolean) => call('set_memory_pinned', { id, pinned }),
  deleteMemory: (id: number) => call('delete_memory', { id }),
  listContradictions: () => call('list_contradictions'),
  resolveContradiction: (id: number, winnerId: number) => call('resolve_contradiction', { id, winnerId }),

  listSkills: () => call('list_skills'),
  viewSkill: (name: string) => call('view_skill', { name }),
  setSkillEnabled: (name: string, enabled: boolean) => call('set_skill_enabled', { name, enabled }),
  removeSkill: (name: string) => call('remove_skill', { name }),
  /** Fetches, unpacks and checks a skill without installing it; confirm or cancel by token. */
  previewSkillInstall: (kind: InstallKind, location: string) =>
    call('preview_skill_install', { kind, location }),
  confirmSkillInstall: (token: string) => call('confirm_skill_install', { token }),
  cancelSkillInstall: (token: string) => call('cancel_skill_install', { token }),
  listSkillImports: () => call('list_skill_imports'),
  importSkills: (dirs: string[]) => call('import_skills', { dirs }),
  /** Sends a message as a run of `skill`: its instructions join the turn, only what it declares. */
  sendSkillMessage: (sessionId: string, skill: string, content: ContentPart[], onEvent: EventHandler) =>
    call('send_skill_message', { sessionId, skill, content, onEvent: channel(onEvent) }),
  artifactView: (id: string) => call('artifact_view', { id }),
  saveArtifact: (id: string) => call('save_artifact', { id }),
  knowledgeStatus: () => call('knowledge_status'),
  knowledgeRebuild: () => call('knowledge_rebuild'),
  knowledgeSearch: (query: string, limit: number) => call('knowledge_search', { query, limit }),
  /** Opens a cited file at its page or line where an installed viewer can; how it did. */
  openCitation: (hit: Citation) => call('open_knowledge_file', { path: hit.file, unit: hit.unit, first: hit.first }),
};

/** The message of a rejected command: the backend rejects with a string. */
export { errorText } from './errors';
