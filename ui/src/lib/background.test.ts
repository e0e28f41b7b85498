import { describe, expect, it } from 'vitest';
import type { SubAgentProgress } from './bindings/SubAgentProgress';
import { BACKGROUND_SHOWN, shown, withProgress, type BackgroundTask } from './background';

function progress(runId: string, extra: Partial<SubAgentProgress> = {}): SubAgentProgress {
  return {
    run_id: runId,
    parent_session_id: 'desktop:parent',
    session_id: `task:${runId}`,
    goal: `goal ${runId}`,
    mode: 'background',
    status: 'running',
    iterations: 1,
    current_tool: null,
    elapsed_ms: 10,
    usage: { input_tokens: 1, output_tokens: 1 },
    ...extra,
  } as SubAgentProgress;
}

describe('background tasks', () => {
  it('adds a new background child first and replaces a known one in place', () => {
    let tasks: BackgroundTask[] = [];
    tasks = withProgress(tasks, progress('a'));
    tasks = withProgress(tasks, progress('b'));
    expect(tasks.map((t) => t.runId)).toEqual(['b', 'a']);
    tasks = withProgress(tasks, progress('a', { status: 'completed', current_tool: 'read_file' }));
    expect(tasks.map((t) => [t.runId, t.status])).toEqual([
      ['b', 'running'],
      ['a', 'completed'],
    ]);
    expect(tasks[1].sessionId).toBe('task:a');
  });

  it('leaves inline and parallel children to the chat cards', () => {
    const tasks = withProgress([], progress('x', { mode: 'parallel' }));
    expect(tasks).toEqual([]);
  });

  it('shows the running ones first, then the newest, at most five', () => {
    let tasks: BackgroundTask[] = [];
    for (const id of ['1', '2', '3', '4', '5', '6']) tasks = withProgress(tasks, progress(id, { status: 'completed' }));
    tasks = withProgress(tasks, progress('1', { status: 'running' }));
    const listed = shown(tasks);
    expect(listed).toHaveLength(BACKGROUND_SHOWN);
    expect(listed.map((t) => t.runId)).toEqual(['1', '6', '5', '4', '3']);
  });
});
