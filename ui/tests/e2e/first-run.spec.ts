import type { DetectedServer } from '../../src/lib/bindings/DetectedServer';
import { boot, callsTo, expect, session, test, withProvider } from './fixtures';

const ollama: DetectedServer = {
  name: 'Ollama',
  id: 'ollama',
  kind: 'ollama',
  address: '127.0.0.1:11434',
  base_url: 'http://127.0.0.1:11434',
  models: ['qwen3:8b', 'llama3.2:latest', 'gemma3:4b'],
};
const llamaCpp: DetectedServer = {
  name: 'llama.cpp',
  id: 'llama-cpp',
  kind: 'openai',
  address: '127.0.0.1:8080',
  base_url: 'http://127.0.0.1:8080/v1',
  models: ['ggml-model-q4'],
};

test('first run without a provider says exactly what to do and opens the provider form', async ({ page }) => {
  await boot(page, {});
  const card = page.locator('[data-empty="no-provider"]');
  await expect(card.getByRole('heading')).toHaveText('Set up a model provider first');
  await expect(card).toContainText('Add provider');
  await expect(card).toContainText('Test connection');
  await card.getByRole('button', { name: 'Open Settings → Add provider' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page.locator('form.provider-form input[name="name"]')).toBeVisible();
  expect(await callsTo(page, 'app_ready')).toHaveLength(1);
});

test('with a provider but no chats, the empty state starts a new chat', async ({ page }) => {
  await boot(page, { settings: withProvider });
  const card = page.locator('[data-empty="no-sessions"]');
  await expect(card.getByRole('heading')).toHaveText('No chats yet');
  await card.getByRole('button', { name: 'Start a new chat' }).click();
  await expect(page.locator('.session')).toHaveCount(1);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  expect(await callsTo(page, 'create_session')).toEqual([{ cmd: 'create_session', args: { title: null } }]);
});

test('adding the first provider stores it, then its key, then lists models', async ({ page }) => {
  await boot(page, { models: ['gpt-4o-mini', 'llama3'] });
  await page.getByRole('button', { name: 'Open Settings → Add provider' }).click();
  const form = page.locator('form.provider-form');
  await form.locator('input[name="name"]').fill('My Router');
  await expect(form.locator('input[name="id"]')).toHaveValue('my-router');
  await form.locator('select[name="kind"]').selectOption('anthropic');
  await form.locator('input[name="base_url"]').fill('https://api.example.test');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  const saved = await callsTo(page, 'save_settings');
  expect(saved.at(-1)?.args.settings).toMatchObject({
    providers: [{ id: 'my-router', name: 'My Router', kind: 'anthropic', base_url: 'https://api.example.test', default_model: null }],
    default_provider: 'my-router',
  });
  // Saving closes the form; editing the saved provider shows its key field.
  await expect(form).toHaveCount(0);
  const providers = page.locator('section[aria-labelledby="providers-title"]');
  await providers.locator('[data-provider-id="my-router"]').getByRole('button', { name: 'Edit' }).click();
  const key = providers.locator('input[name="api_key"]');
  await key.fill('sk-test-1234');
  await providers.getByRole('button', { name: 'Save key' }).click();
  await expect(providers.locator('.key-status')).toHaveText('Stored key: ••••1234');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText('Connected. 2 models available:')).toBeVisible();
  await page.getByRole('button', { name: 'llama3' }).click();
  await page.locator('form.provider-form').getByRole('button', { name: 'Save', exact: true }).click();
  expect((await callsTo(page, 'save_settings')).at(-1)?.args.settings).toMatchObject({ providers: [{ default_model: 'llama3' }] });
});

test('a new provider is tested with the key typed in its form, which is stored only on save', async ({ page }) => {
  await boot(page, { models: ['only-model'] });
  await page.getByRole('button', { name: 'Open Settings → Add provider' }).click();
  const form = page.locator('form.provider-form');
  await form.locator('input[name="name"]').fill('Router');
  await form.locator('input[name="base_url"]').fill('https://api.example.test');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByRole('alert')).toHaveText('Connection failed: authentication failed: no API key');
  await form.locator('input[name="new_api_key"]').fill('sk-typed-9876');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.getByText('Connected. 1 model available:')).toBeVisible();
  const tested = await callsTo(page, 'test_connection');
  expect(tested.at(-1)?.args).toMatchObject({ provider: { id: 'router' }, apiKey: 'sk-typed-9876' });
  expect(await callsTo(page, 'set_api_key')).toHaveLength(0);
  expect(await callsTo(page, 'save_settings')).toHaveLength(0);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(async () => (await callsTo(page, 'set_api_key')).map((c) => c.args)).toEqual([
    { providerId: 'router', key: 'sk-typed-9876' },
  ]);
  await expect(form).toHaveCount(0);
  const providers = page.locator('section[aria-labelledby="providers-title"]');
  await providers.locator('[data-provider-id="router"]').getByRole('button', { name: 'Edit' }).click();
  await expect(providers.locator('.key-status')).toHaveText('Stored key: ••••9876');
});

