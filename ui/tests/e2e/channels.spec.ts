// Settings → Channels: a webhook and a Telegram bot added and saved (no token in the settings),
// the bot's token stored through the keychain command, which makes it usable, test messages
// delivered or refused with the channel's reason; the sidebar marks chats that came in through
// a channel; the background-tasks panel follows its children's progress.
import type { ChannelSettings } from '../../src/lib/bindings/ChannelSettings';
import type { SubAgentRun } from '../../src/lib/bindings/SubAgentRun';
import { boot, callsTo, emitEvent, expect, session, test, withProvider } from './fixtures';

async function openChannels(page: import('@playwright/test').Page) {
  await page.getByRole('button', { name: /Settings|设置/ }).first().click();
  const section = page.locator('section[aria-labelledby="channels-title"]');
  await expect(section.getByRole('heading', { name: 'Channels' })).toBeVisible();
  return section;
}

test('a webhook and a Telegram bot are added, given a token and tested', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    testFailures: {
      bot: { code: 'delivery_failed', params: { target: 'bot:42', reason: 'Telegram answered 500: {"ok":false}' } },
    },
  });
  const section = await openChannels(page);
  await expect(section.getByText('No channels yet')).toBeVisible();

  await section.getByRole('button', { name: 'Add webhook' }).click();
  const hook = section.locator('fieldset[data-kind="webhook"]');
  await hook.locator('input[name="channel_name"]').fill('ops');
  await hook.locator('input[name="channel_url"]').fill('https://hooks.example.com/hearth');
  await section.getByRole('button', { name: 'Add Telegram bot' }).click();
  const bot = section.locator('fieldset[data-kind="telegram"]');
  await bot.locator('input[name="channel_name"]').fill('bot');
  await bot.locator('input[name="channel_inbound"]').check();
  await bot.getByRole('button', { name: 'Allow a chat' }).click();
  await bot.locator('input[name="chat_id"]').fill(' 42 ');
  await expect(bot.getByText('Save the channel, then set its token')).toBeVisible();
  await section.getByRole('button', { name: 'Save channels' }).click();

  const saves = await callsTo(page, 'save_settings');
  const channels = (saves.at(-1)?.args.settings as { channels: ChannelSettings[] }).channels;
  expect(channels).toEqual([
    { name: 'ops', kind: 'webhook', url: 'https://hooks.example.com/hearth', inbound: false, files: true, timeout_secs: 30, enabled: true, allowed_chats: [] },
    { name: 'bot', kind: 'telegram', inbound: true, files: true, timeout_secs: 30, enabled: true, allowed_chats: [{ id: '42', profile: 'public_gateway' }] },
  ]);

  const savedBot = section.locator('fieldset[data-channel="bot"]');
  await expect(savedBot.locator('.channel-status')).toHaveText(/Not usable: Telegram channel `bot` has no bot token/);
  await expect(section.locator('fieldset[data-channel="ops"] .channel-status')).toHaveText('Ready');
  await savedBot.locator('input[name="api_key"]').fill('123456:secret-token');
  await savedBot.getByRole('button', { name: 'Save key' }).click();
  await expect(savedBot.locator('.channel-status')).toHaveText('Ready · reading messages');
  await expect(savedBot.locator('.key-status')).toContainText('oken');
  expect(await callsTo(page, 'set_channel_token')).toEqual([
    { cmd: 'set_channel_token', args: { name: 'bot', token: '123456:secret-token' } },
  ]);
  const settings = JSON.stringify((await callsTo(page, 'save_settings')).map((c) => c.args));
  expect(settings).not.toContain('secret-token');

  await section.locator('fieldset[data-channel="ops"]').getByRole('button', { name: 'Send test' }).click();
  await expect(section.locator('fieldset[data-channel="ops"] .test-result')).toHaveText('Delivered to ops:test');
  await savedBot.getByRole('button', { name: 'Send test' }).click();
  const failure = savedBot.locator('.test-result[data-ok="false"]');
  await expect(failure).toHaveText('Not delivered to bot:42: Telegram answered 500: {"ok":false}');
});

test('a webhook without its URL or a repeated name is not saved', async ({ page }) => {
  await boot(page, { settings: withProvider });
  const section = await openChannels(page);
  await section.getByRole('button', { name: 'Add webhook' }).click();
  await section.getByRole('button', { name: 'Save channels' }).click();
  await expect(section.getByRole('alert')).toHaveText('Webhook “webhook” needs its URL.');
  await section.locator('input[name="channel_url"]').fill('https://a.example.com/');
  await section.getByRole('button', { name: 'Add webhook' }).click();
  await section.locator('fieldset').nth(1).locator('input[name="channel_url"]').fill('https://b.example.com/');
  await section.locator('fieldset').nth(1).locator('input[name="channel_name"]').fill('webhook');
  await section.getByRole('button', { name: 'Save channels' }).click();
  await expect(section.getByRole('alert')).toHaveText('Two channels are called “webhook”.');
  expect(await callsTo(page, 'save_settings')).toEqual([]);
});

test('chats that came in through a channel carry its badge in the sidebar', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    sessions: [session('telegram:42', 'telegram · 42', { updated_at: 3 }), session('desktop:a', 'My own chat', { updated_at: 2 })],
  });
  const telegram = page.locator('.session[data-session-id="telegram:42"]');
  await expect(telegram.locator('.channel-badge')).toHaveText('telegram');
  await expect(telegram.locator('.channel-badge')).toHaveAttribute('title', 'Came in through telegram');
  await expect(page.locator('.session[data-session-id="desktop:a"] .channel-badge')).toHaveCount(0);
});

function run(id: string, goal: string, status: SubAgentRun['status']): SubAgentRun {
  return {
    id,
    parent_session_id: 'desktop:a',
    session_id: `task:${id}`,
    goal,
    mode: 'background',
    agent: null,
    model: 'fake-model',
    tools: [],
    max_iterations: 12,
    timeout_secs: 600,
    status,
    result: '',
    error: null,
    iterations: 1,
    usage: { input_tokens: 1, output_tokens: 1 },
    created_at: 1,
    finished_at: null,
  };
}

test('the background-tasks panel lists background children and follows their progress', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    sessions: [session('desktop:a', 'Parent chat'), session('task:r1', 'Collect the logs')],
    backgroundTasks: [run('r1', 'Collect the logs', 'running'), run('r0', 'Count the files', 'completed')],
  });
  const panel = page.locator('section.background-tasks');
  await expect(panel.getByRole('heading')).toHaveText('Background tasks · 1 running');
  await expect(panel.locator('.background-task[data-run-id="r1"]')).toHaveAttribute('data-status', 'running');
  await expect(panel.locator('.background-task[data-run-id="r0"] .badge')).toHaveText('completed');
  await emitEvent(page, 'subagent://progress', {
    run_id: 'r1',
    parent_session_id: 'desktop:a',
    session_id: 'task:r1',
    goal: 'Collect the logs',
    mode: 'background',
    status: 'completed',
    iterations: 2,
    current_tool: null,
    elapsed_ms: 2000,
    usage: { input_tokens: 3, output_tokens: 2 },
  });
  await expect(panel.locator('.background-task[data-run-id="r1"]')).toHaveAttribute('data-status', 'completed');
  await expect(panel.getByRole('heading')).toHaveText('Background tasks');
  await panel.locator('.background-task[data-run-id="r1"] .task-open').click();
  await expect(page.locator('.session[data-session-id="task:r1"]')).toHaveClass(/active/);
});
