import { boot, callsTo, expect, session, test, withProvider } from './fixtures';

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
  // The form stays open on the saved provider, now with its key field.
  const providers = page.locator('section[aria-labelledby="providers-title"]');
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

test('test connection reports the backend error', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions: [session('desktop:a', 'A')] });
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.locator('[data-provider-id="local"]').getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('alert')).toHaveText('Connection failed: authentication failed: no API key');
});
