// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createBlockRenderer, renderMarkdown } from './render';
import { fenceClosed, IncrementalMarkdown, withoutPartialFence, type RenderedBlock } from './stream';

const corpus: Record<string, string> = {
  paragraphs: 'First paragraph with **bold**, _em_ and `code`.\nA second line.\n\nSecond paragraph ends here.\n',
  headings: '# Title\n\nText under it.\n\n## Sub *heading*\n\nSetext\n======\n\nMore\n---\n',
  lists: '- one\n- two\n- \n- three\n\n1. first\n2. second\n\n* loose\n\n* items\n',
  nested: '- outer\n  - inner **a**\n  - inner b\n    1. deep\n- back out\n\nAfter the list.\n',
  fenced: 'Code:\n\n```rust\nfn main() {\n    println!("<b>hi</b>");\n}\n```\n\nAnd tildes:\n\n~~~python\nprint(1)\n~~~\n',
  unclosed: 'Text first.\n\n```js\nconst a = 1;\n\nconst b = "never closed";\n',
  indented: 'Para.\n\n    indented code\n    more\n\nafter\n',
  table: 'Costs:\n\n| step | cost |\n| --- | ---: |\n| lex | 3 ms |\n| render | 5 ms |\n\nDone.\n',
  quotes: '> quoted **text**\n> continues\nlazily\n\n> - list in quote\n> - two\n\nout\n',
  html: 'Careful: <script>window.__pwned=1</script>\n\n<img src=x onerror="window.__pwned=1">\n\n<div>\nblock <b>html</b>\n</div>\n\n<svg onload="x()"></svg>\n\n[click](javascript:alert(1))\n',
  references: 'See [the docs][docs] and [here].\n\n[docs]: https://example.com/docs "Docs"\n[here]: https://example.com\n\nEnd [docs].\n',
  mixed: '---\n\nText\r\nwith CRLF\r\n\r\n| a | b |\r\n|---|---|\r\n| 1 | 2 |\r\n\r\n```\nplain\n```\n\n***\n\nthe end',
};

/** A seeded pseudo-random generator, so failures reproduce. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** Ways to cut a text into deltas: fixed sizes and seeded random cut points. */
function cuttings(text: string): number[][] {
  const fixed = [1, 2, 3, 7, 40].map((size) => {
    const cuts: number[] = [];
    for (let i = size; i < text.length; i += size) cuts.push(i);
    return cuts;
  });
  const randomCuts = [1, 2].map((seed) => {
    const next = random(seed);
    const cuts: number[] = [];
    for (let i = 1 + Math.floor(next() * 9); i < text.length; i += 1 + Math.floor(next() * 9)) cuts.push(i);
    return cuts;
  });
  return [...fixed, ...randomCuts];
}

function html(blocks: RenderedBlock[]): string {
  return blocks.map((b) => b.html).join('');
}

