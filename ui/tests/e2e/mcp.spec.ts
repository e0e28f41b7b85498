import type { Page } from '@playwright/test';
import type { McpServerSettings } from '../../src/lib/bindings/McpServerSettings';
import { boot, callsTo, expect, session, test, withProvider } from './fixtures';
import { mcpServer } from './mcpServers';

const everythingTools = [
  { tool: 'echo', description: 'Echoes back the input', read_only: true },
  { tool: 'get-sum', description: 'Adds two numbers' },
];

function stdio(name: string, command: string, args: string[] = []): McpServerSettings {
  return mcpServer(name, { command, args });
}

const section = (page: Page) => page.locator('section[aria-labelledby="mcp-title"]');
const card = (page: Page, name: string) => section(page).locator(`[data-server="${name}"]`);
const savedServers = async (page: Page) => (await callsTo(page, 'save_settings')).at(-1)?.args.settings as { mcp_servers: McpServerSettings[] };

test('a server added with the form becomes ready with its tools; token-like values go to the keychain', async ({ page }) => {
  await boot(page, { settings: withProvider, mcpTools: { everything: everythingTools } });
  await page.getByRole('button', { name: /Settings/ }).click();
  await expect(section(page).getByText('No MCP servers yet.')).toBeVisible();
  await section(page).getByRole('button', { name: 'Add a server' }).click();
  await section(page).getByRole('button', { name: 'Add', exact: true }).click();
  await expect(section(page).getByRole('alert')).toHaveText('Give the server a name.');
  await section(page).locator('input[name="mcp_name"]').fill('everything');
  await section(page).locator('input[name="mcp_command"]').fill('npx -y @modelcontextprotocol/server-everything "stdio"');
  await section(page).locator('textarea[name="mcp_env"]').fill('API_TOKEN=s3cret\nDEBUG=1');
  await section(page).getByRole('button', { name: 'Add', exact: true }).click();

  const server = card(page, 'everything');
  await expect(server.locator('[data-state="starting"]')).toBeVisible();
  await expect(server.locator('[data-state="ready"]')).toHaveText('Ready with 2 tools');
  await expect(server.locator('[data-tool="echo"]')).toContainText('read-only');
  const [call] = await callsTo(page, 'mcp_import');
  expect(JSON.parse(call.args.text as string)).toEqual({
    mcpServers: {
      everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'], env: { API_TOKEN: 's3cret', DEBUG: '1' } },
    },
  });
  expect(await page.content()).not.toContain('s3cret');
  expect(await page.evaluate(() => (window as unknown as { __hearth: { secrets: Record<string, string> } }).__hearth.secrets)).toEqual({
    'mcp:everything:env:API_TOKEN': 's3cret',
  });
});

test('tools are set Always / Ask / Never, read-only trust and on/off are saved and applied at once', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, mcp_servers: [stdio('everything', 'npx')] }, mcpTools: { everything: everythingTools } });
  await page.getByRole('button', { name: /Settings/ }).click();
  const server = card(page, 'everything');
  await expect(server.locator('[data-state="ready"]')).toHaveText('Ready with 2 tools');

  await server.getByRole('combobox', { name: 'get-sum' }).selectOption('never');
  await expect(server.locator('[data-state="ready"]')).toHaveText('Ready with 1 tools');
  expect((await savedServers(page)).mcp_servers[0].tools).toEqual({ 'get-sum': 'never' });
  await server.getByRole('combobox', { name: 'echo' }).selectOption('always');
  expect((await savedServers(page)).mcp_servers[0].tools).toEqual({ 'get-sum': 'never', echo: 'always' });
  await server.getByRole('combobox', { name: 'get-sum' }).selectOption('');
  expect((await savedServers(page)).mcp_servers[0].tools).toEqual({ echo: 'always' });

  await server.getByLabel('Run tools marked read-only without asking').check();
  expect((await savedServers(page)).mcp_servers[0].trust_read_only).toBe(true);

  await server.locator('input[name="mcp_enabled"]').uncheck();
  await expect(server.locator('[data-state="disabled"]')).toHaveText('Off');
  expect((await savedServers(page)).mcp_servers[0].enabled).toBe(false);
  await server.locator('input[name="mcp_enabled"]').check();
  await expect(server.locator('[data-state="ready"]')).toBeVisible();
});

