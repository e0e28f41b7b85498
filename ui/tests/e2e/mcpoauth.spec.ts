// Settings → MCP servers: a URL server's `[mcp_servers.oauth]` edited on its card — the fields
// saved with the settings (empty ones left out), the client secret sent to the keychain command
// only, a metadata URL that is not https refused in both languages.
import type { Page } from '@playwright/test';
import type { McpServerSettings } from '../../src/lib/bindings/McpServerSettings';
import { boot, callsTo, expect, test, withProvider } from './fixtures';
import { mcpServer } from './mcpServers';

const SECRET_ACCOUNT = 'mcp:notes:oauth:client-secret';
const notes = mcpServer('notes', { command: null, url: 'https://notes.example/mcp' });
const card = (page: Page) => page.locator('section[aria-labelledby="mcp-title"] [data-server="notes"]');
const field = (page: Page, name: string) => card(page).locator(`input[name="mcp_oauth_${name}"]`);
const secrets = (page: Page) => page.evaluate(() => (window as unknown as { __hearth: { secrets: Record<string, string> } }).__hearth.secrets);
const savedOAuth = async (page: Page) =>
  ((await callsTo(page, 'save_settings')).at(-1)?.args.settings as { mcp_servers: McpServerSettings[] }).mcp_servers[0].oauth;

test('the OAuth client is set on a URL server’s card: settings saved, the secret to the keychain only', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, mcp_servers: [notes] }, mcpTools: { notes: [{ tool: 'whoami' }] } });
  await page.getByRole('button', { name: /Settings/ }).click();
  await card(page).getByRole('button', { name: 'Edit' }).click();
  await expect(card(page).getByText('No client secret stored.')).toBeVisible();

  await field(page, 'client_id').fill(' hearth-desktop ');
  await field(page, 'client_secret').fill('s3cret-value');
  await field(page, 'metadata_url').fill('http://example.com/hearth-client.json');
  await field(page, 'scopes').fill('notes:read, notes:write  offline_access');
  await card(page).getByRole('button', { name: 'Save' }).click();
  await expect(card(page).getByRole('alert')).toHaveText('The client metadata URL must be an https:// address.');
  expect(await callsTo(page, 'save_settings')).toEqual([]);
  expect(await callsTo(page, 'set_mcp_client_secret')).toEqual([]);

  await field(page, 'metadata_url').fill('https://example.com/hearth-client.json');
  await card(page).getByRole('button', { name: 'Save' }).click();
  await expect(card(page).locator('input[name="mcp_oauth_client_id"]')).toHaveCount(0);
  expect(await savedOAuth(page)).toEqual({
    client_id: 'hearth-desktop',
    client_metadata_url: 'https://example.com/hearth-client.json',
    scopes: ['notes:read', 'notes:write', 'offline_access'],
  });
  expect(JSON.stringify((await callsTo(page, 'save_settings')).map((c) => c.args))).not.toContain('s3cret');
  expect((await callsTo(page, 'set_mcp_client_secret')).map((c) => c.args)).toEqual([{ name: 'notes', secret: 's3cret-value' }]);
  expect(await secrets(page)).toEqual({ [SECRET_ACCOUNT]: 's3cret-value' });

  // Opened again: the fields as saved, the secret only as a masked hint.
  await card(page).getByRole('button', { name: 'Edit' }).click();
  await expect(field(page, 'client_id')).toHaveValue('hearth-desktop');
  await expect(field(page, 'scopes')).toHaveValue('notes:read notes:write offline_access');
  await expect(field(page, 'client_secret')).toHaveValue('');
  await expect(card(page).getByText('A secret is stored (••••alue).')).toBeVisible();
  expect(await page.content()).not.toContain('s3cret-value');

  // Emptied fields are left out, and the secret goes with the client ID.
  await field(page, 'client_id').fill('');
  await field(page, 'metadata_url').fill('');
  await field(page, 'scopes').fill(' , ');
  await card(page).getByRole('button', { name: 'Save' }).click();
  await expect(field(page, 'client_id')).toHaveCount(0);
  expect(await savedOAuth(page)).toEqual({ client_id: null, client_metadata_url: null, scopes: [] });
  expect((await callsTo(page, 'delete_mcp_client_secret')).map((c) => c.args)).toEqual([{ name: 'notes' }]);
  expect(await secrets(page)).toEqual({});
});

test('a secret without a client ID is refused; a stored one is removed on its own; errors are in Chinese too', async ({ page }) => {
  await boot(page, {
    settings: { ...withProvider, language: 'zh-CN', mcp_servers: [{ ...notes, oauth: { client_id: 'hearth', client_metadata_url: null, scopes: [] } }] },
    mcpSecrets: { [SECRET_ACCOUNT]: 'old-secret' },
  });
  await page.getByRole('button', { name: /设置/ }).click();
  await card(page).getByRole('button', { name: '编辑' }).click();
  await expect(card(page).getByText('已保存密钥（••••cret）。')).toBeVisible();
  await field(page, 'metadata_url').fill('ftp://example.com/c.json');
  await card(page).getByRole('button', { name: '保存' }).click();
  await expect(card(page).getByRole('alert')).toHaveText('客户端元数据网址必须是 https:// 地址。');

  await field(page, 'metadata_url').fill('');
  await field(page, 'client_id').fill('');
  await field(page, 'client_secret').fill('new-secret');
  await card(page).getByRole('button', { name: '保存' }).click();
  await expect(card(page).getByRole('alert')).toHaveText('客户端密钥需要填写对应的客户端 ID。');
  expect(await callsTo(page, 'save_settings')).toEqual([]);

  await card(page).getByRole('button', { name: '删除密钥' }).click();
  await expect(card(page).getByText('未保存客户端密钥。')).toBeVisible();
  expect((await callsTo(page, 'delete_mcp_client_secret')).map((c) => c.args)).toEqual([{ name: 'notes' }]);
  expect(await secrets(page)).toEqual({});
  expect(await callsTo(page, 'set_mcp_client_secret')).toEqual([]);
});
