import type { Page } from '@playwright/test';
import { boot, callsTo, expect, test, withProvider } from './fixtures';
import { broken, GiB, localModelItems, qwen, recommended, SMOL } from './localModelItems';

const localModels = [...localModelItems, broken];

async function openModels(page: Page, settingsLabel = 'Settings') {
  await page.getByRole('button', { name: new RegExp(settingsLabel) }).click();
  const section = page.locator('section#models');
  await expect(section).toHaveAttribute('data-models', 'loaded');
  return section;
}

test('Settings → Models lists the models with their facts, the built-in one, a broken one and the recommendations', async ({ page }) => {
  await boot(page, { settings: withProvider, localModels, recommended, memoryBytes: 4 * GiB });
  const section = await openModels(page);
  await expect(section.getByRole('heading', { name: 'Models', exact: true })).toBeVisible();
  await expect(section.locator('.local-model')).toHaveCount(3);
  await expect(section).toContainText('/home/u/.hearth/models');
  await expect(section.locator('[data-models="tiny-note"]')).toContainText('SmolLM2-135M is a tiny model for trying Hearth out');

  const q = section.locator('[data-model="Qwen3-1.7B-Q4_K_M"]');
  await expect(q.locator('.model-facts')).toHaveText(/Size\s*1\.2 GB\s*Architecture\s*qwen3\s*Parameters\s*1\.7B\s*Quantization\s*Q4_K_M\s*Context\s*8,192 of 40,960 tokens/);
  await expect(q.locator('.badge')).toHaveCount(0);

  const s = section.locator(`[data-model="${SMOL}"]`);
  await expect(s.locator('.badge')).toHaveText('Built-in');
  await expect(s.locator('.model-facts')).toContainText('98.9 MB');

  const b = section.locator('[data-model="half-download"]');
  await expect(b.locator('[data-model-problem]')).toHaveText('half-download.gguf cannot be used: truncated: the file ends inside its tensor data');
  await expect(b.locator('.model-facts')).toHaveText(/^\s*Size\s*4\.0 KB\s*$/);

  await expect(section).toContainText('This computer has 4.0 GB of memory.');
  const fits = section.locator('[data-recommended="Qwen3-1.7B-Q4_K_M.gguf"]');
  await expect(fits).toContainText('Qwen3 1.7B');
  await expect(fits).toContainText('1.1 GB · needs 2.0 GB of memory');
  await expect(fits.locator('[data-fits]')).toHaveText('Fits this computer');
  await expect(fits).toContainText('unsloth/Qwen3-1.7B-GGUF');
  await expect(section.locator('[data-recommended="gemma-3-4b-it-Q4_K_M.gguf"] [data-fits]')).toHaveText('Needs more memory');
  // The installed one says so; the other is offered for download.
  await expect(fits).toContainText('Installed');
  await expect(section.getByRole('button', { name: 'Download Gemma 3 4B' })).toBeVisible();
});

