// Generated from the `#[command]` functions of src-tauri/src/commands by `cargo test -p hearth --lib contract`: do not edit.
import type { Channel } from "@tauri-apps/api/core";
import type { AboutInfo } from "./AboutInfo";
import type { AppError } from "./AppError";
import type { ApprovalDecision } from "./ApprovalDecision";
import type { ArtifactView } from "./ArtifactView";
import type { AuditRecord } from "./AuditRecord";
import type { AuthorizationGrant } from "./AuthorizationGrant";
import type { BrowserStatus } from "./BrowserStatus";
import type { ChannelDelivery } from "./ChannelDelivery";
import type { ChannelStatus } from "./ChannelStatus";
import type { ChatSandbox } from "./ChatSandbox";
import type { Citation } from "./Citation";
import type { CloseWithoutTray } from "./CloseWithoutTray";
import type { ContentPart } from "./ContentPart";
import type { Contradiction } from "./Contradiction";
import type { DetectedServer } from "./DetectedServer";
import type { EngineEvent } from "./EngineEvent";
import type { FormAnswer } from "./FormAnswer";
import type { ImportCandidate } from "./ImportCandidate";
import type { InstallKind } from "./InstallKind";
import type { InstallPreview } from "./InstallPreview";
import type { JobForm } from "./JobForm";
import type { JobView } from "./JobView";
import type { KeyStatus } from "./KeyStatus";
import type { KnowledgeStatus } from "./KnowledgeStatus";
import type { ListedModel } from "./ListedModel";
import type { LocalModel } from "./LocalModel";
import type { LocalModelsView } from "./LocalModelsView";
import type { McpPromptMessage } from "./McpPromptMessage";
import type { McpPromptView } from "./McpPromptView";
import type { McpResourceListing } from "./McpResourceListing";
import type { McpServerView } from "./McpServerView";
import type { Memory } from "./Memory";
import type { MemoryForm } from "./MemoryForm";
import type { MemoryList } from "./MemoryList";
import type { MessagePage } from "./MessagePage";
import type { ModelDownload } from "./ModelDownload";
import type { Opened } from "./Opened";
import type { ParkedWindow } from "./ParkedWindow";
import type { PolicyRule } from "./PolicyRule";
import type { Preview } from "./Preview";
import type { ProviderEntry } from "./ProviderEntry";
import type { RuleError } from "./RuleError";
import type { RunView } from "./RunView";
import type { SandboxStatus } from "./SandboxStatus";
import type { SearchHit } from "./SearchHit";
import type { Session } from "./Session";
import type { Settings } from "./Settings";
import type { SkillDetail } from "./SkillDetail";
import type { SkillItem } from "./SkillItem";
import type { SkillsList } from "./SkillsList";
import type { StartDownloadParams } from "./StartDownloadParams";
import type { StartupProblem } from "./StartupProblem";
import type { SubAgentRun } from "./SubAgentRun";
import type { TerminalEvent } from "./TerminalEvent";
import type { TodoList } from "./TodoList";
import type { UpdateCheck } from "./UpdateCheck";
import type { WorkspaceMedia } from "./WorkspaceMedia";

