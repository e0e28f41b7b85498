import { describe, expect, it } from 'vitest';
import {
  attachedDocument,
  attachedTextName,
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

  it('names attached text files by the name the backend put in them', () => {
    const part = { type: 'text' as const, text: 'Attached file `report.csv`:\n```csv\na,b\n```' };
    expect(chipFor(part, 'f').label).toBe('report.csv');
    expect(attachedTextName(part.text)).toBe('report.csv');
    expect(attachedTextName('Attached file report.csv')).toBeNull();
    expect(attachedTextName('hello')).toBeNull();
  });

  it('reads what went in from an attached document\'s header', () => {
    const pdf = { type: 'text' as const, text: 'Attached document `季度.pdf` (pdf, pages 2 of 5, cut; original copied to attachments/季度.pdf):\n--- page 1 ---\nx' };
    expect(chipFor(pdf, 'g', '/tmp/季度.pdf')).toMatchObject({
      kind: 'document',
      label: '季度.pdf',
      size: null,
      document: { format: 'pdf', unitKind: 'page', included: 2, count: 5, cut: true, noText: false },
    });
    const scanned = 'Attached document `scan.pdf` (pdf, no text layer; original copied to attachments/scan.pdf):\n[no text layer]';
    expect(attachedDocument(scanned)).toMatchObject({ name: 'scan.pdf', noText: true, cut: false });
    const deck = 'Attached document `d.pptx` (pptx, slides 3 of 3; original copied to attachments/d.pptx):\n';
    expect(attachedDocument(deck)).toMatchObject({ unitKind: 'slide', included: 3, count: 3, cut: false });
    expect(attachedDocument('Attached file `a.csv`:\n```csv\n```')).toBeNull();
    // A sent message shows the document as a chip, not as its body.
    expect(attachedTextName(pdf.text)).toBe('季度.pdf');
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
