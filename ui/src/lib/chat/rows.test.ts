import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../bindings/Message';
import { setLanguage } from '../i18n/index.svelte';
import { buildRows, carryApprovals, carryTurnErrors, chatUsage, commonPrefix, prettyJson, skillOf, splitContent, type ChatRow, type ToolCard } from './rows';

describe('prettyJson', () => {
  it('indents JSON', () => {
    expect(prettyJson('{"a":1,"b":[true,"x y"]}')).toBe('{\n  "a": 1,\n  "b": [\n    true,\n    "x y"\n  ]\n}');
  });

  it('returns non-JSON text unchanged', () => {
    expect(prettyJson('{not json')).toBe('{not json');
    expect(prettyJson('')).toBe('');
  });

  it('shows the raw text when a round trip would change what the model sent', () => {
    const dup = '{"path":"safe.txt","path":"/etc/passwd"}';
    expect(prettyJson(dup)).toBe(dup);
    const big = '{"n":12345678901234567890}';
    expect(prettyJson(big)).toBe(big);
  });

  it('keeps whitespace inside strings while judging the round trip', () => {
    expect(prettyJson('{ "cmd" : "ls  -la\\n" }')).toBe('{\n  "cmd": "ls  -la\\n"\n}');
  });
});

describe('splitContent', () => {
  it('takes the first text part as the body and the rest as attachments', () => {
    const { text, attachments } = splitContent([
      { type: 'image', mime_type: 'image/png', data: 'AA==' },
      { type: 'text', text: 'body' },
      { type: 'text', text: 'attached file text' },
    ]);
    expect(text).toBe('body');
    expect(attachments.map((p) => p.type)).toEqual(['image', 'text']);
  });

  it('never takes attached text for the body', () => {
    const file = { type: 'attached' as const, text: 'Attached file `a.md`:\n```md\nhi\n```', source: { kind: 'file' as const, name: 'a.md' } };
    expect(splitContent([file])).toEqual({ text: '', attachments: [file] });
    expect(splitContent([file, { type: 'text', text: 'typed' }])).toEqual({ text: 'typed', attachments: [file] });
  });

  it('handles content without text', () => {
    expect(splitContent([])).toEqual({ text: '', attachments: [] });
  });
});

describe('a skill run', () => {
  const skill = { type: 'skill' as const, name: 'trip-planner', dialect: 'echo' as const, folder: '/d/skills/trip-planner', instructions_file: 'SKILL.md', instructions: '---\nname: trip-planner\n---\nAsk for the dates.' };
  const stored = (content: Message['content']): Message => ({
    id: 7, session_id: 's', role: 'user', kind: 'normal', content, tool_calls: [], tool_result: null, status: 'complete',
    model: null, usage: null, error: null, error_code: null, summary_through: null, created_at: 1, updated_at: 1,
  });

  it('shows the typed text with the skill named apart, keeping its part for an edit', () => {
    const [row] = buildRows([stored([skill, { type: 'text', text: 'plan a trip to Lisbon' }])]);
    expect(row.text).toBe('plan a trip to Lisbon');
    expect(row.skill).toBe('trip-planner');
    expect(row.attachments).toEqual([skill]);
  });

  it('names no skill for an ordinary message', () => {
    expect(skillOf([{ type: 'text', text: 'hi' }])).toBeNull();
    expect(buildRows([stored([{ type: 'text', text: 'hi' }])])[0].skill).toBeNull();
  });
});

describe('chatUsage', () => {
  it('adds up the usage of every reply', () => {
    const rows = [{ usage: { input_tokens: 3, output_tokens: 4 } }, { usage: null }, { usage: { input_tokens: 10, output_tokens: 1 } }] as ChatRow[];
    expect(chatUsage(rows)).toEqual({ input_tokens: 13, output_tokens: 5 });
  });
});

