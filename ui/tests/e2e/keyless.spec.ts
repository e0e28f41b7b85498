// People who never typed a key and desktops without tray icons: a keychain that cannot be asked
// reads as "no key stored" (a calm note only where a key is needed, never an error toast), a
// keyless provider is saved without touching the keychain and the form closes; closing the
// window without a tray asks once, in the user's language, and the answer is saved.
import { boot, callsTo, emitEvent, expect, provider, test, withProvider } from './fixtures';

const remote = { id: 'router', name: 'Router', kind: 'openai' as const, base_url: 'https://router.example/v1', default_model: 'gpt-4o' };
const twoProviders = { ...withProvider, providers: [provider, remote] };

test('with no keychain, Settings shows no error and only a provider that needs a key has the note', async ({ page }) => {
  await boot(page, { settings: twoProviders, keychainUnavailable: true });
  await page.getByRole('button', { name: /Settings/ }).click();
  const providers = page.locator('section[aria-labelledby="providers-title"]');
  await providers.locator('[data-provider-id="router"]').getByRole('button', { name: 'Edit' }).click();
  const router = providers.locator('[data-provider-id="router"]');
  await expect(router.locator('.key-status')).toHaveText('No key stored.');
  await expect(router.locator('[data-keychain="unavailable"]')).toContainText('The system keychain is not available');
  await router.getByRole('button', { name: 'Cancel' }).click();
  await providers.locator('[data-provider-id="local"]').getByRole('button', { name: 'Edit' }).click();
  const local = providers.locator('[data-provider-id="local"]');
  await expect(local.locator('.key-status')).toHaveText('No key stored.');
  await expect(local.locator('[data-keychain="unavailable"]')).toHaveCount(0);
  // Web search and media keys are not needed with the default backends: no notes there either.
  await expect(page.locator('[data-keychain="unavailable"]')).toHaveCount(0);
  await expect(page.locator('.toast.error')).toHaveCount(0);
});

test('with no keychain, a keyless local provider is saved, the form closes and nothing is asked of the keychain', async ({ page }) => {
  await boot(page, { settings: withProvider, keychainUnavailable: true, models: ['mock'] });
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.getByRole('button', { name: 'Add provider' }).click();
  const form = page.locator('form.provider-form');
  await form.locator('input[name="name"]').fill('LM Studio');
  await form.locator('input[name="base_url"]').fill('http://127.0.0.1:1234/v1');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(form).toHaveCount(0);
  await expect(page.locator('[data-provider-id="lm-studio"]')).toBeVisible();
  expect(await callsTo(page, 'set_api_key')).toHaveLength(0);
  expect(await callsTo(page, 'delete_api_key')).toHaveLength(0);
  await expect(page.locator('.toast.error')).toHaveCount(0);
});

test('removing a provider with no stored key does not ask the keychain to delete one', async ({ page }) => {
  await boot(page, { settings: twoProviders, keychainUnavailable: true });
  await page.getByRole('button', { name: /Settings/ }).click();
  const row = page.locator('[data-provider-id="router"]');
  await row.getByRole('button', { name: 'Remove' }).click();
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toHaveCount(0);
  expect(await callsTo(page, 'delete_api_key')).toHaveLength(0);
  await expect(page.locator('.toast.error')).toHaveCount(0);
});

test('the keychain note is in Chinese in the 简体中文 UI', async ({ page }) => {
  await boot(page, { settings: { ...twoProviders, language: 'zh-CN' }, keychainUnavailable: true });
  await page.getByRole('button', { name: /设置/ }).click();
  await page.locator('[data-provider-id="router"]').getByRole('button', { name: '编辑' }).click();
  await expect(page.locator('[data-keychain="unavailable"]')).toContainText('系统钥匙串不可用');
});

test('closing without a tray asks; keeping it running with start at login is saved before the window hides', async ({ page }) => {
  await boot(page, { settings: withProvider });
  await emitEvent(page, 'window://close-ask', null);
  const dialog = page.getByRole('dialog', { name: 'Keep Hearth running?' });
  await expect(dialog).toContainText('launching Hearth again opens this window');
  await dialog.getByRole('checkbox', { name: 'Also start Hearth when I log in' }).check();
  await dialog.getByRole('button', { name: 'Keep running in the background' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await callsTo(page, 'save_settings')).at(-1)?.args.settings).toMatchObject({ close_without_tray: 'background', start_at_login: true });
  await expect.poll(async () => (await callsTo(page, 'answer_close')).map((c) => c.args)).toEqual([{ choice: 'background' }]);
  // Settings → General shows the answer and can change it.
  await page.getByRole('button', { name: /Settings/ }).click();
  const choice = page.locator('select[name="close_without_tray"]');
  await expect(choice).toHaveValue('background');
  await choice.selectOption('ask');
  await expect.poll(async () => (await callsTo(page, 'save_settings')).at(-1)?.args.settings).toMatchObject({ close_without_tray: 'ask' });
});

test('cancel leaves the window open and saves nothing; quit is saved and acted on', async ({ page }) => {
  await boot(page, { settings: withProvider });
  await emitEvent(page, 'window://close-ask', null);
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await callsTo(page, 'save_settings')).toHaveLength(0);
  expect(await callsTo(page, 'answer_close')).toHaveLength(0);
  await emitEvent(page, 'window://close-ask', null);
  await dialog.getByRole('button', { name: 'Quit Hearth' }).click();
  await expect
    .poll(async () => (await callsTo(page, 'save_settings')).at(-1)?.args.settings)
    .toMatchObject({ close_without_tray: 'quit', start_at_login: false });
  await expect.poll(async () => (await callsTo(page, 'answer_close')).map((c) => c.args)).toEqual([{ choice: 'quit' }]);
});

test('the close question is in Chinese in the 简体中文 UI', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, language: 'zh-CN' } });
  await emitEvent(page, 'window://close-ask', null);
  const dialog = page.getByRole('dialog', { name: '让 Hearth 继续运行吗？' });
  await expect(dialog.getByRole('button', { name: '在后台继续运行' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: '退出 Hearth' })).toBeVisible();
});
