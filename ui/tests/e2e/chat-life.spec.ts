// The chat's life cycle: an empty "New chat" is reused, a new chat takes its first message's
// first line as its title while the first reply still streams, a message too long for the model
// is refused with the sizes and comes back into the composer, and the job editor's live preview
// speaks the UI's language.
import { boot, callsTo, expect, test, withProvider } from './fixtures';

test('a second New chat reuses the empty one instead of adding a row', async ({ page }) => {
  await boot(page, { settings: withProvider, script: [{ text: 'Sure.' }] });
  const newChat = page.getByRole('button', { name: /New chat/ }).first();
  await newChat.click();
  await expect(page.locator('li.session')).toHaveCount(1);
  await newChat.click();
  await expect.poll(async () => (await callsTo(page, 'create_session')).length).toBe(2);
  await expect(page.locator('li.session')).toHaveCount(1);
  // Once it holds a message, the next New chat is a chat of its own.
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('hello');
  await input.press('Enter');
  await expect(page.locator('article.message.assistant')).toContainText('Sure.');
  await newChat.click();
  await expect(page.locator('li.session')).toHaveCount(2);
});

for (const [language, newChat, untitled] of [
  ['en', 'New chat', 'New chat'],
  ['zh-CN', '新建对话', '新对话'],
] as const) {
  test(`a new chat is titled by its first line as soon as the message is stored, during the first reply (${language})`, async ({ page }) => {
    const reply = 'A long answer that is still being written while the title should already show. '.repeat(4);
    await boot(page, { settings: { ...withProvider, language }, script: [{ text: reply, chunk: 4, delayMs: 60, paced: true }] });
    await page.getByRole('button', { name: newChat }).first().click();
    const title = page.locator('li.session .session-title');
    await expect(title).toHaveText([untitled]);
    const input = page.getByRole('textbox', { name: language === 'en' ? 'Message' : '消息' });
    await input.fill('  \nPlan a trip to Lisbon in May\nwith a budget of 2000 euros');
    await input.press('Enter');
    await expect(title).toHaveText(['Plan a trip to Lisbon in May']);
    await expect(page.locator('h1.chat-title')).toHaveText('Plan a trip to Lisbon in May');
    // Still within the first turn.
    await expect(page.locator('article.message.assistant[data-status="streaming"]')).toBeVisible();
  });
}

test('a message too long for the model is refused with the sizes, and the composer gets it back', async ({ page }) => {
  const refused = { code: 'message_too_long' as const, params: { tokens: 14_012, window: 8_192 } };
  await boot(page, { settings: { ...withProvider, language: 'zh-CN' }, script: [{ fail: refused }] });
  await page.getByRole('button', { name: /新建对话/ }).first().click();
  const input = page.getByRole('textbox', { name: '消息' });
  const long = 'a long pasted document line '.repeat(50);
  await input.fill(long);
  await input.press('Enter');
  const user = page.locator('article.message.user');
  await expect(user).toContainText('14012');
  await expect(user).toContainText('8192');
  await expect(user).toContainText('太长');
  await expect(input).toHaveValue(long);
});

test("the job editor's live preview describes the schedule in Chinese", async ({ page }) => {
  await boot(page, { settings: { ...withProvider, language: 'zh-CN' } });
  await page.getByRole('button', { name: '定时任务' }).click();
  await page.getByRole('button', { name: '新建任务' }).click();
  await page.locator('input[name="job_schedule"]').fill('30 9 * * *');
  const description = page.locator('.preview-description');
  await expect(description).toContainText('每天 09:30');
  await expect(description).not.toContainText('every day');
});