describe('incremental markdown', () => {
  for (const [name, text] of Object.entries(corpus)) {
    it(`renders "${name}" streamed at any cut exactly like the whole text at once`, () => {
      const whole = renderMarkdown(text);
      // One cache for every cutting: blocks they share are rendered once (as in the app).
      const renderer = createBlockRenderer();
      for (const cuts of cuttings(text)) {
        const markdown = new IncrementalMarkdown(renderer);
        for (const cut of cuts) markdown.update(text.slice(0, cut), true);
        markdown.update(text, true);
        expect(html(markdown.update(text, false)), `cut at ${cuts.join(',')}`).toBe(whole);
      }
    }, 60_000);
  }

  it('never touches a finished block again while the text grows', () => {
    const renderer = createBlockRenderer();
    for (const [name, text] of Object.entries(corpus)) {
      if (name === 'references') continue;
      for (const cuts of cuttings(text)) {
        const markdown = new IncrementalMarkdown(renderer);
        let previous: RenderedBlock[] = [];
        for (const cut of [...cuts, text.length]) {
          const blocks = markdown.update(text.slice(0, cut), true);
          // Every block before the previous last one is the very same object.
          for (let i = 0; i < previous.length - 1; i++) expect(blocks[i], `${name} at ${cut}`).toBe(previous[i]);
          previous = blocks;
        }
      }
    }
  }, 60_000);

  it('renders a streamed document with about one block render per delta', () => {
    const text = Object.values(corpus).join('\n\n');
    const renderer = createBlockRenderer();
    const markdown = new IncrementalMarkdown(renderer);
    let deltas = 0;
    for (let i = 4; i < text.length; i += 4, deltas++) markdown.update(text.slice(0, i), true);
    // One render of the growing block per delta, plus one when a delta closes a block and opens
    // the next; never the whole document again.
    expect(renderer.renders).toBeLessThan(deltas * 1.5);
  });

  it('leaves growing code plain and without a copy button until its fence closes', () => {
    const markdown = new IncrementalMarkdown(createBlockRenderer());
    const open = markdown.update('```rust\nfn main() {}\n', true);
    expect(open[0].growing).toBe(true);
    expect(open[0].html).not.toContain('hljs-keyword');
    expect(open[0].code).toEqual({ lang: 'rust', text: 'fn main() {}' });
    const closed = markdown.update('```rust\nfn main() {}\n```', true);
    expect(closed[0].growing).toBe(false);
    expect(closed[0].html).toContain('<span class="hljs-keyword">fn</span>');
    const unclosedAtEnd = new IncrementalMarkdown(createBlockRenderer());
    unclosedAtEnd.update('```rust\nlet x = 1;', true);
    const finished = unclosedAtEnd.update('```rust\nlet x = 1;', false);
    expect(finished[0].growing).toBe(false);
    expect(finished[0].html).toContain('hljs-keyword');
  });

  it('never shows a fence marker still being typed, opening or closing', () => {
    const text = 'Run this:\n\n```sh\nls -la\n```\n\nDone.';
    const markdown = new IncrementalMarkdown(createBlockRenderer());
    for (let cut = 1; cut < text.length; cut++) {
      const out = html(markdown.update(text.slice(0, cut), true));
      const div = document.createElement('div');
      div.innerHTML = out;
      const texts = [...div.querySelectorAll('p, code')].map((el) => el.textContent ?? '');
      expect(texts.filter((t) => /(^|\n)`+$/.test(t)), `cut at ${cut}: ${out}`).toEqual([]);
    }
    expect(html(markdown.update(text, false))).toBe(renderMarkdown(text));
  });

  it('starts over when the text is replaced rather than extended', () => {
    const markdown = new IncrementalMarkdown(createBlockRenderer());
    markdown.update('alpha\n\nbeta', true);
    expect(html(markdown.update('gamma', false))).toBe(renderMarkdown('gamma'));
  });

  it('keeps model output inert on the incremental path', { timeout: 60_000 }, () => {
    const markdown = new IncrementalMarkdown(createBlockRenderer());
    const text = corpus.html;
    const seen: string[] = [];
    for (let i = 1; i <= text.length; i++) seen.push(html(markdown.update(text.slice(0, i), i < text.length)));
    expect(seen.at(-1)).toBe(renderMarkdown(text));
    for (const out of new Set(seen)) {
      const div = document.createElement('div');
      div.innerHTML = out;
      expect(div.querySelector('script, svg, iframe, img')).toBeNull();
      expect([...div.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.name)).filter((n) => n.startsWith('on'))).toEqual([]);
      expect(div.querySelector('a[href^="javascript"]')).toBeNull();
    }
  });
});

describe('withoutPartialFence', () => {
  it('holds back a last line of one or two backticks or tildes', () => {
    expect(withoutPartialFence('Text\n\n`')).toBe('Text\n\n');
    expect(withoutPartialFence('```js\ncode\n``')).toBe('```js\ncode\n');
    expect(withoutPartialFence('`')).toBe('');
    expect(withoutPartialFence('```js\ncode\n```')).toBe('```js\ncode\n```');
    expect(withoutPartialFence('   ~~')).toBe('');
    expect(withoutPartialFence('Text with `code`')).toBe('Text with `code`');
    expect(withoutPartialFence('```js')).toBe('```js');
    expect(withoutPartialFence('    ``')).toBe('    ``');
  });
});

describe('fenceClosed', () => {
  it('tells closed fences from open ones', () => {
    expect(fenceClosed('```\ncode\n```')).toBe(true);
    expect(fenceClosed('```js\ncode\n```\n\n')).toBe(true);
    expect(fenceClosed('~~~~\ncode\n~~~~~')).toBe(true);
    expect(fenceClosed('```\n```')).toBe(true);
    expect(fenceClosed('```js')).toBe(false);
    expect(fenceClosed('```js\ncode\n')).toBe(false);
    expect(fenceClosed('```js\ncode\n``')).toBe(false);
    expect(fenceClosed('````\ncode\n```')).toBe(false);
    expect(fenceClosed('~~~\ncode\n```')).toBe(false);
    expect(fenceClosed('    indented code')).toBe(true);
  });
});