describe('carryApprovals', () => {
  const card = (id: string, approval: ToolCard['approval'] = null): ToolCard => ({
    call: { id, name: 'exec', arguments: '{}' },
    status: 'ok',
    result: null,
    approval,
  });
  const row = (tools: ToolCard[]) => ({ tools }) as ChatRow;

  it('restores approvals onto rebuilt cards by call id', () => {
    const approval = { requestId: 'r1', reason: 'risky', code: null, agent: null, view: null, startsPrograms: false, decision: 'allow_once' as const, sent: null };
    const rebuilt = carryApprovals([row([card('a', approval), card('b')])], [row([card('b'), card('a')])]);
    expect(rebuilt[0].tools.map((c) => c.approval?.decision ?? null)).toEqual([null, 'allow_once']);
    expect(rebuilt[0].tools[1].approval).not.toBe(approval);
  });

  it('leaves rows alone when there were no approvals', () => {
    const rows = [row([card('a')])];
    expect(carryApprovals([row([card('a')])], rows)).toBe(rows);
  });
});

describe('commonPrefix', () => {
  const row = (id: number | null, text: string, status: ChatRow['status'] = 'complete') =>
    ({ id, kind: 'assistant', text, status, attachments: [], tools: [] }) as unknown as ChatRow;

  it('counts the leading rows that are unchanged', () => {
    const current = [row(1, 'a'), row(2, 'b'), row(3, 'partial', 'streaming'), row(null, 'notice')];
    const fresh = [row(1, 'a'), row(2, 'b'), row(3, 'partial and more'), row(4, 'c')];
    expect(commonPrefix(current, fresh)).toBe(2);
  });

  it('compares settled rows by key only and stops at the first changed key', () => {
    const a = { ...row(1, 'old text'), key: 'm1' } as ChatRow;
    const b = { ...row(2, 'b'), key: 'm2' } as ChatRow;
    const fresh = [{ ...a, text: 'edited elsewhere' }, { ...b, text: 'b2' }];
    expect(commonPrefix([a, b], fresh, 1)).toBe(1);
    expect(commonPrefix([a, b], fresh, 2)).toBe(2);
    expect(commonPrefix([a, b], [{ ...b }], 2)).toBe(0);
    expect(commonPrefix([a, b], fresh, 0)).toBe(0);
  });

  it('stops at rows without an id and at inserted rows', () => {
    expect(commonPrefix([row(null, 'x')], [row(null, 'x')])).toBe(0);
    expect(commonPrefix([row(1, 'a'), row(3, 'c')], [row(1, 'a'), row(2, 'summary'), row(3, 'c')])).toBe(1);
    expect(commonPrefix([], [row(1, 'a')])).toBe(0);
  });
});

describe('carryTurnErrors', () => {
  const row = (id: number | null, error: string | null) => ({ id, error: error === null ? null : { text: error, detail: null } }) as ChatRow;

  it('gives rebuilt rows back the failure they showed, by message id', () => {
    const rebuilt = carryTurnErrors([row(2, 'The key is missing'), row(null, 'local')], [row(2, null), row(3, 'stored')]);
    expect(rebuilt.map((r) => r.error?.text)).toEqual(['The key is missing', 'stored']);
  });
});

describe('stored failures', () => {
  afterEach(() => setLanguage('en'));
  const failed = (error: string | null, error_code: Message['error_code']): Message => ({
    id: 7, session_id: 'desktop:1', role: 'assistant', kind: 'normal', content: [], tool_calls: [], tool_result: null,
    status: 'failed', model: 'm', usage: null, error, error_code, summary_through: null, created_at: 1, updated_at: 1,
  });

  it('shows a stored typed error in the viewer language, and an older row its English text', () => {
    const stalled = failed('the provider sent nothing for 60 s, …', { code: 'stalled', params: { seconds: 60 } });
    setLanguage('zh-CN');
    expect(buildRows([stalled])[0].error?.text).toBe('服务端 60 秒没有任何响应，回复已停止并标记为失败；请重试。');
    setLanguage('en');
    expect(buildRows([stalled])[0].error?.text).toContain('60');
    expect(buildRows([stalled])[0].error?.text).not.toContain('服务端');
    setLanguage('zh-CN');
    expect(buildRows([failed('provider said 500', null)])[0].error?.text).toBe('provider said 500');
  });
});
