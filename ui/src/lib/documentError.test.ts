import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from './i18n/index.svelte';
import { fileProblemText } from './documentError';

describe('why a knowledge file is unreadable', () => {
  afterEach(() => setLanguage('en'));

  it('words the typed error in the UI language, the parser’s reason apart', () => {
    expect(fileProblemText({ code: 'empty' })).toEqual({ text: 'the file is empty (0 bytes)', detail: null });
    setLanguage('zh-CN');
    expect(fileProblemText({ code: 'empty' }).text).toBe('文件是空的（0 字节）');
    expect(fileProblemText({ code: 'no_text_layer' }).text).toBe('没有文字层：这似乎是扫描件（无法进行文字识别）');
    expect(fileProblemText({ code: 'too_large', params: { size: 209715200, limit: 104857600 } }).text).toBe('文件有 209,715,200 字节，超过文档 104,857,600 字节的上限');
    expect(fileProblemText({ code: 'corrupt', params: { format: 'txt', reason: 'it is a program (an ELF executable), not text' } })).toEqual({
      text: '这个 txt 文件已损坏，或与其扩展名不符',
      detail: 'it is a program (an ELF executable), not text',
    });
    expect(fileProblemText({ code: 'no_such_unit', params: { kind: 'sheet', asked: 'Q3', count: 2, names: '' } }).text).toBe('没有工作表“Q3”：文档共有 2 个');
  });

  it('shows a sentence an older version stored as it is', () => {
    setLanguage('zh-CN');
    expect(fileProblemText('the file is empty (0 bytes)')).toEqual({ text: 'the file is empty (0 bytes)', detail: null });
  });
});
