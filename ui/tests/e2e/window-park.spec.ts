// The window's teardown in the tray, UI side: asked to park, it hands over the open chat and its
// unsent draft; built again, it reopens what was parked (or the chat the user asked for).
import { boot, callsTo, emitEvent, expect, session, test, withProvider } from './fixtures';

const chats = [session('desktop:a', 'Plants'), session('desktop:b', 'Taxes')];
const box = 'textbox';

test('asked to park, the window hands over the open chat and its draft; drafts outlive switching chats', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions: chats });
  await page.locator('[data-session-id="desktop:a"] .session-open').click();
  await page.getByRole(box, { name: 'Message' }).fill('Water the fern and');
  await page.locator('[data-session-id="desktop:b"] .session-open').click();
  await expect(page.getByRole(box, { name: 'Message' })).toHaveValue('');
  await page.locator('[data-session-id="desktop:a"] .session-open').click();
  await expect(page.getByRole(box, { name: 'Message' })).toHaveValue('Water the fern and');

  await emitEvent(page, 'window://park', null);
  await expect.poll(() => callsTo(page, 'park_window')).toEqual([
    { cmd: 'park_window', args: { window: { session_id: 'desktop:a', draft: 'Water the fern and', new_chat: false } } },
  ]);
});

test('with no chat open, parking hands over nothing to reopen', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions: chats });
  await emitEvent(page, 'window://park', null);
  await expect.poll(() => callsTo(page, 'park_window')).toEqual([
    { cmd: 'park_window', args: { window: { session_id: null, draft: null, new_chat: false } } },
  ]);
});

test('a window built again reopens the parked chat with its draft', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    sessions: chats,
    parked: { session_id: 'desktop:b', draft: 'Find the 2025 receipts', new_chat: false },
  });
  await expect(page.locator('[data-session-id="desktop:b"] .session-open[aria-current]')).toBeVisible();
  await expect(page.getByRole(box, { name: 'Message' })).toHaveValue('Find the 2025 receipts');
  expect(await callsTo(page, 'app_ready')).toHaveLength(1);
});

test('a "New chat" asked for while there was no window opens a new chat in the new one', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions: chats, parked: { session_id: null, draft: null, new_chat: true } });
  await expect(page.locator('.session')).toHaveCount(3);
  expect(await callsTo(page, 'create_session')).toHaveLength(1);
  await expect(page.getByRole(box, { name: 'Message' })).toHaveValue('');
});
