// Markdown block -> sanitized HTML, memoized by the block's raw text so finished blocks of a
// streaming reply are rendered once. Fenced code is highlighted, or left plain (escaped) while
// it is still growing.
import { Marked, type MarkedExtension, type Token, type Tokens } from 'marked';
import { splitBlocks } from './blocks';
import { codeLanguage, escapeHtml, highlight } from './highlight';
import { sanitizeHtml } from './sanitize';

function withCode(render: (code: string, language: string) => string): MarkedExtension {
  return {
    gfm: true,
    breaks: false,
    renderer: {
      code({ text, lang }: Tokens.Code): string {
        const language = codeLanguage(lang);
        const cls = language ? ` class="hljs language-${escapeHtml(language)}"` : ' class="hljs"';
        return `<pre><code${cls}>${render(text, language)}</code></pre>\n`;
      },
    },
  };
}

const highlighted = new Marked(withCode(highlight));
const plain = new Marked(withCode((code) => escapeHtml(code)));

/** Sanitized HTML for one top-level token; `plainCode` leaves fenced code unhighlighted. */
export function renderToken(token: Token, plainCode = false): string {
  return sanitizeHtml((plainCode ? plain : highlighted).parser([token]));
}

/** The whole of `text` rendered at once, block by block: what a finished message shows. */
export function renderMarkdown(text: string): string {
  return splitBlocks(text)
    .blocks.map((b) => renderToken(b.token))
    .join('');
}

export interface BlockRenderer {
  render(raw: string, token: Token, plainCode?: boolean): string;
  /** How many times a block was actually rendered (cache misses). */
  readonly renders: number;
}

/** A renderer with a bounded cache keyed by a block's raw markdown (and whether code is plain). */
export function createBlockRenderer(capacity = 2000): BlockRenderer {
  const cache = new Map<string, string>();
  let renders = 0;
  return {
    render(raw, token, plainCode = false) {
      const key = plainCode ? `plain\u0000${raw}` : raw;
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      renders += 1;
      const html = renderToken(token, plainCode);
      if (cache.size >= capacity) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      cache.set(key, html);
      return html;
    },
    get renders() {
      return renders;
    },
  };
}

/** The shared renderer every message uses. */
export const blockRenderer = createBlockRenderer();
