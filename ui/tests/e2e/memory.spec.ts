import type { Contradiction } from '../../src/lib/memory';
import { boot, callsTo, expect, memory, test, withProvider } from './fixtures';

const memories = [
  memory(1, 'The user drinks oat-milk coffee every morning', { tags: ['coffee'], updated_at: 10 }),
  memory(2, '用户住在上海，喜欢吃小笼包', { tags: ['生活'], updated_at: 20 }),
  memory(3, 'Deploys go out on Thursdays', { pinned: true, updated_at: 5, source: 'model_inferred' }),
];

const items = (page: import('@playwright/test').Page) => page.locator('li.memory .memory-content');

test('browses pinned first and searches in English and Chinese', async ({ page }) => {
  await boot(page, { settings: withProvider, memories });
  await page.getByRole('button', { name: 'Memory' }).click();
  await expect(items(page)).toHaveText([
    'Deploys go out on Thursdays',
    '用户住在上海，喜欢吃小笼包',
    'The user drinks oat-milk coffee every morning',
  ]);
  await expect(page.locator('li.memory').first()).toHaveAttribute('data-pinned', 'true');
  const search = page.getByRole('searchbox', { name: 'Search memories' });
  await search.fill('上海');
  await expect(items(page)).toHaveText(['用户住在上海，喜欢吃小笼包']);
  await search.fill('coffee');
  await expect(items(page)).toHaveText(['The user drinks oat-milk coffee every morning']);
  await search.fill('tea');
  await expect(page.locator('.memory-empty')).toHaveText('No memories match “tea”.');
  await search.fill('');
  await expect(items(page)).toHaveCount(3);
  const searched = (await callsTo(page, 'search_memories')).map((c) => c.args.query);
  expect(searched).toEqual(expect.arrayContaining(['上海', 'coffee', 'tea']));
});

test('adds, edits, pins and deletes memories', async ({ page }) => {
  await boot(page, { settings: withProvider, memories });
  await page.getByRole('button', { name: 'Memory' }).click();
  await page.getByRole('button', { name: 'Add memory' }).click();
  await page.locator('textarea[name="memory_content"]').fill('生日是五月三日');
  await page.locator('input[name="memory_tags"]').fill('个人，Birthday, birthday');
  await page.getByRole('button', { name: 'Save memory' }).click();
  await expect(items(page)).toHaveCount(4);
  const added = await callsTo(page, 'add_memory');
  expect(added.map((c) => c.args.form)).toEqual([{ content: '生日是五月三日', tags: ['个人', 'birthday'], importance: 0.5 }]);

  const coffee = page.locator('li.memory[data-memory-id="1"]');
  await coffee.getByRole('button', { name: 'Edit' }).click();
  await expect(coffee.locator('textarea[name="memory_content"]')).toHaveValue('The user drinks oat-milk coffee every morning');
  await coffee.locator('textarea[name="memory_content"]').fill('The user switched to green tea');
  await coffee.getByRole('button', { name: 'Save memory' }).click();
  await expect(coffee.locator('.memory-content')).toHaveText('The user switched to green tea');

  await coffee.getByRole('button', { name: 'Pin' }).click();
  await expect(coffee).toHaveAttribute('data-pinned', 'true');
  await expect(page.locator('li.memory').first()).toHaveAttribute('data-memory-id', '1');
  await coffee.getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('li.memory[data-memory-id="1"]')).toHaveCount(0);
  // The delete waits out the undo window, like a chat's.
  expect(await callsTo(page, 'delete_memory')).toHaveLength(0);
  await expect
    .poll(async () => (await callsTo(page, 'delete_memory')).map((c) => c.args), { timeout: 10_000 })
    .toEqual([{ id: 1 }]);
});

test('a deleted memory comes back with Undo and is never deleted', async ({ page }) => {
  await boot(page, { settings: withProvider, memories });
  await page.getByRole('button', { name: 'Memory' }).click();
  const coffee = page.locator('li.memory[data-memory-id="1"]');
  await coffee.getByRole('button', { name: 'Delete' }).click();
  await expect(coffee).toHaveCount(0);
  await page.locator('.toast').getByRole('button', { name: 'Undo' }).click();
  await expect(coffee).toHaveCount(1);
  // Leaving the page carries out pending deletes: there is none.
  await page.getByRole('button', { name: /Back/ }).click();
  expect(await callsTo(page, 'delete_memory')).toHaveLength(0);
});

test('an empty edit is refused with the reason and the form stays open', async ({ page }) => {
  await boot(page, { settings: withProvider, memories });
  await page.getByRole('button', { name: 'Memory' }).click();
  const first = page.locator('li.memory[data-memory-id="2"]');
  await first.getByRole('button', { name: 'Edit' }).click();
  await first.locator('textarea[name="memory_content"]').fill('   ');
  await first.getByRole('button', { name: 'Save memory' }).click();
  await expect(page.locator('.toast')).toContainText('`content` must not be empty');
  await expect(first.locator('textarea[name="memory_content"]')).toBeVisible();
});

test('resolving a contradiction keeps one side and deletes the other', async ({ page }) => {
  const contradiction: Contradiction = {
    id: 9,
    memory_a: 1,
    memory_b: 4,
    content_a: 'The user drinks oat-milk coffee every morning',
    content_b: 'The user never drinks coffee',
    reason: 'same subject, opposite statements',
    held_back: false,
    status: 'open',
    winner_id: null,
    created_at: 1,
    resolved_at: null,
  };
  const both = [...memories, memory(4, 'The user never drinks coffee', { updated_at: 30 })];
  await boot(page, { settings: withProvider, memories: both, contradictions: [contradiction] });
  await page.getByRole('button', { name: 'Memory' }).click();
  const box = page.locator('.contradictions');
  await expect(box.locator('h2')).toHaveText('Contradictions (1)');
  await box.locator('.keep-b').click();
  await expect(box).toHaveCount(0);
  await expect(page.locator('li.memory[data-memory-id="1"]')).toHaveCount(0);
  await expect(page.locator('li.memory[data-memory-id="4"]')).toHaveCount(1);
  expect((await callsTo(page, 'resolve_contradiction')).map((c) => c.args)).toEqual([{ id: 9, winnerId: 4 }]);
});
