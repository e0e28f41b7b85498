import { describe, expect, it } from 'vitest';
import {
  base64Size,
  baseName,
  bytesToBase64,
  chipFor,
  composeContent,
  formatBytes,
  pastedName,
  pickedPaths,
  removeChip,
  TEXT_INLINE_CAP_BYTES,
} from './attachments';

describe('attachment chips', () => {
  it('labels image, file and text parts', () => {
    expect(chipFor({ type: 'image', mime_type: 'image/png', data: 'AAAA', name: 'shot.png' }, 'a')).toMatchObject({ kind: 'image', label: 'shot.png', size: 3 });
    expect(chipFor({ type: 'image', mime_type: 'image/png', data: 'AA==' }, 'b', '/tmp/x/pic.png')).toMatchObject({ label: 'pic.png', size: 1 });
    expect(chipFor({ type: 'file', name: 'data.bin', path: '/w/data.bin', size: 2048 }, 'c')).toMatchObject({ kind: 'file', label: 'data.bin', size: 2048 });
    expect(chipFor({ type: 'text', text: 'héllo' }, 'd', 'C:\\docs\\notes.md')).toMatchObject({ kind: 'text', label: 'notes.md', size: 6 });
  });

  it('names attached text by the source the backend gave beside it, never by its text', () => {
    const text = 'Attached file `report.csv`:\n```csv\na,b\n```';
    const file = { type: 'attached' as const, text, source: { kind: 'file' as const, name: 'report.csv' } };
    expect(chipFor(file, 'f')).toMatchObject({ kind: 'text', label: 'report.csv', size: text.length });
    // Text that merely looks like an attachment is typed text, named by its first line.
    expect(chipFor({ type: 'text', text }, 'p').label).toBe('Attached file `report.csv`:');
  });

  it('shows what went in of an attached document from its source', () => {
    const source = { kind: 'document' as const, name: '季度.pdf', format: 'pdf', unit_kind: 'page', included: 2, count: 5, cut: true, no_text: false };
    expect(chipFor({ type: 'attached', text: '--- page 1 ---\nx', source }, 'g')).toMatchObject({
      kind: 'document',
      label: '季度.pdf',
      size: null,
      document: { name: '季度.pdf', format: 'pdf', unitKind: 'page', included: 2, count: 5, cut: true, noText: false },
    });
    const scanned = { ...source, name: 'scan.pdf', included: 0, count: 0, cut: false, no_text: true };
    expect(chipFor({ type: 'attached', text: '[no text layer]', source: scanned }, 'h').document).toMatchObject({ name: 'scan.pdf', noText: true });
  });

  it('names unsourced text by its first line, shortened', () => {
    const chip = chipFor({ type: 'text', text: `\n\n${'x'.repeat(100)}\nmore` }, 'e');
    expect(chip.label).toHaveLength(40);
    expect(chip.label.endsWith('…')).toBe(true);
  });

  it('removes a chip by id and keeps the order', () => {
    const chips = ['a', 'b', 'c'].map((id) => chipFor({ type: 'text', text: id }, id));
    expect(removeChip(chips, 'b').map((c) => c.id)).toEqual(['a', 'c']);
    expect(removeChip(chips, 'zz')).toHaveLength(3);
  });

  it('composes the message: typed text first, then attachments; blank text is left out', () => {
    const chip = chipFor({ type: 'file', name: 'f', path: '/f', size: 1 }, 'x');
    expect(composeContent('hello', [chip])).toEqual([{ type: 'text', text: 'hello' }, chip.part]);
    expect(composeContent('   ', [chip])).toEqual([chip.part]);
    expect(composeContent('', [])).toEqual([]);
  });
});

describe('attachment helpers', () => {
  it('formats sizes and states the inline cap as 200 KB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(TEXT_INLINE_CAP_BYTES)).toBe('200 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(88 * 1024 * 1024)).toBe('88.0 MB');
    expect(formatBytes(2.5 * 1024 ** 3)).toBe('2.5 GB');
  });

  it('takes base names from both path styles', () => {
    expect(baseName('/home/a/b.txt')).toBe('b.txt');
    expect(baseName('C:\\Users\\a\\c.png')).toBe('c.png');
    expect(baseName('dir/')).toBe('dir');
    expect(baseName('')).toBe('');
  });

  it('normalizes dialog results', () => {
    expect(pickedPaths(null)).toEqual([]);
    expect(pickedPaths('/a')).toEqual(['/a']);
    expect(pickedPaths(['/a', '/b'])).toEqual(['/a', '/b']);
  });

  it('encodes bytes as base64, including large buffers', () => {
    expect(bytesToBase64(new Uint8Array([104, 105]))).toBe('aGk=');
    const big = new Uint8Array(200_000).fill(65);
    const encoded = bytesToBase64(big);
    expect(base64Size(encoded)).toBe(200_000);
    expect(atob(encoded)).toBe('A'.repeat(200_000));
  });

  it('names pasted images by type', () => {
    expect(pastedName('image/png', 1)).toBe('pasted-1.png');
    expect(pastedName('image/jpeg', 2)).toBe('pasted-2.jpg');
    expect(pastedName('image/svg+xml', 3)).toBe('pasted-3.svgxml');
    expect(pastedName('weird', 4)).toBe('pasted-4.bin');
  });
});
