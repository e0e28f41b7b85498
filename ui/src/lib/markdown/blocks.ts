// Splits markdown into top-level blocks so a streaming reply only re-lexes (and re-renders) its
// growing last block; finished blocks keep their key and raw text.
import { Lexer, type Token, type TokensList } from 'marked';

export interface Block {
  /** Stable while the block grows: its start offset in the text. */
  key: string;
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

/** Turns tokens lexed from `src` (which starts at `offset`) into blocks; returns null when the
 * tokens' raw text does not add up to `src`, i.e. offsets cannot be trusted. */
function toBlocks(tokens: Token[], src: string, offset: number): Block[] | null {
  const blocks: Block[] = [];
  let pos = 0;
  for (const token of tokens) {
    if (src.startsWith(token.raw, pos) === false) return null;
    if (token.type !== 'space') {
      blocks.push({ key: String(offset + pos), start: offset + pos, raw: token.raw, token });
    }
    pos += token.raw.length;
  }
  return pos === src.length ? blocks : null;
}

function fullSplit(text: string): BlockSplit {
  const tokens = lex(text);
  const blocks = toBlocks(tokens, text, 0);
  if (blocks) return { text, blocks, links: tokens.links };
  // The lexer rewrote the source (tabs, odd line endings): one block per token, keyed by index.
  const fallback = tokens
    .filter((t) => t.type !== 'space')
    .map((token, i) => ({ key: `t${i}`, start: -1, raw: token.raw, token }));
  return { text, blocks: fallback, links: tokens.links };
}

/** Normalizes line endings the same way the lexer does, so offsets line up. */
export function normalize(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/**
 * Splits `text` into blocks. With `prev` (the split of an earlier prefix of `text`), every block
 * but the last is reused as-is and only the text from the last block's start is lexed again.
 */
export function splitBlocks(input: string, prev?: BlockSplit | null): BlockSplit {
  const text = normalize(input);
  if (!prev || prev.blocks.length === 0 || !text.startsWith(prev.text)) return fullSplit(text);
  if (text === prev.text) return prev;
  const last = prev.blocks[prev.blocks.length - 1];
  if (last.start < 0) return fullSplit(text);
  const tail = text.slice(last.start);
  const tokens = lex(tail);
  const tailBlocks = toBlocks(tokens, tail, last.start);
  if (!tailBlocks) return fullSplit(text);
  return {
    text,
    blocks: [...prev.blocks.slice(0, -1), ...tailBlocks],
    links: { ...prev.links, ...tokens.links },
  };
}