test('importing: the dialog takes .gguf files, a refused file says why, a dropped one is linked in', async ({ page }) => {
  const refused = '/home/u/Downloads/notes.gguf';
  await boot(page, {
    settings: withProvider,
    localModels,
    dialog: refused,
    importRefusals: { [refused]: { code: 'local_model_unusable', params: { file: refused, detail: 'not a GGUF file (wrong magic)' } } },
  });
  const section = await openModels(page);
  await section.getByRole('button', { name: 'Import .gguf…' }).click();
  await expect(section.locator('[data-models="import-error"]')).toHaveText(
    '/home/u/Downloads/notes.gguf cannot be used as a local model: not a GGUF file (wrong magic)',
  );
  const dialog = (await callsTo(page, 'plugin:dialog|open'))[0].args.options as { filters: { extensions: string[] }[] };
  expect(dialog.filters[0].extensions).toEqual(['gguf']);
  expect((await callsTo(page, 'import_local_model')).map((c) => c.args)).toEqual([{ path: refused, link: false }]);

  await section.getByRole('checkbox', { name: /Link instead of copy/ }).check();
  await expect.poll(async () => (await callsTo(page, 'plugin:event|listen')).map((c) => c.args.event)).toContain('tauri://drag-drop');
  await page.evaluate(() => {
    const h = (window as unknown as { __hearth: { emit(e: string, p: unknown): void } }).__hearth;
    h.emit('tauri://drag-enter', { paths: ['/data/Qwen3-0.6B-Q4_K_M.gguf'], position: { x: 10, y: 10 } });
  });
  await expect(section).toHaveClass(/dragging/);
  await expect(section.getByRole('status')).toHaveText('Drop to import the model');
  await page.evaluate(() => {
    const h = (window as unknown as { __hearth: { emit(e: string, p: unknown): void } }).__hearth;
    h.emit('tauri://drag-drop', { paths: ['/data/Qwen3-0.6B-Q4_K_M.gguf', '/data/readme.txt'], position: { x: 10, y: 10 } });
  });
  await expect(section.locator('[data-model="Qwen3-0.6B-Q4_K_M"]')).toBeVisible();
  await expect(section.locator('[data-models="import-error"]')).toHaveText('readme.txt is not a .gguf file.');
  expect((await callsTo(page, 'import_local_model')).at(-1)?.args).toEqual({ path: '/data/Qwen3-0.6B-Q4_K_M.gguf', link: true });
  await expect(page.getByText('Model Qwen3-0.6B-Q4_K_M imported.')).toBeVisible();
});

test('removing a model waits out the undo window: undone it stays, otherwise its file is removed', async ({ page }) => {
  await boot(page, { settings: withProvider, localModels });
  const section = await openModels(page);
  const row = section.locator('[data-model="Qwen3-1.7B-Q4_K_M"]');
  await row.getByRole('button', { name: 'Remove Qwen3-1.7B-Q4_K_M' }).click();
  await expect(row).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(row).toBeVisible();
  expect(await callsTo(page, 'remove_local_model')).toHaveLength(0);

  await row.getByRole('button', { name: 'Remove Qwen3-1.7B-Q4_K_M' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('Model Qwen3-1.7B-Q4_K_M removed.')).toBeVisible();
  await expect.poll(async () => (await callsTo(page, 'remove_local_model')).map((c) => c.args), { timeout: 9000 }).toEqual([
    { name: 'Qwen3-1.7B-Q4_K_M' },
  ]);
  await expect(section.locator('.local-model')).toHaveCount(2);
  await expect(row).toHaveCount(0);
});

test('the [local] settings are checked, then saved', async ({ page }) => {
  await boot(page, { settings: withProvider, localModels });
  const section = await openModels(page);
  const idle = section.getByRole('spinbutton', { name: 'Unload after idle minutes' });
  await idle.fill('0');
  await idle.blur();
  await expect(section.getByRole('alert')).toHaveText('Enter a whole number from 1 to 1,440.');
  expect(await callsTo(page, 'save_settings')).toHaveLength(0);
  await idle.fill('30');
  await idle.blur();
  await section.getByRole('spinbutton', { name: 'Threads' }).fill('4');
  await section.getByRole('spinbutton', { name: 'Threads' }).blur();
  await expect
    .poll(async () => ((await callsTo(page, 'save_settings')).at(-1)?.args.settings as { local?: unknown })?.local)
    .toEqual({ idle_minutes: 30, threads: 4, context_length: 0 });
  await expect(section.getByRole('alert')).toHaveCount(0);
});

test('a provider of Hearth’s own models has no address or key and picks from the models folder', async ({ page }) => {
  await boot(page, { settings: withProvider, localModels });
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.getByRole('button', { name: 'Add provider' }).click();
  const form = page.locator('form.provider-form');
  await form.locator('input[name="name"]').fill('Offline');
  await form.locator('select[name="kind"]').selectOption('local');
  await expect(form.locator('input[name="base_url"]')).toHaveCount(0);
  await expect(form.locator('input[name="new_api_key"]')).toHaveCount(0);
  const picker = form.locator('select[name="default_model"]');
  await expect(picker.locator('option')).toHaveText(['Qwen3-1.7B-Q4_K_M', SMOL]);
  await expect(picker).toHaveValue('Qwen3-1.7B-Q4_K_M');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByText('Connected. 2 models available:')).toBeVisible();
  await picker.selectOption(SMOL);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(form).toHaveCount(0);
  expect((await callsTo(page, 'save_settings')).at(-1)?.args.settings).toMatchObject({
    providers: [withProvider.providers[0], { id: 'offline', name: 'Offline', kind: 'local', base_url: '', default_model: SMOL }],
    model_context_windows: { [SMOL]: 8192 },
  });
  // Without a connection test, the window comes from the models folder.
  await page.locator('[data-provider-id="offline"]').getByRole('button', { name: 'Edit' }).click();
  await page.locator('form.provider-form select[name="default_model"]').selectOption('Qwen3-1.7B-Q4_K_M');
  await page.locator('form.provider-form').getByRole('button', { name: 'Save', exact: true }).click();
  await expect
    .poll(async () => ((await callsTo(page, 'save_settings')).at(-1)?.args.settings as { model_context_windows?: unknown })?.model_context_windows)
    .toEqual({ [SMOL]: 8192, 'Qwen3-1.7B-Q4_K_M': 8192 });
  expect(await callsTo(page, 'set_api_key')).toHaveLength(0);
});