/** Every command the app answers, by name: the arguments `invoke` takes (camelCase keys), what it resolves with and what it rejects with. */
export type Commands = {
  list_sessions: { args: {}; result: Array<Session>; error: AppError };
  /** A new chat, titled in the settings' language until its first message names it. Without a title of its own, an empty "New chat" nobody used yet is reused (and moved to the top) instead, so the sidebar never holds a row of empty chats. */
  create_session: { args: { title: string | null }; result: Session; error: AppError };
  rename_session: { args: { id: string; title: string }; result: void; error: AppError };
  set_session_pinned: { args: { id: string; pinned: boolean }; result: void; error: AppError };
  set_session_model: { args: { id: string; model: string | null }; result: void; error: AppError };
  set_session_workspace: { args: { id: string; workspace: string }; result: void; error: AppError };
  delete_session: { args: { id: string }; result: void; error: AppError };
  /** A page of a chat's messages: the `limit` newest before message `before` (the newest when absent), reaching back to message `through` when given (a search hit); each tool result with the views its card shows. */
  list_message_page: { args: { sessionId: string; before: number | null; through: number | null; limit: number }; result: MessagePage; error: AppError };
  search_messages: { args: { query: string }; result: Array<SearchHit>; error: AppError };
  send_message: { args: { sessionId: string; content: Array<ContentPart>; onEvent: Channel<EngineEvent> }; result: void; error: AppError };
  regenerate: { args: { sessionId: string; onEvent: Channel<EngineEvent> }; result: void; error: AppError };
  /** Forks the chat before `message_id` and sends the edited message in the fork (stored before a provider is looked at, like a sent one). A message that ran a skill (a skill part kept beside the edited text) runs it again, as the skill is now. */
  edit_message: { args: { sessionId: string; messageId: number; content: Array<ContentPart>; onEvent: Channel<EngineEvent> }; result: Session; error: AppError };
  cancel_turn: { args: { sessionId: string }; result: void; error: AppError };
  /** Cancels a sub-agent: at once when it runs in the app, else by asking the process running it (`hearth-cli`) through the store. */
  cancel_subagent: { args: { runId: string }; result: void; error: AppError };
  /** The newest background sub-agents of every chat, for the background-tasks panel. */
  list_background_tasks: { args: {}; result: Array<SubAgentRun>; error: AppError };
  resolve_approval: { args: { requestId: string; decision: ApprovalDecision }; result: void; error: AppError };
  /** The session's checklist; `None` when it never had one. */
  todo_list: { args: { sessionId: string }; result: TodoList | null; error: AppError };
  /** Delivers the user's answer (an option or their own words) to a waiting question. */
  answer_question: { args: { requestId: string; answer: string }; result: void; error: AppError };
  /** Delivers the form card's answer (filled in, declined or cancelled) to a waiting form; an answer that does not fit the form is refused with the field it is about. */
  answer_form: { args: { requestId: string; answer: FormAnswer }; result: void; error: AppError };
  /** Async, and the copy and the document parse on a blocking thread: a slow parse (up to its time limit) never holds the main thread. */
  prepare_attachment: { args: { sessionId: string; path: string }; result: ContentPart; error: AppError };
  /** Pasted images arrive as base64 bytes. */
  attach_bytes: { args: { sessionId: string; name: string; mimeType: string; dataBase64: string }; result: ContentPart; error: AppError };
  /** The image on the OS clipboard as a PNG part, or nothing when it holds none (the page asks when its paste event carried neither an image nor text). */
  paste_clipboard_image: { args: { sessionId: string; name: string }; result: ContentPart | null; error: AppError };
  read_workspace_media: { args: { sessionId: string; path: string }; result: WorkspaceMedia; error: AppError };
  channel_statuses: { args: {}; result: Array<ChannelStatus>; error: AppError };
  channel_token_status: { args: { name: string }; result: KeyStatus; error: AppError };
  set_channel_token: { args: { name: string; token: string }; result: KeyStatus; error: AppError };
  delete_channel_token: { args: { name: string }; result: void; error: AppError };
  /** Sends the test message (a webhook's chat `test`, a Telegram bot's first allowed chat) and waits for the channel's answer. */
  test_channel: { args: { name: string }; result: ChannelDelivery; error: AppError };
  artifact_view: { args: { id: string }; result: ArtifactView; error: AppError };
  /** Asks where to save the artifact and writes it there; the path written, or `None` when the user cancelled. */
  save_artifact: { args: { id: string }; result: string | null; error: AppError };
  knowledge_status: { args: {}; result: KnowledgeStatus; error: AppError };
  local_models: { args: {}; result: LocalModelsView; error: AppError };
  import_local_model: { args: { path: string; link: boolean }; result: LocalModel; error: AppError };
  /** Removes the file (a link, not its target); a loaded copy of it is unloaded first. */
  remove_local_model: { args: { name: string }; result: void; error: AppError };
  model_downloads: { args: {}; result: Array<ModelDownload>; error: AppError };
  start_model_download: { args: { params: StartDownloadParams }; result: ModelDownload; error: AppError };
  pause_model_download: { args: { id: string }; result: void; error: AppError };
  resume_model_download: { args: { id: string }; result: void; error: AppError };
  /** Stops the download and deletes its partial file (a failed one is only dismissed). */
  cancel_model_download: { args: { id: string }; result: void; error: AppError };
  /** Starts a pass over what changed (after the running one, if any). */
  knowledge_rebuild: { args: {}; result: boolean; error: AppError };
  knowledge_search: { args: { query: string; limit: number }; result: Array<Citation>; error: AppError };
  /** Opens an indexed file (only those) at the citation's place (a PDF page, a text line) when an installed viewer takes it, else in the app the OS gives its type; which it did. */
  open_knowledge_file: { args: { path: string; unit: string; first: number }; result: Opened; error: AppError };
  get_settings: { args: {}; result: Settings; error: never };
  save_settings: { args: { settings: Settings }; result: void; error: AppError };
  get_key_status: { args: { providerId: string }; result: KeyStatus; error: AppError };
  set_api_key: { args: { providerId: string; key: string }; result: KeyStatus; error: AppError };
  delete_api_key: { args: { providerId: string }; result: void; error: AppError };
  /** Lists the models the provider offers with their context windows, proving the URL and key work: with `api_key` when the form holds one not yet saved (it reaches the keychain only on save), else the stored key. */
  test_connection: { args: { provider: ProviderEntry; apiKey: string | null }; result: Array<ListedModel>; error: AppError };
  /** Model servers running on this machine (Ollama, LM Studio, llama.cpp, vLLM on their usual ports), offered as one-click providers when none is configured. */
  detect_local_servers: { args: {}; result: Array<DetectedServer>; error: never };
  list_audit: { args: { limit: number }; result: Array<AuditRecord>; error: AppError };
  /** Called by the UI once its first screen is rendered: records the start-up time, with the UI's own marks (`name` → wall-clock epoch milliseconds: page navigation start, script evaluated, first data loaded) logged as milliseconds since the process started. */
  app_ready: { args: { marks: { [key in string]: number } | null }; result: void; error: never };
  /** Writes the part of the window that failed (`what`, as the user reads it) and its error, with where it was thrown, to Hearth's log. */
  log_ui_error: { args: { what: string; error: string }; result: void; error: never };
  /** Shows the data dir in the file manager. */
  open_data_folder: { args: {}; result: void; error: AppError };
  validate_rules: { args: { rules: Array<PolicyRule> }; result: void; error: RuleError };
  mcp_servers: { args: {}; result: Array<McpServerView>; error: never };
  mcp_restart: { args: { name: string }; result: void; error: AppError };
  /** Adds the servers of `text` (`{"mcpServers": {…}}`); returns the settings saved. */
  mcp_import: { args: { text: string }; result: Settings; error: AppError };
  /** Removes the server `name` and deletes its secrets from the keychain; returns the settings saved. */
  mcp_remove: { args: { name: string }; result: Settings; error: AppError };
  mcp_resources: { args: {}; result: McpResourceListing; error: AppError };
  /** `uri` of `server` as text attached to a message (the server and URI beside it as data, for the chip): `Attached MCP resource `server` `uri`:` and its text (cut at 100,000 characters) in a fenced block; binary contents by the file they were saved to. */
  mcp_attach_resource: { args: { server: string; uri: string }; result: ContentPart; error: AppError };
  mcp_prompts: { args: {}; result: Array<McpPromptView>; error: AppError };
  mcp_get_prompt: { args: { server: string; name: string; arguments: { [key in string]: string } }; result: McpPromptMessage; error: AppError };
  mcp_sign_in: { args: { name: string }; result: void; error: AppError };
  mcp_sign_out: { args: { name: string }; result: void; error: AppError };
  /** Whether the server `name`'s pre-registered OAuth client has a secret in the keychain. */
  mcp_client_secret_status: { args: { name: string }; result: KeyStatus; error: AppError };
  /** Stores the secret of the server `name`'s pre-registered OAuth client and restarts the server so that it signs in (and refreshes its tokens) with it. */
  set_mcp_client_secret: { args: { name: string; secret: string }; result: KeyStatus; error: AppError };
  /** Deletes the secret of the server `name`'s OAuth client and restarts the server without it. */
  delete_mcp_client_secret: { args: { name: string }; result: void; error: AppError };
  list_jobs: { args: {}; result: Array<JobView>; error: AppError };
  create_job: { args: { form: JobForm }; result: JobView; error: AppError };
  update_job: { args: { id: string; form: JobForm }; result: JobView; error: AppError };
  set_job_enabled: { args: { id: string; enabled: boolean }; result: JobView; error: AppError };
  delete_job: { args: { id: string }; result: void; error: AppError };
  run_job_now: { args: { id: string }; result: JobView; error: AppError };
  job_history: { args: { id: string; limit: number }; result: Array<RunView>; error: AppError };
  preview_schedule: { args: { schedule: string; tz: string | null }; result: Preview; error: AppError };
  /** What approving the job would bind (instruction, frequency, target, tools), for the confirmation dialog; records nothing. */
  job_approval_request: { args: { id: string }; result: AuthorizationGrant; error: AppError };
  /** Records the approval; called only from the confirmation dialog's "Approve" button, with the MCP servers whose tools the job may use (`mcp__<server>__*`, replacing those named before). */
  approve_job: { args: { id: string; mcpServers: Array<string> }; result: JobView; error: AppError };
  /** Withdraws the job's approval: its runs use no high-risk tool until it is approved again. */
  revoke_job_approval: { args: { id: string }; result: JobView; error: AppError };
  list_memories: { args: { offset: number; limit: number }; result: MemoryList; error: AppError };
  search_memories: { args: { query: string; limit: number }; result: MemoryList; error: AppError };
  add_memory: { args: { form: MemoryForm }; result: Memory; error: AppError };
  update_memory: { args: { id: number; form: MemoryForm }; result: Memory; error: AppError };
  set_memory_pinned: { args: { id: number; pinned: boolean }; result: Memory; error: AppError };
  delete_memory: { args: { id: number }; result: void; error: AppError };
  list_skills: { args: {}; result: SkillsList; error: AppError };
  view_skill: { args: { name: string }; result: SkillDetail; error: AppError };
  set_skill_enabled: { args: { name: string; enabled: boolean }; result: void; error: AppError };
  /** Deletes a user or imported skill's folder (the page's undo window has passed by then). */
  remove_skill: { args: { name: string }; result: void; error: AppError };
  /** Skill folders other agents keep on this machine, for the import view. */
  list_skill_imports: { args: {}; result: Array<ImportCandidate>; error: AppError };
  /** Copies the chosen folders in (each staged and validated like an install); stops at the first that fails, keeping those before it. */
  import_skills: { args: { dirs: Array<string> }; result: Array<SkillItem>; error: AppError };
  /** Sends a message as a run of the skill `skill` (the composer's `/` picker): the message keeps what the user typed with the skill as a part beside it (the model reads its instructions there), its dialect's tools are offered, and only what it declares. */
  send_skill_message: { args: { sessionId: string; skill: string; content: Array<ContentPart>; onEvent: Channel<EngineEvent> }; result: void; error: AppError };
  preview_skill_install: { args: { kind: InstallKind; location: string }; result: InstallPreview; error: AppError };
  confirm_skill_install: { args: { token: string }; result: SkillItem; error: AppError };
  cancel_skill_install: { args: { token: string }; result: void; error: never };
  /** Open contradictions, newest first. */
  list_contradictions: { args: {}; result: Array<Contradiction>; error: AppError };
  /** Keeps `winner_id` (one side of contradiction `id`) and deletes the other side. */
  resolve_contradiction: { args: { id: number; winnerId: number }; result: Memory; error: AppError };
  /** Starts feeding `on_event` with the session `session_id`; false when no such session is open (it ended and was forgotten, or the app restarted since). */
  watch_terminal: { args: { sessionId: string; onEvent: Channel<TerminalEvent> }; result: boolean; error: never };
  /** Types `data` into the session `session_id`: the bytes the terminal view sends for the keys pressed (text, `\r` for Enter, DEL for Backspace, ETX for Ctrl-C, escape sequences for the arrows). Returns the bytes written. */
  write_terminal: { args: { sessionId: string; data: string }; result: number; error: AppError };
  /** The UI hands over its state before the hidden window is torn down. */
  park_window: { args: { window: ParkedWindow }; result: void; error: never };
  /** What the previous window parked, and what was asked for while there was none (empty after a fresh start). */
  unpark_window: { args: {}; result: ParkedWindow; error: never };
  /** Acts on the answer to the close question on a desktop without a tray icon (the UI has saved it in `close_without_tray` first): the window hides, or Hearth quits. */
  answer_close: { args: { choice: CloseWithoutTray }; result: void; error: never };
  about: { args: {}; result: AboutInfo; error: never };
  check_for_update: { args: {}; result: UpdateCheck; error: AppError };
  install_update: { args: {}; result: void; error: AppError };
  browser_status: { args: {}; result: BrowserStatus; error: AppError };
  /** Starts the agent's browser with its window shown (or shows a new one), on its own profile. */
  open_agent_browser: { args: {}; result: void; error: AppError };
  /** Closes the agent's browser and deletes its profile (cookies, logins, cache). */
  clear_browser_data: { args: {}; result: void; error: AppError };
  /** Starts a program in the sandbox to see what applies (off the runtime's threads). */
  sandbox_status: { args: {}; result: SandboxStatus; error: AppError };
  /** What the chat `session_id` chose about its commands' sandbox. */
  chat_sandbox: { args: { sessionId: string }; result: ChatSandbox; error: never };
  /** Records what the chat `session_id` chose (the chat's "turn off"). */
  set_chat_sandbox: { args: { sessionId: string; choice: ChatSandbox }; result: void; error: never };
  startup_problem: { args: {}; result: StartupProblem; error: never };
  quit_app: { args: {}; result: void; error: never };
  restart_app: { args: {}; result: void; error: never };
};
