import type { Page } from '@playwright/test';
import type { Settings } from '../../src/lib/bindings/Settings';
import { boot, callsTo, expect, provider, session, test, withProvider } from './fixtures';
import type { AuditReason } from '../../src/lib/bindings/AuditReason';

test('the API key field never shows the stored key', async ({ page }) => {
  const stored = 'sk-stored-secret-abcdef';
  await boot(page, { settings: withProvider, keys: { local: stored } });
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.locator('[data-provider-id="local"]').getByRole('button', { name: 'Edit' }).click();
  const providers = page.locator('section[aria-labelledby="providers-title"]');
  const field = providers.locator('input[name="api_key"]');
  await expect(providers.locator('.key-status')).toHaveText('Stored key: ••••cdef');
  await expect(field).toHaveValue('');
  await expect(field).toHaveAttribute('type', 'password');
  expect(await page.content()).not.toContain(stored);

  const fresh = 'sk-new-secret-987654';
  await field.fill(fresh);
  await providers.getByRole('button', { name: 'Save key' }).click();
  await expect(providers.locator('.key-status')).toHaveText('Stored key: ••••7654');
  await expect(field).toHaveValue('');
  expect(await page.content()).not.toContain(fresh);
  expect(await page.evaluate(() => [...document.querySelectorAll('input')].map((i) => i.value))).not.toContain(fresh);
  expect((await callsTo(page, 'set_api_key')).map((c) => c.args)).toEqual([{ providerId: 'local', key: fresh }]);

  await providers.getByRole('button', { name: 'Delete key' }).click();
  await expect(providers.locator('.key-status')).toHaveText('No key stored.');
  expect((await callsTo(page, 'delete_api_key')).map((c) => c.args)).toEqual([{ providerId: 'local' }]);
});

test('switching the language to 简体中文 translates the UI and is saved', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions: [session('desktop:a', 'A')] });
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.locator('select[name="language"]').selectOption('zh-CN');
  await expect(page.getByRole('heading', { name: '设置', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /新建对话/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: '服务商' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '审计日志' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  expect((await callsTo(page, 'save_settings')).at(-1)?.args.settings).toMatchObject({ language: 'zh-CN' });
  await page.getByRole('button', { name: /返回对话/ }).click();
  await expect(page.getByText('在左侧选择一个对话，或开始新对话。')).toBeVisible();
});

test('a saved language applies at start-up', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, language: 'zh-CN' } });
  await expect(page.getByRole('heading', { name: '还没有对话' })).toBeVisible();
});

test('theme follows the setting and the system preference', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await boot(page, { settings: withProvider });
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'system');
  const darkBg = await bg();
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.locator('select[name="theme"]').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  const lightBg = await bg();
  expect(lightBg).not.toBe(darkBg);
  await page.locator('select[name="theme"]').selectOption('dark');
  expect(await bg()).toBe(darkBg);
});

test('in the dark theme a placeholder is dimmer than a value and in italics', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, theme: 'dark' } });
  await page.getByRole('button', { name: /New chat/ }).first().click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  const style = await composer.evaluate((el) => {
    const value = getComputedStyle(el);
    const placeholder = getComputedStyle(el, '::placeholder');
    return { value: value.color, placeholder: placeholder.color, italic: placeholder.fontStyle };
  });
  const luminance = (rgb: string) => rgb.match(/\d+/g)!.slice(0, 3).reduce((sum, c) => sum + Number(c), 0);
  expect(style.italic).toBe('italic');
  expect(luminance(style.placeholder)).toBeLessThan(luminance(style.value) * 0.6);
});

test('a context window can be set and removed per model', async ({ page }) => {
  await boot(page, { settings: withProvider });
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.locator('input[name="window_model"]').fill('llama3');
  await page.locator('input[name="window_tokens"]').fill('8192');
  await page.getByRole('button', { name: 'Set', exact: true }).click();
  await expect(page.locator('.model-windows li[data-model="llama3"]')).toContainText('8,192 tokens');
  expect((await lastSaved(page))?.model_context_windows).toEqual({ llama3: 8192 });
  await page.locator('.model-windows li[data-model="llama3"]').getByRole('button', { name: 'Remove' }).click();
  await expect(page.locator('.model-windows li')).toHaveCount(0);
  expect((await lastSaved(page))?.model_context_windows).toEqual({});
});

