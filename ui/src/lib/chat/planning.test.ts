import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../bindings/EngineEvent';
import type { TodoList } from '../bindings/TodoList';
import { applyEvent, failTurn, newChatState } from './reducer';

function list(sessionId: string, revision: number, done: boolean): TodoList {
  return {
    session_id: sessionId,
    revision,
    next_id: 2,
    updated_at: 0,
    items: [{ id: '1', title: 'Draft', status: done ? 'done' : 'in_progress' }],
  };
}

const asked: EngineEvent = {
  type: 'question_asked',
  request_id: 'q1',
  session_id: 'desktop:1',
  question: 'Which format?',
  options: ['PDF', 'Word'],
};

describe('the checklist and questions in a chat', () => {
  it('keeps the latest checklist of its own session only', () => {
    const s = newChatState('desktop:1');
    applyEvent(s, { type: 'todo_changed', list: list('desktop:1', 1, false) });
    applyEvent(s, { type: 'todo_changed', list: list('desktop:2', 5, true) });
    expect(s.todo?.revision).toBe(1);
    applyEvent(s, { type: 'todo_changed', list: list('desktop:1', 2, true) });
    expect(s.todo?.items[0].status).toBe('done');
  });

  it('shows a question until it is closed', () => {
    const s = newChatState('desktop:1');
    applyEvent(s, asked);
    expect(s.question).toEqual({ requestId: 'q1', question: 'Which format?', options: ['PDF', 'Word'], sent: null });
    applyEvent(s, { type: 'question_closed', request_id: 'other', answered: true });
    expect(s.question?.requestId).toBe('q1');
    applyEvent(s, { type: 'question_closed', request_id: 'q1', answered: true });
    expect(s.question).toBeNull();
  });

  it('drops a waiting question when the turn stops or fails', () => {
    const s = newChatState('desktop:1');
    applyEvent(s, asked);
    applyEvent(s, { type: 'turn_finished', session_id: 'desktop:1', iterations: 1, usage: { input_tokens: 0, output_tokens: 0 }, reason: 'cancelled' });
    expect(s.question).toBeNull();
    applyEvent(s, asked);
    failTurn(s, { text: 'boom', detail: null });
    expect(s.question).toBeNull();
  });
});
