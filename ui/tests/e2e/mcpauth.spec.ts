import type { Page } from '@playwright/test';
import type { McpServerSettings } from '../../src/lib/bindings/McpServerSettings';
import { boot, callsTo, expect, test, withProvider } from './fixtures';
import { mcpServer } from './mcpServers';

function url(name: string, address: string): McpServerSettings {
  return mcpServer(name, { command: null, url: address });
}

const card = (page: Page, name: string) => page.locator(`section[aria-labelledby="mcp-title"] [data-server="${name}"]`);

test('a URL server that needs sign-in shows so; Sign in and Sign out call the app', async ({ page }) => {
  await boot(page, {
    settings: { ...withProvider, mcp_servers: [url('notes', 'https://notes.example/mcp')] },
    mcpTools: { notes: [{ tool: 'whoami' }] },
    mcpSignIn: ['notes'],
  });
  await page.getByRole('button', { name: /Settings/ }).click();
  const server = card(page, 'notes');
  await expect(server.locator('[data-state="needs_sign_in"]')).toHaveText('Needs sign-in');
  await server.getByRole('button', { name: 'Sign in' }).click();
  expect((await callsTo(page, 'mcp_sign_in')).map((c) => c.args)).toEqual([{ name: 'notes' }]);
  await expect(server.locator('[data-state="ready"]')).toHaveText('Ready with 1 tools');
  await expect(page.getByText('Signed in to notes')).toBeVisible();

  await server.getByRole('button', { name: 'Sign out' }).click();
  expect((await callsTo(page, 'mcp_sign_out')).map((c) => c.args)).toEqual([{ name: 'notes' }]);
  await expect(server.locator('[data-state="needs_sign_in"]')).toBeVisible();
  await expect(server.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('a program server has no sign-in', async ({ page }) => {
  const stdio = { ...url('local', ''), url: null, command: 'node', args: ['server.js'] };
  await boot(page, { settings: { ...withProvider, mcp_servers: [stdio] }, mcpTools: { local: [{ tool: 'echo' }] } });
  await page.getByRole('button', { name: /Settings/ }).click();
  await expect(card(page, 'local').locator('[data-state="ready"]')).toBeVisible();
  await expect(card(page, 'local').getByRole('button', { name: /Sign (in|out)/ })).toHaveCount(0);
});
