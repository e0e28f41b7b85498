import { afterEach, describe, expect, it } from 'vitest';
import type { ToolView } from '../bindings/ToolView';
import { setLanguage } from '../i18n/index.svelte';
import type { ToolCard } from './rows';
import { toolErrorText } from './toolError';
import { viewOf, viewsOf } from './toolViews';

const failure = { kind: 'failure', error: 'invalid_arguments', message: 'path is empty', field: 'path' } as const;
const page: ToolView = { kind: 'browser_page', action: 'open', url: null, title: null, snapshot: null };

function card(views: ToolView[] | undefined, withResult = true): ToolCard {
  const result = { call_id: 'c', name: 'browser', content: '{}', is_error: false, duration_ms: 1, views };
  return { call: { id: 'c', name: 'browser', arguments: '{}' }, status: 'ok', result: withResult ? result : null, approval: null };
}

describe('tool views', () => {
  afterEach(() => setLanguage('en'));

  it('lists a result’s views in order and finds one by kind', () => {
    const views = viewsOf(card([failure, page]));
    expect(views).toEqual([failure, page]);
    expect(viewOf(views, 'browser_page')).toBe(page);
    expect(viewOf(views, 'diff')).toBeNull();
  });

  it('shows the call’s views while it runs, and none for a result that came without views', () => {
    expect(viewsOf(card(undefined))).toEqual([]);
    expect(viewsOf(card([page], false))).toEqual([]);
    expect(viewsOf({ ...card(undefined, false), runningViews: [page] })).toEqual([page]);
    expect(viewsOf({ ...card(undefined), runningViews: [page] })).toEqual([]);
  });

  it('words a failure by its kind and the argument at fault, in the UI language', () => {
    expect(toolErrorText(failure)).toEqual({ headline: 'The model passed arguments the tool does not accept (path)', message: 'path is empty' });
    expect(toolErrorText({ ...failure, error: 'timeout', field: null }).headline).toBe('Took too long and was stopped');
    setLanguage('zh-CN');
    expect(toolErrorText({ ...failure, error: 'timeout' }).headline).toBe('用时太长，已停止（path）');
  });
});
