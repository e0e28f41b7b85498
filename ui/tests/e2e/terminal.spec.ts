import { boot, callsTo, expect, test, withProvider } from './fixtures';

const spawned = '{"session_id":"pty-1","command":"python3","pid":4242,"status":"running","rows":24,"cols":80}';

test('a pty session shows its screen and live output in a terminal inside its tool card', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    script: [
      { tool: { name: 'pty', arguments: '{"action":"spawn","command":"python3"}', result: spawned, approval: 'pty runs programs' } },
      { text: 'Python is running.' },
    ],
    terminals: { 'pty-1': { screen: 'Python 3.11.2\r\n>>> ', output: ['print(6*7)\r\n', '42\r\n>>> '], closes: true } },
  });
  await page.getByRole('button', { name: /New chat/ }).click();
  await page.locator('.composer textarea').fill('Start python');
  await page.locator('.composer button.send').click();
  await page.locator('.approval').getByRole('button', { name: 'Allow once', exact: true }).click();

  const view = page.locator('.tool-card[data-tool="pty"] .terminal-view[data-session-id="pty-1"]');
  await expect(view).toBeVisible();
  const screen = view.locator('.xterm-rows');
  await expect(screen).toContainText('Python 3.11.2');
  await expect(screen).toContainText('42');
  await expect(view).toHaveAttribute('data-state', 'closed');
  await expect(view.locator('.terminal-state')).toHaveText('Terminal pty-1 has ended.');
  expect((await callsTo(page, 'watch_terminal')).map((c) => c.args.sessionId)).toEqual(['pty-1']);
});

test('a pty session that is no longer open says so, and other pty results get no terminal', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    script: [
      { tool: { name: 'pty', arguments: '{"action":"spawn"}', result: spawned } },
      { tool: { name: 'pty', arguments: '{"action":"read","session_id":"pty-1"}', result: '{"session_id":"pty-1","screen":"$","status":"running"}' } },
      { text: 'Done.' },
    ],
  });
  await page.getByRole('button', { name: /New chat/ }).click();
  await page.locator('.composer textarea').fill('Open a shell');
  await page.locator('.composer button.send').click();
  const views = page.locator('.terminal-view');
  await expect(views).toHaveCount(1);
  await expect(views).toHaveAttribute('data-state', 'gone');
  await expect(views.locator('.terminal-state')).toHaveText('Terminal pty-1 is no longer open.');
});
