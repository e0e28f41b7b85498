// The chat's life cycle: an empty "New chat" is reused, a message too long for the model is
// refused with the sizes and comes back into the composer, and the job editor's live preview
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
