import { describe, expect, it } from 'vitest';
import type { ToolView } from '../bindings/ToolView';
import type { AuditReason } from '../bindings/AuditReason';
import type { EngineEvent } from '../bindings/EngineEvent';
import type { Message } from '../bindings/Message';
import { addPendingUser, applyEvent, dropLastReply, dropPendingUser, failTurn, forkForEdit, newChatState, type ChatState } from './reducer';
import { buildRows } from './rows';

const usage = { input_tokens: 10, output_tokens: 5 };
const call = { id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' };
const asked: AuditReason = {
  reason: { code: 'needs_approval', params: { tool: 'read_file', security: 'personal_cli', every_time: false } },
  confirmation: null,
  allowed: null,
};

function run(state: ChatState, events: EngineEvent[]): ChatState {
  for (const e of events) applyEvent(state, e, 1000);
  return state;
}

function started(): ChatState {
  const s = newChatState('desktop:1');
  addPendingUser(s, [{ type: 'text', text: 'hi' }], 1);
  return run(s, [
    { type: 'turn_started', session_id: 'desktop:1', user_message_id: 7 },
    { type: 'assistant_started', message_id: 8, model: 'm1' },
  ]);
}

describe('applyEvent', () => {
  it('keeps one card per sub-agent with its latest progress', () => {
    const s = started();
    const progress = {
      run_id: 'r1',
      parent_session_id: 'desktop:1',
      session_id: 'task:r1',
      goal: 'survey',
      mode: 'parallel' as const,
      status: 'running' as const,
      iterations: 1,
      current_tool: 'read_file',
      elapsed_ms: 300,
      usage,
    };
    run(s, [
      { type: 'sub_agent', progress },
      { type: 'sub_agent', progress: { ...progress, run_id: 'r2', session_id: 'task:r2' } },
      { type: 'sub_agent', progress: { ...progress, status: 'completed', current_tool: null, iterations: 2 } },
    ]);
    expect(s.subAgents.map((p) => [p.run_id, p.status, p.iterations])).toEqual([
      ['r1', 'completed', 2],
      ['r2', 'running', 1],
    ]);
  });

  it('gives the pending user row its id and keeps its key', () => {
    const s = newChatState('desktop:1');
    const row = addPendingUser(s, [{ type: 'text', text: 'hi' }, { type: 'file', name: 'a.bin', path: '/w/a.bin', size: 3 }]);
    const key = row.key;
    expect(s.running).toBe(true);
    applyEvent(s, { type: 'turn_started', session_id: 'desktop:1', user_message_id: 7 });
    expect(s.rows[0].id).toBe(7);
    expect(s.rows[0].key).toBe(key);
    expect(s.rows[0].text).toBe('hi');
    expect(s.rows[0].attachments).toHaveLength(1);
  });

  it('streams text deltas into the assistant row and records usage on finish', () => {
    const s = run(started(), [
      { type: 'text_delta', message_id: 8, text: 'Hel' },
      { type: 'text_delta', message_id: 8, text: 'lo' },
    ]);
    expect(s.rows[1]).toMatchObject({ id: 8, kind: 'assistant', text: 'Hello', status: 'streaming', model: 'm1' });
    applyEvent(s, { type: 'assistant_finished', message_id: 8, usage, stop_reason: 'end_turn' });
    expect(s.rows[1].status).toBe('complete');
    expect(s.rows[1].usage).toEqual(usage);
  });

  it('creates a row for a delta whose message it never saw start', () => {
    const s = run(newChatState('x'), [{ type: 'text_delta', message_id: 42, text: 'late' }]);
    expect(s.rows).toHaveLength(1);
    expect(s.rows[0]).toMatchObject({ id: 42, text: 'late', kind: 'assistant' });
  });

  it('tracks a tool card from start to result', () => {
    const running: ToolView[] = [{ kind: 'browser_page', action: 'open', url: null, title: null, snapshot: null }];
    const s = run(started(), [{ type: 'tool_call_started', message_id: 8, call, views: running }]);
    expect(s.rows[1].tools[0]).toMatchObject({ status: 'running', result: null, runningViews: running });
    applyEvent(s, {
      type: 'tool_call_finished',
      message_id: 8,
      result: { call_id: 'c1', name: 'read_file', content: '"text"', is_error: false, duration_ms: 12 },
    });
    expect(s.rows[1].tools[0].status).toBe('ok');
    expect(s.rows[1].tools[0].result?.duration_ms).toBe(12);
  });

  it('marks failed tool results as errors and ignores a duplicate start', () => {
    const s = run(started(), [
      { type: 'tool_call_started', message_id: 8, call, views: [] },
      { type: 'tool_call_started', message_id: 8, call, views: [] },
      { type: 'tool_call_finished', message_id: 8, result: { call_id: 'c1', name: 'read_file', content: '{"error":"nope"}', is_error: true, duration_ms: 3 } },
    ]);
    expect(s.rows[1].tools).toHaveLength(1);
    expect(s.rows[1].tools[0].status).toBe('error');
  });

  it('attaches approvals to their card and applies the decision', () => {
    const proposed: ToolView = { kind: 'diff', path: 'a.txt', lines: [{ kind: 'add', text: 'x', old_no: null, new_no: null }], added: 1, removed: 0, truncated: false };
    const s = run(started(), [
      { type: 'tool_call_started', message_id: 8, call, views: [] },
      { type: 'approval_requested', request_id: 'r1', session_id: 'desktop:1', call, reason: 'writes files', reason_code: asked, agent: null, view: proposed, starts_programs: false },
    ]);
    const card = s.rows[1].tools[0];
    expect(card.status).toBe('awaiting_approval');
    expect(card.approval).toMatchObject({ requestId: 'r1', reason: 'writes files', code: asked, agent: null, view: proposed, startsPrograms: false, decision: null });
    applyEvent(s, { type: 'approval_resolved', request_id: 'r1', decision: 'allow_session' });
    expect(card.approval?.decision).toBe('allow_session');
    expect(card.status).toBe('running');
  });

  it('shows a denied approval as an error and an approval for an unknown call as a new card', () => {
    const s = run(started(), [
      { type: 'approval_requested', request_id: 'r2', session_id: 'desktop:1', call, reason: 'exec', reason_code: asked, agent: null, view: null, starts_programs: true },
      { type: 'approval_resolved', request_id: 'r2', decision: 'deny' },
      { type: 'approval_resolved', request_id: 'unknown', decision: 'allow_once' },
    ]);
    expect(s.rows[1].tools[0].status).toBe('error');
    expect(s.rows[1].tools[0].approval?.decision).toBe('deny');
  });

  it('adds notices for compaction, cancellation and the iteration limit', () => {
    const s = run(started(), [
      { type: 'compacted', summary_message_id: 3, summarized_through: 2 },
      { type: 'text_delta', message_id: 8, text: 'partial' },
      { type: 'turn_finished', session_id: 'desktop:1', iterations: 1, usage, reason: 'cancelled' },
    ]);
    expect(s.running).toBe(false);
    expect(s.rows.filter((r) => r.kind === 'notice').map((r) => r.notice)).toEqual(['compacted', 'cancelled']);
    expect(s.rows[1].status).toBe('interrupted');
    const m = run(started(), [{ type: 'turn_finished', session_id: 'desktop:1', iterations: 50, usage, reason: 'max_iterations' }]);
    expect(m.rows.at(-1)?.notice).toBe('max_iterations');
  });

  it('fails the turn: streaming rows and running tools end, the error is shown once on the failed reply', () => {
    const s = run(started(), [
      { type: 'tool_call_started', message_id: 8, call, views: [] },
      { type: 'turn_failed', session_id: 'desktop:1', error: { code: 'other', params: { message: 'provider: 401 unauthorized' } } },
    ]);
    expect(s.running).toBe(false);
    expect(s.rows[1].status).toBe('failed');
    expect(s.rows[1].tools[0].status).toBe('error');
    expect(s.rows[1].error?.text).toBe('provider: 401 unauthorized');
    expect(s.rows.some((r) => r.kind === 'notice')).toBe(false);
  });

  it('a turn that failed before any reply shows the error on the stored user message, and Retry clears it', () => {
    const s = newChatState('desktop:1');
    addPendingUser(s, [{ type: 'text', text: 'keep me' }], 1);
    run(s, [
      { type: 'turn_started', session_id: 'desktop:1', user_message_id: 7 },
      { type: 'turn_failed', session_id: 'desktop:1', error: { code: 'no_provider' } },
    ]);
    expect(s.rows).toHaveLength(1);
    expect(s.rows[0]).toMatchObject({ kind: 'user', id: 7, text: 'keep me' });
    expect(s.rows[0].error).toBeTruthy();
    dropLastReply(s);
    expect(s.rows[0].error).toBeNull();
  });

  it('a send refused before it was stored takes its optimistic row back', () => {
    const s = newChatState('desktop:1');
    addPendingUser(s, [{ type: 'text', text: 'not stored' }], 1);
    dropPendingUser(s);
    expect(s.rows).toHaveLength(0);
    expect(s.running).toBe(false);
  });

  it('completes a turn without notices', () => {
    const s = run(started(), [{ type: 'turn_finished', session_id: 'desktop:1', iterations: 1, usage, reason: 'completed' }]);
    expect(s.running).toBe(false);
    expect(s.rows.some((r) => r.kind === 'notice')).toBe(false);
  });

  it('follows the session id of a fork', () => {
    const s = run(newChatState('desktop:1'), [{ type: 'turn_started', session_id: 'desktop:2', user_message_id: 1 }]);
    expect(s.sessionId).toBe('desktop:2');
  });
});

describe('turn helpers', () => {
  it('dropLastReply removes everything after the last user message', () => {
    const s = run(started(), [
      { type: 'text_delta', message_id: 8, text: 'old reply' },
      { type: 'turn_finished', session_id: 'desktop:1', iterations: 1, usage, reason: 'completed' },
    ]);
    dropLastReply(s);
    expect(s.rows.map((r) => r.kind)).toEqual(['user']);
    expect(s.running).toBe(true);
  });

  it('forkForEdit keeps the rows before the edited message and adds the edit', () => {
    const s = run(started(), [{ type: 'turn_finished', session_id: 'desktop:1', iterations: 1, usage, reason: 'completed' }]);
    addPendingUser(s, [{ type: 'text', text: 'second' }]);
    applyEvent(s, { type: 'turn_started', session_id: 'desktop:1', user_message_id: 9 });
    const fork = forkForEdit(s, 9, [{ type: 'text', text: 'second, edited' }]);
    expect(fork.rows.map((r) => r.text)).toEqual(['hi', '', 'second, edited']);
    expect(fork.running).toBe(true);
    expect(s.rows.at(-1)?.text).toBe('second');
  });

  it('failTurn records a rejected command', () => {
    const s = started();
    failTurn(s, { text: 'session busy', detail: null });
    expect(s.rows.at(-1)?.error?.text).toBe('session busy');
  });
});

function msg(partial: Partial<Message> & Pick<Message, 'id' | 'role'>): Message {
  return {
    session_id: 's',
    kind: 'normal',
    content: [],
    tool_calls: [],
    tool_result: null,
    status: 'complete',
    model: null,
    usage: null,
    error: null,
    error_code: null,
    summary_through: null,
    created_at: 0,
    updated_at: 0,
    ...partial,
  };
}

describe('buildRows', () => {
  it('merges tool results into the cards of the assistant message that called them', () => {
    const rows = buildRows([
      msg({ id: 1, role: 'system', content: [{ type: 'text', text: 'sys' }] }),
      msg({ id: 2, role: 'user', content: [{ type: 'text', text: 'q' }] }),
      msg({ id: 3, role: 'assistant', tool_calls: [call, { id: 'c2', name: 'exec', arguments: '{}' }], usage }),
      msg({ id: 4, role: 'tool', tool_result: { call_id: 'c1', name: 'read_file', content: '1', is_error: false, duration_ms: 5 } }),
      msg({ id: 5, role: 'tool', tool_result: { call_id: 'zz', name: 'orphan', content: '1', is_error: false, duration_ms: 5 } }),
      msg({ id: 6, role: 'assistant', content: [{ type: 'text', text: 'done' }] }),
      msg({ id: 7, role: 'assistant', kind: 'summary', content: [{ type: 'text', text: 'summary' }] }),
    ]);
    expect(rows.map((r) => r.kind)).toEqual(['user', 'assistant', 'assistant', 'summary']);
    expect(rows[1].tools.map((c) => c.status)).toEqual(['ok', 'error']);
    expect(rows[1].tools[1].result).toBeNull();
  });

  it('keeps tools of a still-streaming message running', () => {
    const rows = buildRows([msg({ id: 3, role: 'assistant', status: 'streaming', tool_calls: [call] })]);
    expect(rows[0].tools[0].status).toBe('running');
  });
});
