// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { splitBlocks, type BlockSplit } from './blocks';
import { createBlockRenderer } from './render';

const doc = [
  '# Title',
  '',
  'Some **bold** text.',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  '- one',
  '- two',
  '',
  '```rust',
  'fn main() {}',
  '```',
  '',
  'The end.',
].join('\n');

/** Feeds `text` in chunks of `size`, like a stream of deltas. */
function stream(text: string, size: number): BlockSplit[] {
  const splits: BlockSplit[] = [];
  let prev: BlockSplit | null = null;
  for (let i = size; i < text.length + size; i += size) {
    prev = splitBlocks(text.slice(0, i), prev);
    splits.push(prev);
  }
  return splits;
}

describe('splitBlocks', () => {
  it('splits a document into its top-level blocks', () => {
    const split = splitBlocks(doc);
    expect(split.blocks.map((b) => b.token.type)).toEqual(['heading', 'paragraph', 'table', 'list', 'code', 'paragraph']);
    expect(split.blocks.every((b) => doc.startsWith(b.raw, b.start))).toBe(true);
  });

  it('gives the same blocks whether the text arrives at once or in deltas', () => {
    for (const size of [1, 3, 7, 50]) {
      const last = stream(doc, size).at(-1);
      const whole = splitBlocks(doc);
      expect(last?.blocks.map((b) => [b.key, b.raw])).toEqual(whole.blocks.map((b) => [b.key, b.raw]));
    }
  });

  it('reuses every finished block object while the last one grows', () => {
    const a = splitBlocks('First paragraph.\n\nSecond');
    const b = splitBlocks('First paragraph.\n\nSecond paragraph', a);
    expect(b.blocks[0]).toBe(a.blocks[0]);
    expect(b.blocks[1].key).toBe(a.blocks[1].key);
    expect(b.blocks[1].raw).toBe('Second paragraph');
  });

  it('lets the growing block change type (paragraph becomes a table)', () => {
    const a = splitBlocks('Intro\n\n| x | y |\n');
    const b = splitBlocks('Intro\n\n| x | y |\n|---|---|\n| 1 | 2 |', a);
    expect(b.blocks.map((x) => x.token.type)).toEqual(['paragraph', 'table']);
  });

  it('keeps an unclosed code fence as one block until it closes', () => {
    const a = splitBlocks('```js\nconst a = 1;\n\nconst b');
    expect(a.blocks.map((b) => b.token.type)).toEqual(['code']);
    const b = splitBlocks('```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter', a);
    expect(b.blocks.map((x) => x.token.type)).toEqual(['code', 'paragraph']);
  });

  it('keeps keys and finished blocks when the lexer shortens a raw text (an empty list item)', () => {
    const a = splitBlocks('Intro paragraph.\n\n- one\n');
    const b = splitBlocks('Intro paragraph.\n\n- one\n- ', a);
    const c = splitBlocks('Intro paragraph.\n\n- one\n- two\n\nAfter', b);
    expect(b.blocks[0]).toBe(a.blocks[0]);
    expect(c.blocks[0]).toBe(a.blocks[0]);
    expect(c.blocks.map((x) => x.key)).toEqual(['b0', 'b1', 'b2']);
    expect(c.blocks.map((x) => x.raw)).toEqual(splitBlocks(c.text).blocks.map((x) => x.raw));
  });

  it('lexes the whole text again once it defines reference links', () => {
    const a = splitBlocks('See [docs].\n\nMore');
    const b = splitBlocks('See [docs].\n\nMore\n\n[docs]: https://example.com', a);
    const link = (b.blocks[0].token as { tokens?: { type: string }[] }).tokens?.[1];
    expect(link?.type).toBe('link');
  });

  it('starts over when the text is not a continuation', () => {
    const a = splitBlocks('alpha\n\nbeta');
    const b = splitBlocks('gamma', a);
    expect(b.blocks.map((x) => x.raw)).toEqual(['gamma']);
  });

  it('handles empty text and Windows line endings', () => {
    expect(splitBlocks('').blocks).toEqual([]);
    const split = splitBlocks('a\r\n\r\nb');
    expect(split.blocks.map((b) => b.raw.trim())).toEqual(['a', 'b']);
  });
});

describe('block renderer memoization', () => {
  it('renders only the growing last block on each delta', () => {
    const renderer = createBlockRenderer();
    let prev: BlockSplit | null = null;
    const perStep: number[] = [];
    const text = 'Para one is done.\n\nPara two is done.\n\nPara three keeps growing';
    // Prime with the two finished paragraphs and the start of the third.
    for (const end of [45, 50, 55, 60, text.length]) {
      prev = splitBlocks(text.slice(0, end), prev);
      const before = renderer.renders;
      for (const block of prev.blocks) renderer.render(block.raw, block.token);
      perStep.push(renderer.renders - before);
    }
    expect(perStep[0]).toBe(3);
    expect(perStep.slice(1)).toEqual([1, 1, 1, 1]);
  });

  it('renders a whole streamed document once per distinct block state', () => {
    const renderer = createBlockRenderer();
    let prev: BlockSplit | null = null;
    let maxPerStep = 0;
    for (const split of stream(doc, 4)) {
      prev = split;
      const before = renderer.renders;
      for (const block of prev.blocks) renderer.render(block.raw, block.token);
      maxPerStep = Math.max(maxPerStep, renderer.renders - before);
    }
    // A delta can close one block and open the next: never more than two renders per delta.
    expect(maxPerStep).toBeLessThanOrEqual(2);
  });

  it('evicts the oldest entry when full', () => {
    const renderer = createBlockRenderer(2);
    const blocks = splitBlocks('a\n\nb\n\nc').blocks;
    for (const b of blocks) renderer.render(b.raw, b.token);
    renderer.render(blocks[2].raw, blocks[2].token);
    expect(renderer.renders).toBe(3);
    renderer.render(blocks[0].raw, blocks[0].token);
    expect(renderer.renders).toBe(4);
  });
});