test('first run: the built-in model is the default provider in one click and the chat answers', async ({ page }) => {
  await boot(page, { localModels, script: [{ text: 'Hello from the built-in model.' }] });
  const card = page.locator('[data-empty="no-provider"]');
  await expect(card).toContainText('SmolLM2-135M is a tiny model for trying Hearth out');
  await card.getByRole('button', { name: 'Use the built-in model (offline)' }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  expect((await callsTo(page, 'save_settings')).at(-1)?.args.settings).toMatchObject({
    providers: [{ id: 'local', name: 'Built-in model', kind: 'local', base_url: '', default_model: SMOL }],
    default_provider: 'local',
    default_model: SMOL,
    model_context_windows: { [SMOL]: 8192 },
  });
  await page.getByRole('textbox', { name: 'Message' }).fill('Hi');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('article.message.assistant').last()).toContainText('Hello from the built-in model.');
});

test('first run without the built-in model says so and leads to Settings → Models', async ({ page }) => {
  await boot(page, { localModels: [qwen] });
  const card = page.locator('[data-empty="no-provider"]');
  await card.getByRole('button', { name: 'Use the built-in model (offline)' }).click();
  await expect(card.locator('[data-builtin-model="missing"]')).toHaveText(
    'The built-in model is not installed. Import a .gguf file in Settings → Models.',
  );
  expect(await callsTo(page, 'save_settings')).toHaveLength(0);
  await card.getByRole('button', { name: 'Settings → Models' }).click();
  await expect(page.locator('section#models')).toBeInViewport();
});

test('in Chinese, the models page and the first-run offer are in Chinese', async ({ page }) => {
  await boot(page, { settings: { language: 'zh-CN' }, localModels, recommended });
  const card = page.locator('[data-empty="no-provider"]');
  await expect(card.getByRole('button', { name: '使用内置模型（离线）' })).toBeVisible();
  await expect(card).toContainText('内置的 SmolLM2-135M 是一个很小的模型，用来试用 Hearth');
  await card.getByRole('button', { name: '使用内置模型（离线）' }).click();
  await expect(page.getByRole('textbox', { name: '消息' })).toBeVisible();
  const section = await openModels(page, '设置');
  await expect(section.getByRole('heading', { name: '模型', exact: true })).toBeVisible();
  await expect(section.locator(`[data-model="${SMOL}"] .badge`)).toHaveText('内置');
  await expect(section.locator('[data-model="Qwen3-1.7B-Q4_K_M"] .model-facts')).toContainText('8,192 / 40,960 个 token');
  await expect(section.locator('[data-model="half-download"] [data-model-problem]')).toContainText('无法使用');
  await expect(section.getByRole('button', { name: '导入 .gguf…' })).toBeVisible();
  await expect(section.locator('[data-fits="true"]')).toHaveText('适合本机');
  await expect(section.locator('[data-fits="false"]')).toHaveText('需要更多内存');
});
