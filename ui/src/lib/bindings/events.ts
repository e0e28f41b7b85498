// Generated from src-tauri/src/events.rs by `cargo test -p hearth --lib contract`: do not edit.
import type { ModelDownload } from "./ModelDownload";
import type { Progress } from "./Progress";
import type { SubAgentProgress } from "./SubAgentProgress";

/** Every event the app sends the window, by name: the payload its listeners receive (`null` for none). */
export type Events = {
  /** The tray menu's "New chat" was chosen (the window is already shown). */
  "tray://new-chat": null;
  /** A notification about a chat was clicked: open this session (the window is already shown). */
  "notification://open-chat": string;
  /** The hidden window is about to be torn down: hand its state over with `park_window`. */
  "window://park": null;
  /** The window was closed on a desktop without tray icons while `close_without_tray` is "ask": ask whether to keep running or quit. */
  "window://close-ask": null;
  /** The model wrote this chat's title after its first reply (the sidebar lists them again). */
  "session://titled": string;
  /** A job run, a channel's message or a background sub-agent added messages to this session (the open chat reloads). */
  "session://appended": string;
  /** A sub-agent's progress, also after the turn that started it ended (background children). */
  "subagent://progress": SubAgentProgress;
  /** Jobs or their runs changed. */
  "jobs://changed": null;
  /** The channels were built again and the gateway restarted. */
  "channels://changed": null;
  /** A model download changed (progress, paused, failed, finished). */
  "models://download": ModelDownload;
  /** The knowledge index's pass moved. */
  "knowledge://progress": Progress;
};
