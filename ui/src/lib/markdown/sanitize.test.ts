// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render';
import { sanitizeHtml } from './sanitize';

function parse(html: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = html;
  return div;
}

function hasEventHandler(root: HTMLElement): boolean {
  return [...root.querySelectorAll('*')].some((el) => [...el.attributes].some((a) => a.name.toLowerCase().startsWith('on')));
}

describe('sanitizeHtml', () => {
  it('drops script elements', () => {
    const out = parse(sanitizeHtml('<p>hi</p><script>window.__pwned=1</script>'));
    expect(out.querySelector('script')).toBeNull();
    expect(out.textContent).toBe('hi');
  });

  it('strips event handlers from images and turns non-inline images into text or links', () => {
    const out = parse(sanitizeHtml('<img src=x onerror="window.__pwned=1"><img src="https://h/p.png" alt="chart">'));
    expect(hasEventHandler(out)).toBe(false);
    expect(out.querySelector('img')).toBeNull();
    const links = [...out.querySelectorAll('a')];
    expect(links.map((a) => [a.getAttribute('href'), a.textContent])).toEqual([
      [null, '🖼 x'],
      ['https://h/p.png', '🖼 chart'],
    ]);
  });

  it('keeps inline data images', () => {
    const out = parse(sanitizeHtml('<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot" onload="x()">'));
    expect(out.querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(hasEventHandler(out)).toBe(false);
  });

  it('removes javascript: and data: links but keeps https ones with rel', () => {
    const out = parse(
      sanitizeHtml('<a href="javascript:alert(1)">a</a><a href="JaVaScRiPt&colon;alert(1)">b</a><a href="data:text/html,<script>1</script>">c</a><a href="https://example.com">d</a>'),
    );
    const hrefs = [...out.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual([null, null, null, 'https://example.com']);
    expect(out.querySelector('a[href]')?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('removes iframes, objects, forms and styles', () => {
    const out = parse(
      sanitizeHtml('<iframe src="https://evil"></iframe><object data="x"></object><form action="/x"><input name=a><button>go</button></form><style>body{}</style><p style="color:red">t</p>'),
    );
    for (const tag of ['iframe', 'object', 'form', 'input', 'button', 'style']) expect(out.querySelector(tag)).toBeNull();
    expect(out.querySelector('p')?.hasAttribute('style')).toBe(false);
  });

  it('removes SVG, including its onload handler', () => {
    const out = parse(sanitizeHtml('<svg onload="window.__pwned=1"><circle r="1"/></svg><p>ok</p>'));
    expect(out.querySelector('svg')).toBeNull();
    expect(hasEventHandler(out)).toBe(false);
  });

  it('neutralizes mutation tricks', () => {
    const out = parse(sanitizeHtml('<noscript><p title="</noscript><img src=x onerror=alert(1)>">'));
    expect(hasEventHandler(out)).toBe(false);
  });
});

describe('rendered markdown', () => {
  it('renders GFM and keeps it inert', () => {
    const html = renderMarkdown(
      '| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>window.__pwned=1</script>\n\n<img src=x onerror="window.__pwned=1">\n\n[x](javascript:alert(1))',
    );
    const out = parse(html);
    expect(out.querySelector('table td')?.textContent).toBe('1');
    expect(out.querySelector('script')).toBeNull();
    expect(hasEventHandler(out)).toBe(false);
    expect(out.querySelector('a')?.getAttribute('href') ?? null).toBeNull();
  });

  it('highlights fenced code of a registered language and escapes unknown ones', () => {
    const out = parse(renderMarkdown('```rust\nfn main() { let x = "<b>"; }\n```\n\n```nosuchlang\n<b>raw</b>\n```'));
    const [rust, other] = [...out.querySelectorAll('pre code')];
    expect(rust.className).toContain('language-rust');
    expect(rust.querySelector('.hljs-keyword')).not.toBeNull();
    expect(rust.textContent).toContain('"<b>"');
    expect(other.querySelector('b')).toBeNull();
    expect(other.textContent?.trim()).toBe('<b>raw</b>');
  });
});