test('a failed server shows its reason and last stderr lines; restart, edit and remove', async ({ page }) => {
  await boot(page, {
    settings: { ...withProvider, mcp_servers: [stdio('broken', 'node', ['server.js'])] },
    mcpFailing: { broken: { reason: 'no answer within 30 s of starting', log: ['Error: cannot find module', 'hearth: no answer within 30 s of starting'] } },
  });
  await page.getByRole('button', { name: /Settings/ }).click();
  const server = card(page, 'broken');
  await expect(server.locator('[data-state="failed"]')).toHaveText('Failed');
  await expect(server.locator('.mcp-reason')).toHaveText('no answer within 30 s of starting');
  await expect(server.locator('.mcp-log pre')).toContainText('Error: cannot find module');

  await server.getByRole('button', { name: 'Restart' }).click();
  expect((await callsTo(page, 'mcp_restart')).map((c) => c.args)).toEqual([{ name: 'broken' }]);
  await expect(server).toContainText('restarted 1 times');

  await server.getByRole('button', { name: 'Edit' }).click();
  await server.locator('textarea[name="mcp_edit_args"]').fill('dist/index.js\nstdio');
  await server.locator('input[name="mcp_edit_startup"]').fill('5');
  await server.getByRole('button', { name: 'Save' }).click();
  expect((await savedServers(page)).mcp_servers[0]).toMatchObject({ args: ['dist/index.js', 'stdio'], startup_timeout_secs: 5 });

  await server.getByRole('button', { name: 'Remove' }).click();
  await server.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(section(page).getByText('No MCP servers yet.')).toBeVisible();
  expect((await callsTo(page, 'mcp_remove')).map((c) => c.args)).toEqual([{ name: 'broken' }]);
});

test('mcpServers JSON is imported pasted or from a file; a bad one says why', async ({ page }) => {
  await boot(page, { settings: withProvider, mcpTools: { time: [{ tool: 'get_current_time' }] } });
  await page.getByRole('button', { name: /Settings/ }).click();
  const paste = section(page).locator('textarea[name="mcp_import"]');
  await paste.fill('{"servers": {}}');
  await section(page).getByRole('button', { name: 'Import' }).click();
  await expect(section(page).getByRole('alert')).toHaveText('MCP servers: no `mcpServers` object in the JSON');

  await paste.fill('{"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}');
  await section(page).getByRole('button', { name: 'Import' }).click();
  await expect(card(page, 'time').locator('[data-state="ready"]')).toHaveText('Ready with 1 tools');
  await expect(paste).toHaveValue('');

  await section(page).locator('input[name="mcp_import_file"]').setInputFiles({
    name: 'claude_desktop_config.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ mcpServers: { web: { url: 'https://mcp.example.com/mcp' } } })),
  });
  await expect(card(page, 'web')).toContainText('https://mcp.example.com/mcp');
  await section(page).locator('input[name="mcp_import_file"]').setInputFiles({
    name: 'again.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ mcpServers: { web: { url: 'https://mcp.example.com/mcp' } } })),
  });
  await expect(section(page).getByRole('alert')).toHaveText('MCP servers: MCP server `web` is configured twice');
});

test('/mcp in the composer shows the servers and their tools in the chat without sending', async ({ page }) => {
  await boot(page, {
    settings: { ...withProvider, mcp_servers: [{ ...stdio('everything', 'npx'), tools: { echo: 'always' } }, stdio('broken', 'x')] },
    sessions: [session('desktop:a', 'A')],
    mcpTools: { everything: everythingTools },
    mcpFailing: { broken: { reason: 'cannot start `x`: No such file or directory', log: ['hearth: cannot start `x`'] } },
  });
  await page.getByText('A', { exact: true }).click();
  const input = page.getByLabel('Message');
  await input.fill('/mcp');
  await input.press('Enter');
  const panel = page.getByRole('complementary', { name: 'MCP servers' });
  await expect(panel.locator('[data-server="everything"] [data-state="ready"]')).toHaveText('Ready with 2 tools');
  await expect(panel.locator('[data-server="everything"]')).toContainText('mcp__everything__echo');
  await expect(panel.locator('[data-server="everything"] li').first()).toContainText('runs without asking');
  await expect(panel.locator('[data-server="broken"]')).toContainText('cannot start `x`');
  await expect(input).toHaveValue('');
  expect(await callsTo(page, 'send_message')).toEqual([]);
  await panel.getByRole('button', { name: 'Close' }).click();
  await expect(panel).toBeHidden();
});

