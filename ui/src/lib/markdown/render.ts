// Markdown block -> sanitized HTML, memoized by the block's raw text so finished blocks of a
// streaming reply are rendered once.
import { Marked, type Token, type Tokens } from 'marked';
import { codeLanguage, escapeHtml, highlight } from './highlight';
import { sanitizeHtml } from './sanitize';

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }: Tokens.Code): string {
      const language = codeLanguage(lang);
      const cls = language ? ` class="hljs language-${escapeHtml(language)}"` : ' class="hljs"';
      return `<pre><code${cls}>${highlight(text, language)}</code></pre>\n`;
    },
  },
});

/** Sanitized HTML for one top-level token. */
export function renderToken(token: Token): string {
  return sanitizeHtml(marked.parser([token]));
}

export interface BlockRenderer {
  render(raw: string, token: Token): string;
  /** How many times a block was actually rendered (cache misses). */
  readonly renders: number;
}

/** A renderer with a bounded cache keyed by a block's raw markdown. */
export function createBlockRenderer(capacity = 2000): BlockRenderer {
  const cache = new Map<string, string>();
  let renders = 0;
  return {
    render(raw, token) {
      const hit = cache.get(raw);
      if (hit !== undefined) return hit;
      renders += 1;
      const html = renderToken(token);
      if (cache.size >= capacity) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      cache.set(raw, html);
      return html;
    },
    get renders() {
      return renders;
    },
  };
}

/** The shared renderer every message uses. */
export const blockRenderer = createBlockRenderer();
