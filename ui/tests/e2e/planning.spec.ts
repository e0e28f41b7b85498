import { boot, callsTo, expect, test, withProvider } from './fixtures';
import type { Step } from './fake-backend';

async function startChat(page: import('@playwright/test').Page, script: Step[]) {
  await boot(page, { settings: withProvider, script });
  await page.getByRole('button', { name: /New chat/ }).first().click();
  const input = page.getByRole('textbox', { name: 'Message' });
  await expect(input).toBeVisible();
  return input;
}

test('the checklist is pinned above the composer while it has open items, updating live', async ({ page }) => {
  const input = await startChat(page, [
    { todo: [{ id: '1', title: 'Read the brief', status: 'in_progress' }, { id: '2', title: 'Write the draft', status: 'pending' }] },
    { clarify: { question: 'Ready for the draft?', options: ['Yes'] } },
    { todo: [{ id: '1', title: 'Read the brief', status: 'done' }, { id: '2', title: 'Write the draft', status: 'in_progress' }] },
    { clarify: { question: 'Finish?', options: ['Yes'] } },
    { todo: [{ id: '1', title: 'Read the brief', status: 'done' }, { id: '2', title: 'Write the draft', status: 'done' }] },
    { text: 'All done.' },
  ]);
  await input.fill('Plan it');
  await input.press('Enter');

  const checklist = page.getByRole('region', { name: 'Checklist' });
  await expect(checklist).toHaveAttribute('data-revision', '1');
  await expect(checklist).toContainText('0 of 2 done');
  await expect(checklist.locator('.todo-item[data-status="in_progress"]')).toHaveText(/Read the brief/);
  await page.getByRole('group', { name: 'Hearth asks' }).getByRole('button', { name: 'Yes' }).click();

  await expect(checklist).toHaveAttribute('data-revision', '2');
  await expect(checklist).toContainText('1 of 2 done');
  await expect(checklist.locator('.todo-item[data-status="done"]')).toHaveText(/Read the brief/);
  await page.getByRole('group', { name: 'Hearth asks' }).getByRole('button', { name: 'Yes' }).click();

  // Every item done: the checklist is no longer pinned.
  await expect(page.locator('article.message.assistant').last()).toContainText('All done.');
  await expect(checklist).toHaveCount(0);
  expect((await callsTo(page, 'todo_list')).length).toBeGreaterThan(0);
});

test('a question shows its options as buttons and takes a typed answer', async ({ page }) => {
  const input = await startChat(page, [
    { clarify: { question: 'Which format?', options: ['PDF', 'Word'] } },
    { text: 'Writing it.' },
  ]);
  await input.fill('Write the report');
  await input.press('Enter');

  const card = page.getByRole('group', { name: 'Hearth asks' });
  await expect(card).toContainText('Which format?');
  await expect(card.getByRole('button', { name: 'PDF' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Word' })).toBeVisible();
  const own = card.getByRole('textbox', { name: 'Or type your own answer' });
  await own.fill('Markdown, please');
  await own.press('Enter');

  await expect(card).toHaveCount(0);
  await expect(page.locator('article.message.assistant').last()).toContainText('Writing it.');
  const answered = await callsTo(page, 'answer_question');
  expect(answered).toHaveLength(1);
  expect(answered[0].args.answer).toBe('Markdown, please');
  const clarify = page.locator('.tool-card[data-tool="clarify"]');
  await expect(clarify).toHaveAttribute('data-status', 'ok');
});
