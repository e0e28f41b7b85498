import { boot, callsTo, expect, test, withProvider } from './fixtures';

const spawned = '{"session_id":"pty-1","command":"python3","pid":4242,"status":"running","rows":24,"cols":80}';
/** The view the engine builds of the spawn: the terminal of its session. */
const terminal = [{ kind: 'terminal', session_id: 'pty-1' } as const];

test('a pty session shows its screen and live output in a terminal inside its tool card', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    script: [
      { tool: { name: 'pty', arguments: '{"action":"spawn","command":"python3"}', result: spawned, views: terminal, approval: 'pty runs programs', startsPrograms: true } },
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
  // Only this session is watched (again if the card is drawn again when the turn's rows are reloaded).
  const watched = (await callsTo(page, 'watch_terminal')).map((c) => c.args.sessionId);
  expect(watched.length).toBeGreaterThan(0);
  expect([...new Set(watched)]).toEqual(['pty-1']);
});

test('a pty session that is no longer open says so, and other pty results get no terminal', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    script: [
      { tool: { name: 'pty', arguments: '{"action":"spawn"}', result: spawned, views: terminal } },
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

test('keys typed into a live terminal reach the session as the bytes a terminal sends', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    script: [{ tool: { name: 'pty', arguments: '{"action":"spawn"}', result: spawned, views: terminal } }, { text: 'A shell is open.' }],
    terminals: { 'pty-1': { screen: 'bash-5.2$ ', output: [] } },
  });
  await page.getByRole('button', { name: /New chat/ }).click();
  await page.locator('.composer textarea').fill('Open a shell');
  await page.locator('.composer button.send').click();
  const view = page.locator('.terminal-view[data-session-id="pty-1"]');
  await expect(view).toHaveAttribute('data-state', 'live');
  await expect(view.locator('.terminal-state')).toHaveText('Terminal pty-1 (live): click it to type');

  await view.locator('.xterm').click();
  await page.keyboard.type('ls -l');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Control+c');
  await expect(view.locator('.xterm-rows')).toContainText('bash-5.2$ ls -');
  const sent = async () => (await callsTo(page, 'write_terminal')).map((c) => c.args.data as string).join('');
  await expect.poll(sent).toBe('ls -l\x7f\r\x1b[A\x1b[D\x03');
  for (const call of await callsTo(page, 'write_terminal')) expect(call.args.sessionId).toBe('pty-1');
  // The composer did not take the keys.
  await expect(page.locator('.composer textarea')).toHaveValue('');
});

test('a terminal that has ended takes no keys', async ({ page }) => {
  await boot(page, {
    settings: { ...withProvider, language: 'zh-CN' },
    script: [{ tool: { name: 'pty', arguments: '{"action":"spawn"}', result: spawned, views: terminal } }, { text: 'Done.' }],
    terminals: { 'pty-1': { screen: '$ exit\r\n', output: [], closes: true } },
  });
  await page.getByRole('button', { name: /新建对话/ }).click();
  await page.locator('.composer textarea').fill('Open a shell');
  await page.locator('.composer button.send').click();
  const view = page.locator('.terminal-view[data-session-id="pty-1"]');
  await expect(view).toHaveAttribute('data-state', 'closed');
  await expect(view.locator('.terminal-state')).toHaveText('终端 pty-1 已结束。');
  await view.locator('.xterm').click();
  await page.keyboard.type('ls');
  await page.keyboard.press('Enter');
  expect(await callsTo(page, 'write_terminal')).toEqual([]);
});