test("a chosen model's context window, as its server lists it, is kept in the settings", async ({ page }) => {
  await boot(page, { models: [{ id: 'qwen3:8b', context_window: 8192 }, { id: 'other', context_window: null }] });
  await page.getByRole('button', { name: 'Open Settings → Add provider' }).click();
  const form = page.locator('form.provider-form');
  await form.locator('input[name="name"]').fill('Local');
  await form.locator('input[name="base_url"]').fill('http://127.0.0.1:8080/v1');
  await form.locator('input[name="new_api_key"]').fill('sk-local-1');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.locator('.model-list li').first()).toContainText('8,192 tokens');
  await form.getByRole('button', { name: 'qwen3:8b' }).click();
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect
    .poll(async () => ((await callsTo(page, 'save_settings')).at(-1)?.args.settings as { model_context_windows?: unknown })?.model_context_windows)
    .toEqual({ 'qwen3:8b': 8192 });
});

test('test connection reports the backend error', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions: [session('desktop:a', 'A')] });
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.locator('[data-provider-id="local"]').getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('alert')).toHaveText('Connection failed: authentication failed: no API key');
});

test('first run offers the model servers found on this computer and adds one in a click', async ({ page }) => {
  await boot(page, { localServers: [ollama, llamaCpp] });
  const card = page.locator('[data-empty="no-provider"]');
  await expect(card.locator('[data-local-server="ollama"]')).toContainText('Ollama on 127.0.0.1:11434 — 3 models');
  await expect(card.locator('[data-local-server="llama-cpp"]')).toContainText('llama.cpp on 127.0.0.1:8080 — 1 model');
  expect(await callsTo(page, 'detect_local_servers')).toHaveLength(1);
  await card.getByRole('button', { name: 'Use Ollama' }).click();
  await expect(page.locator('[data-empty="no-sessions"]')).toBeVisible();
  expect((await callsTo(page, 'save_settings')).at(-1)?.args.settings).toMatchObject({
    providers: [{ id: 'ollama', name: 'Ollama', kind: 'ollama', base_url: 'http://127.0.0.1:11434', default_model: 'qwen3:8b' }],
    default_provider: 'ollama',
  });
  // No key was asked for or stored.
  expect(await callsTo(page, 'set_api_key')).toHaveLength(0);
});

test('with nothing found, first run shows only how to add a provider', async ({ page }) => {
  await boot(page, {});
  const card = page.locator('[data-empty="no-provider"]');
  await expect(card.getByRole('button', { name: 'Open Settings → Add provider' })).toBeVisible();
  await expect.poll(() => callsTo(page, 'detect_local_servers')).toHaveLength(1);
  await expect(card.locator('[data-local="searching"]')).toHaveCount(0);
  await expect(card.locator('.local-server')).toHaveCount(0);
});

test('in Chinese, the servers found are offered in Chinese', async ({ page }) => {
  await boot(page, { settings: { language: 'zh-CN' }, localServers: [ollama] });
  await expect(page.locator('[data-local-server="ollama"]')).toContainText('127.0.0.1:11434 上的 Ollama — 3 个模型');
  await expect(page.getByRole('button', { name: '使用 Ollama' })).toBeVisible();
});

test('a server that wants an API key says where to put it, in Chinese too', async ({ page }) => {
  const keyRequired = {
    code: 'key_required' as const,
    params: { status: 401, provider_id: 'local', env_var: 'OPENAI_API_KEY', detail: 'Invalid API Key' },
  };
  await boot(page, {
    settings: { ...withProvider, language: 'zh-CN' },
    sessions: [session('desktop:a', 'A')],
    connectionError: keyRequired,
  });
  await page.getByRole('button', { name: /设置/ }).click();
  await page.locator('[data-provider-id="local"]').getByRole('button', { name: '编辑' }).click();
  await page.getByRole('button', { name: '测试连接' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    '连接失败：此服务器需要 API 密钥（401）：请在“设置 → 服务商”中为服务商“local”添加密钥，或设置 HEARTH_API_KEY 或 OPENAI_API_KEY。服务器返回：Invalid API Key',
  );
});
