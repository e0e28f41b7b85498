import { describe, expect, it } from 'vitest';
import { browserView } from './browser';
import type { ToolCard } from './rows';

function card(name: string, args: unknown, content: string | null, isError = false): ToolCard {
  return {
    call: { id: 'c1', name, arguments: JSON.stringify(args) },
    status: content === null ? 'running' : isError ? 'error' : 'ok',
    result: content === null ? null : { call_id: 'c1', content, is_error: isError, duration_ms: 5, images: [] },
    approval: null,
  } as unknown as ToolCard;
}

describe('browserView', () => {
  it('shows the action, the page the result reports and its outline', () => {
    const view = browserView(
      card('browser', { action: 'open', url: 'http://a.test/' }, JSON.stringify({ url: 'http://a.test/home', title: 'Home', snapshot: '- Page URL: http://a.test/home' })),
    );
    expect(view).toEqual({ action: 'open', url: 'http://a.test/home', title: 'Home', snapshot: '- Page URL: http://a.test/home' });
  });

  it('falls back to the argument URL while running, after an error and for unparsable results', () => {
    expect(browserView(card('browser', { action: 'navigate', url: 'http://b.test/' }, null))?.url).toBe('http://b.test/');
    expect(browserView(card('browser', { action: 'open', url: 'http://c.test/' }, 'blocked_address', true))).toEqual({
      action: 'open',
      url: 'http://c.test/',
      title: null,
      snapshot: null,
    });
    expect(browserView(card('browser', { action: 'screenshot' }, 'not json'))?.url).toBeNull();
  });

  it('is null for other tools', () => {
    expect(browserView(card('web_fetch', { url: 'http://a.test/' }, '{}'))).toBeNull();
  });
});
