import { describe, expect, it } from 'vitest';
import type { ModelDownload } from './bindings/ModelDownload';
import { downloadFraction, downloadParams, timeLeft, withDownload } from './modelDownloads';

const d = (id: string, extra: Partial<ModelDownload> = {}): ModelDownload => ({
  id,
  url: `https://h/${id}.gguf`,
  file_name: `${id}.gguf`,
  state: 'running',
  done: 0,
  total: null,
  bytes_per_second: 0,
  seconds_left: null,
  error: null,
  model: null,
  ...extra,
});

describe('model downloads', () => {
  it('read the form as a URL or a Hugging Face repository and file', () => {
    expect(downloadParams(' https://h/m.gguf ', 'ignored', '')).toEqual({ source: 'https://h/m.gguf', file: null, sha256: null });
    expect(downloadParams('Qwen/Qwen3-0.6B-GGUF', ' Qwen3-0.6B-Q8_0.gguf ', 'A'.repeat(64))).toEqual({
      source: 'Qwen/Qwen3-0.6B-GGUF',
      file: 'Qwen3-0.6B-Q8_0.gguf',
      sha256: 'A'.repeat(64),
    });
    expect(downloadParams('  ', '', '')).toBe('models.download.noSource');
    expect(downloadParams('not a repo', 'f.gguf', '')).toBe('models.download.badSource');
    expect(downloadParams('Qwen/Qwen3-0.6B-GGUF', '', '')).toBe('models.download.noFile');
    expect(downloadParams('https://h/m.gguf', '', 'abc')).toBe('models.download.badSha');
  });

  it('tell the share done and the time left', () => {
    expect(downloadFraction(d('a', { done: 5 }))).toBeNull();
    expect(downloadFraction(d('a', { done: 25, total: 100 }))).toBe(0.25);
    expect(timeLeft(0.2)).toEqual({ key: 'models.download.seconds', params: { n: 1 } });
    expect(timeLeft(150)).toEqual({ key: 'models.download.minutes', params: { n: 3 } });
    expect(timeLeft(3 * 3600 + 5 * 60)).toEqual({ key: 'models.download.hours', params: { h: 3, m: 5 } });
  });

  it('keep a download in its place, add a new one and drop a finished or cancelled one', () => {
    const list = [d('a'), d('b')];
    expect(withDownload(list, d('a', { done: 9 })).map((x) => [x.id, x.done])).toEqual([['a', 9], ['b', 0]]);
    expect(withDownload(list, d('c')).map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(withDownload(list, d('a', { state: 'finished' })).map((x) => x.id)).toEqual(['b']);
    expect(withDownload(list, d('b', { state: 'cancelled' })).map((x) => x.id)).toEqual(['a']);
  });
});
