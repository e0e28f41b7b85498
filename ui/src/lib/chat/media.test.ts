import { describe, expect, it } from 'vitest';
import { mediaView } from './media';
import type { ToolCard } from './rows';

function card(name: string, content: unknown, isError = false): ToolCard {
  return {
    call: { id: 'c1', name, arguments: '{}' } as ToolCard['call'],
    status: isError ? 'error' : 'ok',
    result: {
      call_id: 'c1',
      name,
      content: typeof content === 'string' ? content : JSON.stringify(content),
      is_error: isError,
      duration_ms: 5,
    },
    approval: null,
  };
}

describe('mediaView', () => {
  it('shows the image of image_generate and the audio of text_to_speech', () => {
    expect(mediaView(card('image_generate', { path: 'generated/a.png', mime_type: 'image/png' }))).toEqual({
      kind: 'image',
      path: 'generated/a.png',
      mimeType: 'image/png',
    });
    expect(mediaView(card('text_to_speech', { path: 'generated/s.wav', mime_type: 'audio/wav' }))?.kind).toBe('audio');
  });

  it('shows nothing for errors, other tools and results without a media path', () => {
    expect(mediaView(card('image_generate', { error: { kind: 'unavailable' } }, true))).toBeNull();
    expect(mediaView(card('write_file', { path: 'a.png', mime_type: 'image/png' }))).toBeNull();
    expect(mediaView(card('text_to_speech', 'not json'))).toBeNull();
    expect(mediaView(card('text_to_speech', { path: 'a.txt', mime_type: 'text/plain' }))).toBeNull();
  });
});
