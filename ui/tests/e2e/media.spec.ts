// Generated media in chats: the image of an image_generate card and the audio of a
// text_to_speech card, read through read_workspace_media and shown from blob URLs; a file the
// backend refuses says so; Settings → Media saves the providers and keeps keys out of settings.
import { boot, expect, test, withProvider } from './fixtures';

/** A 1×1 transparent PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** A WAV of 0.1 s of silence (800 samples at 8 kHz). */
const WAV = 'UklGRmQGAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YUAGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

test('a generated image and speech show and play in their tool cards', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    media: {
      'generated/image-1.png': { mime_type: 'image/png', data_base64: PNG },
      'generated/speech-1.wav': { mime_type: 'audio/wav', data_base64: WAV },
    },
    script: [
      {
        tool: {
          name: 'image_generate',
          arguments: '{"prompt":"a fox"}',
          result: JSON.stringify({ path: 'generated/image-1.png', mime_type: 'image/png', bytes: 68, width: 1, height: 1 }),
          views: [{ kind: 'media', media: 'image', path: 'generated/image-1.png', mime_type: 'image/png' }],
        },
      },
      {
        tool: {
          name: 'text_to_speech',
          arguments: '{"text":"hello"}',
          result: JSON.stringify({ path: 'generated/speech-1.wav', mime_type: 'audio/wav', bytes: 44, backend: 'local' }),
          views: [{ kind: 'media', media: 'audio', path: 'generated/speech-1.wav', mime_type: 'audio/wav' }],
        },
      },
      {
        tool: {
          name: 'text_to_speech',
          arguments: '{"text":"gone"}',
          result: JSON.stringify({ path: 'generated/gone.wav', mime_type: 'audio/wav', bytes: 44, backend: 'local' }),
          views: [{ kind: 'media', media: 'audio', path: 'generated/gone.wav', mime_type: 'audio/wav' }],
        },
      },
      { text: 'Here they are.' },
    ],
  });
  await page.getByRole('button', { name: /New chat|新对话/ }).first().click();
  const input = page.getByRole('textbox').last();
  await input.fill('make media');
  await input.press('Enter');
  await expect(page.getByText('Here they are.')).toBeVisible();
  const image = page.locator('.tool-card[data-tool="image_generate"] .media-view img');
  await expect(image).toHaveAttribute('src', /^blob:/);
  expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  const cards = page.locator('.tool-card[data-tool="text_to_speech"]');
  const audio = cards.nth(0).locator('audio[controls]');
  await expect(audio).toHaveAttribute('src', /^blob:/);
  // The CSP's media-src lets the blob play: its metadata loads.
  const duration = await audio.evaluate(
    (a: HTMLAudioElement) =>
      new Promise<number | string>((resolve) => {
        if (a.readyState >= 1) resolve(a.duration);
        a.onloadedmetadata = () => resolve(a.duration);
        a.onerror = () => resolve('error');
      }),
  );
  expect(duration).toBeCloseTo(0.1, 2);
  await expect(cards.nth(1).locator('.media-view')).toContainText('The file could not be shown');
  await expect(cards.nth(1).locator('audio')).toHaveCount(0);
});

test('Settings → Media saves the providers; keys go to the keychain command', async ({ page }) => {
  await boot(page, { settings: withProvider });
  await page.getByRole('button', { name: /Settings|设置/ }).first().click();
  const section = page.locator('section[aria-labelledby="media-title"]');
  await expect(section.getByRole('heading', { name: 'Media' })).toBeVisible();
  await section.locator('input[name="image_base_url"]').fill('http://127.0.0.1:8080/v1');
  await section.locator('input[name="image_base_url"]').blur();
  await section.locator('select[name="speech_backend"]').selectOption('openai');
  await expect(section.getByText('Edge read-aloud has no public API')).toHaveCount(0);
  const saved = await page.evaluate(() => {
    const calls = (window as unknown as { __hearth: { calls: { cmd: string; args: { settings?: { media: unknown } } }[] } }).__hearth.calls;
    return calls.filter((c) => c.cmd === 'save_settings').map((c) => c.args.settings?.media);
  });
  expect(saved.at(-1)).toEqual({
    vision_model: '',
    image: { base_url: 'http://127.0.0.1:8080/v1', model: '' },
    speech: { backend: 'openai', voice: '', base_url: '', model: '' },
  });
  await expect(section.locator('[data-key="media-image"]')).toBeVisible();
  await expect(section.locator('[data-key="media-speech"]')).toBeVisible();
});