test('general settings save each change', async ({ page }) => {
  const second = { ...provider, id: 'claude', name: 'Claude', kind: 'anthropic' as const, default_model: 'claude-x' };
  await boot(page, { settings: { ...withProvider, providers: [provider, second] } });
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.locator('select[name="default_provider"]').selectOption('claude');
  await page.locator('select[name="tool_profile"]').selectOption('full');
  await page.locator('select[name="security_profile"]').selectOption('public_gateway');
  await page.locator('input[name="start_at_login"]').check();
  await page.locator('input[name="max_iterations"]').fill('0');
  await page.locator('input[name="max_iterations"]').blur();
  await expect(page.locator('input[name="max_iterations"]')).toHaveValue('50');
  await page.locator('input[name="context_window"]').fill('64000');
  await page.locator('input[name="context_window"]').blur();
  await expect.poll(async () => (await callsTo(page, 'save_settings')).at(-1)?.args.settings).toMatchObject({
    default_provider: 'claude',
    default_model: 'claude-x',
    tool_profile: 'full',
    security_profile: 'public_gateway',
    start_at_login: true,
    max_iterations: 50,
    context_window: 64000,
  });
});

test('removing a provider asks first and deletes its key', async ({ page }) => {
  await boot(page, { settings: withProvider, keys: { local: 'sk-x-1111' } });
  await page.getByRole('button', { name: /Settings/ }).click();
  const row = page.locator('[data-provider-id="local"]');
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toContainText('Remove Local? Its stored API key is deleted too.');
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('No providers yet. Add one to start chatting.')).toBeVisible();
  expect((await callsTo(page, 'save_settings')).at(-1)?.args.settings).toMatchObject({ providers: [], default_provider: null });
  expect((await callsTo(page, 'delete_api_key')).map((c) => c.args)).toEqual([{ providerId: 'local' }]);
});

test('the audit log lists tool decisions with who made them', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    audit: [
      { id: 2, session_id: 'desktop:a', tool: 'exec', arguments: '{"command":"ls"}', decision: 'deny', reason: 'user denied', reason_code: null, actor: 'user', created_at: 1_700_000_000_000 },
      { id: 1, session_id: null, tool: 'read_file', arguments: '{"path":"a"}', decision: 'allow', reason: null, reason_code: null, actor: 'rule 2', created_at: 1_699_999_000_000 },
      { id: 0, session_id: 'cli:tools', tool: 'process', arguments: '{"action":"start"}', decision: 'allow', reason: null, reason_code: null, actor: 'cli --approve', created_at: 1_699_998_000_000 },
    ],
  });
  await page.getByRole('button', { name: /Settings/ }).click();
  const rows = page.locator('table.audit tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('exec');
  await expect(rows.nth(0).locator('td').nth(3)).toHaveText('you');
  await expect(rows.nth(1).locator('td').nth(3)).toHaveText('rule 2');
  await expect(rows.nth(2).locator('td').nth(3)).toHaveText('CLI --approve');
  await expect(rows.first()).toContainText('user denied');
  await rows.first().locator('summary').click();
  await expect(rows.first().locator('pre')).toHaveText('{\n  "command": "ls"\n}');
  expect((await callsTo(page, 'list_audit')).map((c) => c.args)).toEqual([{ limit: 200 }]);
});