test('the MCP page in 简体中文', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, language: 'zh-CN', mcp_servers: [stdio('everything', 'npx')] }, mcpTools: { everything: everythingTools } });
  await page.getByRole('button', { name: /设置/ }).click();
  await expect(page.getByRole('heading', { name: 'MCP 服务器' })).toBeVisible();
  await expect(card(page, 'everything').locator('[data-state="ready"]')).toHaveText('就绪，2 个工具');
});

test('an MCP tool card names its server', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    sessions: [session('desktop:a', 'A')],
    script: [
      { tool: { name: 'mcp__everything__echo', arguments: '{"message":"hi"}', result: '{"server":"everything","content":[{"type":"text","text":"Echo: hi"}]}' } },
      { text: 'It echoed.' },
    ],
  });
  await page.getByText('A', { exact: true }).click();
  const input = page.getByLabel('Message');
  await input.fill('Echo hi');
  await input.press('Enter');
  const card = page.locator('.tool-card[data-tool="mcp__everything__echo"]');
  await expect(card.locator('.mcp-server')).toHaveText('MCP · everything');
  await expect(page.locator('.tool-card[data-tool="read_file"] .mcp-server')).toHaveCount(0);
});

test('a resource attached from /mcp goes into the message as a chip naming server and resource', async ({ page }) => {
  await boot(page, {
    settings: { ...withProvider, mcp_servers: [stdio('everything', 'npx')] },
    sessions: [session('desktop:a', 'A')],
    mcpTools: { everything: everythingTools },
    mcpResources: { everything: [{ uri: 'demo://resource/static/document/notes.md', name: 'notes.md', text: 'Meeting at noon' }] },
  });
  await page.getByText('A', { exact: true }).click();
  const input = page.getByLabel('Message');
  await input.fill('/mcp');
  await input.press('Enter');
  const panel = page.getByRole('complementary', { name: 'MCP servers' });
  const row = panel.locator('[data-uri="demo://resource/static/document/notes.md"]');
  await expect(row).toContainText('notes.md');
  await row.getByRole('button', { name: 'Attach' }).click();
  await expect(page.locator('.composer .chip')).toContainText('everything: demo://resource/static/document/notes.md');
  await input.fill('Summarise it');
  await input.press('Enter');
  await expect.poll(async () => (await callsTo(page, 'send_message')).length).toBe(1);
  const sent = (await callsTo(page, 'send_message'))[0].args.content as { type: string; text: string }[];
  expect(sent[0]).toEqual({ type: 'text', text: 'Summarise it' });
  expect(sent[1].text).toContain('Attached MCP resource `everything` `demo://resource/static/document/notes.md`');
  expect(sent[1].text).toContain('Meeting at noon');
});

test('a server prompt is offered as /server:prompt, asks its arguments and fills the message', async ({ page }) => {
  await boot(page, {
    settings: { ...withProvider, mcp_servers: [stdio('everything', 'npx')] },
    sessions: [session('desktop:a', 'A')],
    mcpPrompts: {
      everything: [
        { name: 'simple-prompt', description: 'A prompt without arguments', arguments: [], text: 'This is a simple prompt.' },
        {
          name: 'args-prompt',
          description: 'A prompt with two arguments',
          arguments: [
            { name: 'city', required: true },
            { name: 'state', required: false },
          ],
          text: "What's weather in {city}?",
        },
      ],
    },
  });
  await page.getByText('A', { exact: true }).click();
  const input = page.getByLabel('Message');
  await input.fill('/everything:');
  const picker = page.getByRole('group', { name: 'MCP prompts' });
  await expect(picker.getByRole('option')).toHaveCount(2);
  await input.fill('/everything:args');
  await expect(picker.getByRole('option')).toHaveCount(1);
  await picker.getByRole('option', { name: /\/everything:args-prompt/ }).click();
  const form = page.getByRole('form', { name: 'Arguments of /everything:args-prompt' });
  await expect(form.getByRole('button', { name: 'Insert' })).toBeDisabled();
  await expect(form).toContainText('Fill in: city');
  await form.locator('input[name="city"]').fill('Paris');
  await form.getByRole('button', { name: 'Insert' }).click();
  await expect(input).toHaveValue("What's weather in Paris?");
  await expect(form).toBeHidden();
  const [call] = await callsTo(page, 'mcp_get_prompt');
  expect(call.args).toEqual({ server: 'everything', name: 'args-prompt', arguments: { city: 'Paris' } });
  expect(await callsTo(page, 'send_message')).toEqual([]);

  await input.fill('/everything:simple');
  await page.getByRole('option', { name: /\/everything:simple-prompt/ }).click();
  await expect(input).toHaveValue('This is a simple prompt.');
});
