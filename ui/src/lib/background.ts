// The background sub-agents of every chat, as the sidebar's panel lists them: the newest runs
// from the store, each replaced by its live progress as that arrives.
import type { SubAgentProgress } from './bindings/SubAgentProgress';
import type { SubAgentRun } from './bindings/SubAgentRun';
import type { SubAgentStatus } from './bindings/SubAgentStatus';

/** How many tasks the panel shows. */
export const BACKGROUND_SHOWN = 5;

export interface BackgroundTask {
  runId: string;
  goal: string;
  status: SubAgentStatus;
  /** The child's own session (its transcript). */
  sessionId: string;
  parentSessionId: string;
  currentTool: string | null;
}

export function fromRun(run: SubAgentRun): BackgroundTask {
  return {
    runId: run.id,
    goal: run.goal,
    status: run.status,
    sessionId: run.session_id,
    parentSessionId: run.parent_session_id,
    currentTool: null,
  };
}

/** `tasks` with `progress` applied: a background child's entry replaced (or added first);
 * progress of inline and parallel children leaves the list as it is. */
export function withProgress(tasks: readonly BackgroundTask[], progress: SubAgentProgress): BackgroundTask[] {
  if (progress.mode !== 'background') return [...tasks];
  const task: BackgroundTask = {
    runId: progress.run_id,
    goal: progress.goal,
    status: progress.status,
    sessionId: progress.session_id,
    parentSessionId: progress.parent_session_id,
    currentTool: progress.current_tool,
  };
  const at = tasks.findIndex((t) => t.runId === task.runId);
  if (at < 0) return [task, ...tasks];
  return tasks.map((t, i) => (i === at ? task : t));
}

/** The running ones first, then the newest; at most `BACKGROUND_SHOWN`. */
export function shown(tasks: readonly BackgroundTask[]): BackgroundTask[] {
  const running = tasks.filter((t) => t.status === 'running');
  const ended = tasks.filter((t) => t.status !== 'running');
  return [...running, ...ended].slice(0, BACKGROUND_SHOWN);
}