test('the audit log shows its stored values in Chinese', async ({ page }) => {
  const asked: AuditReason = {
    reason: { code: 'needs_approval', params: { tool: 'exec', security: 'personal_cli', every_time: false } },
    confirmation: null,
    allowed: 'session',
  };
  const refused: AuditReason = {
    reason: {
      code: 'no_job_authorization',
      params: { tool: 'exec', security: 'daemon', job: { job: 'nightly', state: 'needs_reapproval' } },
    },
    confirmation: null,
    allowed: null,
  };
  const skill: AuditReason = {
    reason: {
      code: 'skill_needs_permission',
      params: { skill: 'daily-report', tool: 'http_request', permission: 'http', capability: 'network.outbound', file: 'manifest.json', declared: ['file'] },
    },
    confirmation: null,
    allowed: null,
  };
  await boot(page, {
    settings: { ...withProvider, language: 'zh-CN' },
    audit: [
      { id: 5, session_id: null, tool: 'http_request', arguments: '{}', decision: 'deny', reason: 'skill …', reason_code: skill, actor: 'skill daily-report', created_at: 1_700_000_200_000 },
      { id: 4, session_id: null, tool: 'exec', arguments: '{}', decision: 'deny', reason: 'security profile daemon …', reason_code: refused, actor: 'policy', created_at: 1_700_000_100_000 },
      { id: 3, session_id: null, tool: 'exec', arguments: '{}', decision: 'deny', reason: null, reason_code: null, actor: 'timeout', created_at: 1_700_000_000_000 },
      { id: 2, session_id: null, tool: 'exec', arguments: '{}', decision: 'allow', reason: 'allowed for this session: …', reason_code: asked, actor: 'user', created_at: 1_699_999_500_000 },
      { id: 1, session_id: null, tool: 'exec', arguments: '{}', decision: 'ask', reason: 'an old English reason', reason_code: null, actor: 'job:brief', created_at: 1_699_999_000_000 },
    ],
  });
  await page.getByRole('button', { name: /设置/ }).click();
  const cells = (n: number) => page.locator('table.audit tbody tr').nth(n).locator('td');
  await expect(cells(0).nth(3)).toHaveText('技能 daily-report');
  await expect(cells(0).nth(4)).toHaveText(
    '技能“daily-report”不能使用此工具：http_request 需要“http”权限（network.outbound），而 manifest.json 声明了权限 [file]',
  );
  await expect(cells(1).nth(4)).toHaveText(
    '无人值守的定时运行不能使用高风险工具 exec：没有涵盖它的任务授权：任务“nightly”需要重新批准：它在你授权之后被修改过，在你再次批准之前，它的无人值守运行不能使用高风险工具（cronjob authorize，或在任务页面点“重新批准”）',
  );
  await expect(cells(2).nth(2)).toHaveText('拒绝');
  await expect(cells(2).nth(3)).toHaveText('超时');
  await expect(cells(3).nth(2)).toHaveText('允许');
  await expect(cells(3).nth(3)).toHaveText('你');
  await expect(cells(3).nth(4)).toHaveText('已在本会话中允许：exec 是高风险工具，需要本机用户批准');
  await expect(cells(4).nth(2)).toHaveText('询问');
  // Values this Hearth does not know, and rows older than typed reasons, are shown as stored.
  await expect(cells(4).nth(3)).toHaveText('job:brief');
  await expect(cells(4).nth(4)).toHaveText('an old English reason');
});

const lastSaved = async (page: Page) => (await callsTo(page, 'save_settings')).at(-1)?.args.settings as Settings | undefined;

test('network settings: allowed local hosts, search backend and keychain-only search keys', async ({ page }) => {
  const brave = 'BSA-brave-secret-1234';
  await boot(page, { settings: withProvider, keys: { tavily: 'tvly-stored-wxyz' } });
  await page.getByRole('button', { name: /Settings/ }).click();
  const section = page.locator('section[aria-labelledby="network-title"]');
  await expect(section.getByRole('heading', { name: 'Network' })).toBeVisible();

  await section.locator('textarea[name="allow_local_hosts"]').fill('127.0.0.1:11434\n\n[::1]:8080, 127.0.0.1:11434');
  await section.locator('select[name="search_backend"]').focus();
  await expect.poll(async () => (await lastSaved(page))?.allow_local_hosts).toEqual(['127.0.0.1:11434', '[::1]:8080']);

  await section.locator('select[name="search_backend"]').selectOption('brave');
  await section.locator('input[name="searxng_url"]').fill(' https://searx.example.org ');
  await section.locator('input[name="searxng_url"]').press('Tab');
  await expect
    .poll(async () => (await lastSaved(page))?.search)
    .toEqual({ backend: 'brave', searxng_url: 'https://searx.example.org' });

  const braveKey = section.locator('[data-key="brave"]');
  const tavilyKey = section.locator('[data-key="tavily"]');
  await expect(tavilyKey.locator('.key-status')).toHaveText('Stored key: ••••wxyz');
  await expect(braveKey.locator('.key-status')).toHaveText('No key stored.');
  await braveKey.locator('input[name="api_key"]').fill(brave);
  await braveKey.getByRole('button', { name: 'Save key' }).click();
  await expect(braveKey.locator('.key-status')).toHaveText('Stored key: ••••1234');
  expect(await page.content()).not.toContain(brave);
  expect((await callsTo(page, 'set_api_key')).map((c) => c.args)).toEqual([{ providerId: 'brave', key: brave }]);
  // Settings never carry the keys.
  expect(JSON.stringify((await callsTo(page, 'save_settings')).map((c) => c.args))).not.toContain(brave);
});

test('a provider may not take the id of a web search key', async ({ page }) => {
  await boot(page, { settings: withProvider });
  await page.getByRole('button', { name: /Settings/ }).click();
  await page.getByRole('button', { name: 'Add provider' }).click();
  await page.locator('input[name="name"]').fill('Brave');
  await page.locator('input[name="id"]').fill('brave');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('“brave” is the name of a web search key; choose another id.')).toBeVisible();
  expect(await callsTo(page, 'save_settings')).toEqual([]);
});
