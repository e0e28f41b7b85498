// The markdown of one message as rendered blocks, kept up to date as its text grows: finished
// blocks keep their rendered object (so their DOM is never touched again), the growing last
// block is lexed and rendered again, and fenced code is highlighted (and gets its copy button)
// once its fence is closed or the message is finished. A fence marker still being typed (a last
// line of one or two backticks or tildes) is held back until it is one, so no lone "`" shows.
import type { Tokens } from 'marked';
import { splitBlocks, type Block, type BlockSplit } from './blocks';
import { codeLanguage } from './highlight';
import { blockRenderer, renderToken, type BlockRenderer } from './render';

export interface RenderedBlock {
  key: string;
  /** Sanitized HTML. */
  html: string;
  /** For fenced or indented code: its language and text. */
  code: { lang: string; text: string } | null;
  /** Code still being written: shown as plain text, without a copy button. */
  growing: boolean;
}

/** Whether the raw markdown of a code block ends with the fence that closes it. Indented code has
 * no fence and counts as closed. */
export function fenceClosed(raw: string): boolean {
  const lines = raw.replace(/\n+$/, '').split('\n');
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(lines[0]);
  if (!open) return true;
  if (lines.length < 2) return false;
  const closing = new RegExp(`^ {0,3}${open[1][0]}{${open[1].length},} *$`);
  return closing.test(lines[lines.length - 1]);
}

/** `text` without a last line of one or two backticks or tildes: a fence (opening or closing)
 * being typed, which would show as a stray "`" paragraph or code line until its third arrives. */
export function withoutPartialFence(text: string): string {
  const lineStart = text.lastIndexOf('\n') + 1;
  return /^ {0,3}(`{1,2}|~{1,2})$/.test(text.slice(lineStart)) ? text.slice(0, lineStart) : text;
}

export class IncrementalMarkdown {
  private split: BlockSplit | null = null;
  private rendered = new Map<string, { block: Block; out: RenderedBlock }>();

  constructor(private readonly renderer: BlockRenderer = blockRenderer) {}

  /** The blocks of `text`, an extension of the previous text while `streaming`. */
  update(text: string, streaming: boolean): RenderedBlock[] {
    const split = splitBlocks(streaming ? withoutPartialFence(text) : text, this.split);
    this.split = split;
    const withLinks = Object.keys(split.links).length > 0;
    const last = split.blocks.length - 1;
    const next = new Map<string, { block: Block; out: RenderedBlock }>();
    const out = split.blocks.map((block, i) => {
      const growing = streaming && i === last && block.token.type === 'code' && !fenceClosed(block.raw);
      const previous = this.rendered.get(block.key);
      const reuse = previous && previous.block.raw === block.raw && previous.out.growing === growing && !withLinks;
      const entry = reuse ? previous : { block, out: this.render(block, growing, withLinks) };
      next.set(block.key, entry);
      return entry.out;
    });
    this.rendered = next;
    return out;
  }

  private render(block: Block, growing: boolean, withLinks: boolean): RenderedBlock {
    // Reference links resolve differently as definitions arrive: never served from the cache.
    const html = withLinks ? renderToken(block.token, growing) : this.renderer.render(block.raw, block.token, growing);
    const token = block.token as Tokens.Code;
    const code = block.token.type === 'code' ? { lang: codeLanguage(token.lang), text: token.text } : null;
    return { key: block.key, html, code, growing };
  }
}
