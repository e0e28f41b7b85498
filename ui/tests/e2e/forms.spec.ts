// The form card: a form an MCP server asks for during a call (elicitation), shown as one card,
// checked as typed, sent with the values the schema types; a refusal stays on the card; declined
// in Chinese.
import { boot, callsTo, expect, test, withProvider } from './fixtures';
import type { FakeForm, Step } from './fake-backend';

const form: FakeForm = {
  source: 'everything',
  message: 'Please provide inputs for the following fields:',
  fields: [
    { name: 'name', label: 'Full name', description: 'Your name, please', kind: { type: 'text', format: null, min_length: 2, max_length: null }, required: true, default: null },
    { name: 'email', label: 'Email', description: null, kind: { type: 'text', format: 'email', min_length: null, max_length: null }, required: false, default: null },
    { name: 'age', label: 'Age', description: null, kind: { type: 'number', integer: true, minimum: 0, maximum: 150 }, required: false, default: 42 },
    { name: 'check', label: 'Subscribe', description: null, kind: { type: 'boolean' }, required: false, default: false },
    {
      name: 'colour',
      label: 'Colour',
      description: null,
      kind: { type: 'choice', options: [{ value: 'r', label: 'Red' }, { value: 'b', label: 'Blue' }] },
      required: true,
      default: null,
    },
    {
      name: 'tags',
      label: 'Tags',
      description: null,
      kind: { type: 'choices', options: [{ value: 'x', label: 'Ex' }, { value: 'y', label: 'Why' }], min_items: null, max_items: null },
      required: false,
      default: null,
    },
  ],
};

const tool = 'mcp__everything__trigger-elicitation-request';

async function startChat(page: import('@playwright/test').Page, script: Step[], language: 'en' | 'zh-CN' = 'en') {
  await boot(page, { settings: { ...withProvider, language }, script });
  await page.getByRole('button', { name: language === 'en' ? /New chat/ : /新建对话/ }).first().click();
  const input = page.locator('.composer textarea');
  await input.fill('Ask me');
  await input.press('Enter');
}

test('a form is one card: checked as typed, refused answers stay on it, the answer typed by the schema', async ({ page }) => {
  await startChat(page, [
    { form: { tool, form, refuse: { code: 'form_field_invalid', params: { field: 'Email' } } } },
    { text: 'Thanks, Ada.' },
  ]);
  const card = page.getByRole('form', { name: 'everything asks you to fill in a form' });
  await expect(card).toContainText('Please provide inputs for the following fields:');
  await expect(card).toContainText('Your name, please');
  await expect(card.getByLabel('Age')).toHaveValue('42');

  // Sent empty: the required fields say so and nothing is sent.
  await card.getByRole('button', { name: 'Send' }).click();
  await expect(card.locator('[data-field="name"] [role="alert"]')).toHaveText('Required.');
  await expect(card.locator('[data-field="colour"] [role="alert"]')).toHaveText('Required.');
  await card.getByLabel('Full name').fill('A');
  await expect(card.locator('[data-field="name"] [role="alert"]')).toHaveText('At least 2 characters.');
  await card.getByLabel('Age').fill('4.5');
  await card.getByLabel('Email').fill('ada@');
  await expect(card.locator('[data-field="age"] [role="alert"]')).toHaveText('Enter a whole number.');
  await expect(card.locator('[data-field="email"] [role="alert"]')).toHaveText('Enter an email address.');
  expect(await callsTo(page, 'answer_form')).toEqual([]);

  await card.getByLabel('Full name').fill('Ada Lovelace');
  await card.getByLabel('Age').fill('36');
  await card.getByLabel('Email').fill('ada@example.org');
  await card.getByLabel('Colour').selectOption({ label: 'Blue' });
  await card.getByLabel('Subscribe').check();
  await card.getByLabel('Why').check();
  await card.getByRole('button', { name: 'Send' }).click();
  // The backend refused the first answer: its reason is on the card, which stays open.
  await expect(card.getByRole('alert')).toHaveText('The value of “Email” does not fit the form (its type, format or limits).');
  await card.getByRole('button', { name: 'Send' }).click();
  await expect(card).toHaveCount(0);

  const answers = await callsTo(page, 'answer_form');
  expect(answers).toHaveLength(2);
  expect(answers[1].args.answer).toEqual({
    action: 'accept',
    content: { name: 'Ada Lovelace', email: 'ada@example.org', age: 36, check: true, colour: 'b', tags: ['y'] },
  });
  await expect(page.locator(`.tool-card[data-tool="${tool}"][data-status="ok"]`)).toBeVisible();
  await expect(page.getByText('Thanks, Ada.')).toBeVisible();
});

test('a form is worded in Chinese and can be declined', async ({ page }) => {
  await startChat(page, [{ form: { tool, form } }, { text: '好的。' }], 'zh-CN');
  const card = page.getByRole('form', { name: 'everything 请你填写表单' });
  await expect(card.locator('[data-field="name"] label')).toContainText('（必填）');
  await card.getByRole('button', { name: '提交' }).click();
  await expect(card.locator('[data-field="name"] [role="alert"]')).toHaveText('必填。');
  await card.getByRole('button', { name: '拒绝' }).click();
  await expect(card).toHaveCount(0);
  expect((await callsTo(page, 'answer_form')).map((c) => c.args.answer)).toEqual([{ action: 'decline' }]);
  await expect(page.getByText('好的。')).toBeVisible();
});
