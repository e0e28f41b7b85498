import { boot, callsTo, expect, session, test, textMessage, withProvider } from './fixtures';

const sessions = [
  session('desktop:a', 'Alpha trip plans', { updated_at: 3 }),
  session('desktop:b', 'Budget review', { updated_at: 2 }),
  session('desktop:c', 'Cooking ideas', { updated_at: 1, pinned: true }),
];

test('lists pinned chats first, then by recent activity; pin and unpin move them', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions });
  const titles = page.locator('.session .session-title');
  await expect(titles).toHaveText(['Cooking ideas', 'Alpha trip plans', 'Budget review']);
  await expect(page.locator('.group')).toHaveText(['Pinned', 'Chats']);
  await page.locator('[data-session-id="desktop:b"]').hover();
  await page.locator('[data-session-id="desktop:b"]').getByRole('button', { name: 'Pin' }).click();
  await expect(titles).toHaveText(['Budget review', 'Cooking ideas', 'Alpha trip plans']);
  await page.locator('[data-session-id="desktop:c"]').hover();
  await page.locator('[data-session-id="desktop:c"]').getByRole('button', { name: 'Unpin' }).click();
  await expect(titles).toHaveText(['Budget review', 'Alpha trip plans', 'Cooking ideas']);
  expect((await callsTo(page, 'set_session_pinned')).map((c) => c.args)).toEqual([
    { id: 'desktop:b', pinned: true },
    { id: 'desktop:c', pinned: false },
  ]);
});

test('renames a chat inline; Escape cancels', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions });
  const item = page.locator('[data-session-id="desktop:a"]');
  await item.hover();
  await item.getByRole('button', { name: 'Rename' }).click();
  const field = item.getByRole('textbox', { name: 'Chat title' });
  await field.fill('Never mind');
  await field.press('Escape');
  await expect(item.locator('.session-title')).toHaveText('Alpha trip plans');
  await item.locator('.session-open').dblclick();
  await item.getByRole('textbox', { name: 'Chat title' }).fill('Trip to Lisbon');
  await item.getByRole('textbox', { name: 'Chat title' }).press('Enter');
  await expect(item.locator('.session-title')).toHaveText('Trip to Lisbon');
  expect((await callsTo(page, 'rename_session')).map((c) => c.args)).toEqual([{ id: 'desktop:a', title: 'Trip to Lisbon' }]);
});

test('delete waits out a 5-second undo window; undo keeps the chat', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions });
  await page.locator('[data-session-id="desktop:a"]').hover();
  await page.locator('[data-session-id="desktop:a"]').getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('[data-session-id="desktop:a"]')).toHaveCount(0);
  const toast = page.locator('.toast', { hasText: 'Deleted “Alpha trip plans”.' });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(page.locator('[data-session-id="desktop:a"]')).toHaveCount(1);
  await page.waitForTimeout(5500);
  expect(await callsTo(page, 'delete_session')).toEqual([]);

  await page.locator('[data-session-id="desktop:b"]').hover();
  await page.locator('[data-session-id="desktop:b"]').getByRole('button', { name: 'Delete' }).click();
  await page.waitForTimeout(1000);
  expect(await callsTo(page, 'delete_session')).toEqual([]);
  await expect.poll(async () => (await callsTo(page, 'delete_session')).map((c) => c.args), { timeout: 6000 }).toEqual([{ id: 'desktop:b' }]);
  await expect(page.locator('[data-session-id="desktop:b"]')).toHaveCount(0);
  await expect(page.locator('.session')).toHaveCount(2);
});

test('deleting the open chat returns to the empty state', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions: [sessions[0]] });
  await page.locator('[data-session-id="desktop:a"] .session-open').click();
  await expect(page.locator('.chat-title')).toHaveText('Alpha trip plans');
  await page.locator('[data-session-id="desktop:a"]').hover();
  await page.locator('[data-session-id="desktop:a"]').getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('[data-empty="no-sessions"]')).toBeVisible();
});

test('search over all chats jumps to the hit', async ({ page }) => {
  const messages: Record<string, ReturnType<typeof textMessage>[]> = {
    'desktop:a': Array.from({ length: 60 }, (_, i) => textMessage(100 + i, 'desktop:a', i % 2 ? 'assistant' : 'user', `Filler line ${i}`)),
    'desktop:b': [textMessage(5, 'desktop:b', 'user', 'Where is the quarterly budget spreadsheet?')],
  };
  messages['desktop:a'][7] = textMessage(107, 'desktop:a', 'assistant', 'The ferry to Belém leaves at nine.');
  await boot(page, { settings: withProvider, sessions, messages });
  const box = page.getByRole('searchbox', { name: 'Search all chats' });
  await box.fill('ferry');
  const hit = page.locator('.search-hit');
  await expect(hit).toHaveCount(1);
  await expect(hit.locator('.hit-title')).toHaveText('Alpha trip plans');
  await expect(hit.locator('mark')).toHaveText('ferry');
  expect((await callsTo(page, 'search_messages')).map((c) => c.args)).toEqual([{ query: 'ferry' }]);
  await hit.click();
  await expect(page.locator('.chat-title')).toHaveText('Alpha trip plans');
  const target = page.locator('article[data-message-id="107"]');
  await expect(target).toBeInViewport();
  await expect(target).toHaveClass(/highlighted/);

  await box.fill('nothing matches this');
  const none = page.getByText('No messages match “nothing matches this”.');
  await expect(none).toBeVisible();
  // Results close when focus leaves the search box and come back with it.
  await page.getByRole('textbox', { name: 'Message' }).click();
  await expect(none).toBeHidden();
  await box.focus();
  await expect(none).toBeVisible();
});
