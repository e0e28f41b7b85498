// Splits markdown into top-level blocks so a streaming reply only re-lexes (and re-renders) its
// growing last block. Every block but the last is final: it keeps its object, key and raw text
// while the text grows, and the split of a grown text equals the split of the whole text lexed
// at once.
import { Lexer, type Token, type TokensList } from 'marked';

export interface Block {
  /** Stable while the text grows: the block's index among the blocks. */
  key: string;
  /** Offset of the block in the (normalized) text; -1 when the lexer's raw text did not add up
   * before it, so the offset is unknown. */
  start: number;
  raw: string;
  token: Token;
}

export interface BlockSplit {
  text: string;
  blocks: Block[];
  links: TokensList['links'];
}

const lexerOptions = { gfm: true, breaks: false } as const;

function lex(src: string): TokensList {
  return new Lexer(lexerOptions).lex(src);
}

/** Blocks for `tokens` lexed from `src`, which starts at `offset` in the text; the first one
 * gets index `firstIndex`. A token starts where the previous one's raw text ended as long as
 * every raw text so far matched the source; after one that did not (marked shortens the raw
 * text of an empty list item), offsets are unknown. */
function toBlocks(tokens: Token[], src: string, offset: number, firstIndex: number): Block[] {
  const blocks: Block[] = [];
  let pos: number | null = 0;
  for (const token of tokens) {
    const start = pos === null ? -1 : offset + pos;
    if (token.type !== 'space') {
      blocks.push({ key: `b${firstIndex + blocks.length}`, start, raw: token.raw, token });
    }
    pos = pos !== null && src.startsWith(token.raw, pos) ? pos + token.raw.length : null;
  }
  return blocks;
}

function fullSplit(text: string): BlockSplit {
  const tokens = lex(text);
  return { text, blocks: toBlocks(tokens, text, 0, 0), links: tokens.links };
}

/** Normalizes line endings the same way the lexer does, so offsets line up. */
export function normalize(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Whether `links` holds any reference link definition. */
function hasLinks(links: TokensList['links']): boolean {
  for (const _ in links) return true;
  return false;
}

/**
 * Splits `text` into blocks. With `prev` (the split of an earlier prefix of `text`), the blocks
 * before the last one whose offset is known are reused as they are and only the text from there
 * on is lexed again: a block followed by another one is final in CommonMark (bar reference
 * definitions, handled below).
 */
export function splitBlocks(input: string, prev?: BlockSplit | null): BlockSplit {
  const text = normalize(input);
  if (!prev || !text.startsWith(prev.text)) return fullSplit(text);
  if (text === prev.text) return prev;
  let resume = prev.blocks.length - 1;
  while (resume >= 0 && prev.blocks[resume].start < 0) resume--;
  if (resume < 0) return fullSplit(text);
  const from = prev.blocks[resume].start;
  const tokens = lex(text.slice(from));
  // A reference definition can change how any block renders, before or after it: texts with
  // one are always lexed whole (models rarely write them).
  if (hasLinks(prev.links) || hasLinks(tokens.links)) return fullSplit(text);
  return {
    text,
    blocks: [...prev.blocks.slice(0, resume), ...toBlocks(tokens, text.slice(from), from, resume)],
    links: tokens.links,
  };
}
