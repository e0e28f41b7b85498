// The composer's `/` picker driven from the keyboard: one listbox of skills, MCP prompts and the
// built-in commands
// whose highlight the arrows move (wrapping, scrolled into view, told to assistive technology
// through aria-activedescendant), Enter or Tab picks, Escape closes and keeps the text; Enter
// still sends when nothing is offered.
import type { Locator, Page } from '@playwright/test';
import { boot, callsTo, expect, session, test, withProvider } from './fixtures';
import { mcpServer } from './mcpServers';
import { skillItem } from './skillItems';

const argsPrompt = {
  name: 'args-prompt',
  description: 'A prompt with an argument',
  arguments: [{ name: 'city', required: true }],
  text: "What's weather in {city}?",
};
const simplePrompt = { name: 'simple-prompt', description: 'A prompt without arguments', arguments: [], text: 'This is a simple prompt.' };

async function openChat(page: Page, prompts: (typeof argsPrompt | typeof simplePrompt)[]): Promise<Locator> {
  await boot(page, {
    settings: { ...withProvider, mcp_servers: [mcpServer('everything', { command: 'npx' })] },
    sessions: [session('desktop:a', 'A')],
    skills: [skillItem('daily-report'), skillItem('weather')],
    mcpPrompts: { everything: prompts },
  });
  await page.getByText('A', { exact: true }).click();
  return page.getByRole('textbox', { name: 'Message' });
}

const picker = (page: Page) => page.getByRole('listbox', { name: 'Commands, skills and prompts' });

/** The option the textarea names as active, which must be the one selected. */
async function expectActive(input: Locator, page: Page, command: string): Promise<void> {
  const option = picker(page).locator(`[role="option"][data-command="${command}"]`);
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await expect(picker(page).locator('[role="option"][aria-selected="true"]')).toHaveCount(1);
  await expect(input).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
}

test('arrows move through skills and prompts with wrapping; Enter opens a prompt’s form; Enter sends again after', async ({ page }) => {
  const input = await openChat(page, [argsPrompt, simplePrompt]);
  await input.fill('/');
  await expect(picker(page).getByRole('option')).toHaveText([/^\/daily-report/, /^\/weather/, /^\/everything:args-prompt/, /^\/everything:simple-prompt/, /^\/mcp/]);
  await expect(picker(page).getByRole('group', { name: 'Skills' }).getByRole('option')).toHaveCount(2);
  await expect(picker(page).getByRole('group', { name: 'MCP prompts' }).getByRole('option')).toHaveCount(2);
  await expect(picker(page).getByRole('group', { name: 'Commands' }).getByRole('option')).toHaveText(['/mcp Show the MCP servers, their tools and resources']);
  await expect(input).toHaveAttribute('aria-controls', (await picker(page).getAttribute('id'))!);
  await expectActive(input, page, '/daily-report');

  await input.press('ArrowDown');
  await expectActive(input, page, '/weather');
  await input.press('ArrowUp');
  await input.press('ArrowUp');
  await expectActive(input, page, '/mcp');
  await input.press('ArrowUp');
  await expectActive(input, page, '/everything:simple-prompt');
  await input.press('ArrowDown');
  await input.press('ArrowDown');
  await expectActive(input, page, '/daily-report');
  await input.press('ArrowUp');
  await input.press('ArrowUp');
  await input.press('ArrowUp');
  await expectActive(input, page, '/everything:args-prompt');
  // Typing narrows the list and starts again at its first entry.
  await input.press('y');
  await expect(picker(page).getByRole('option')).toHaveText([/^\/daily-report/, /^\/everything:args-prompt/, /^\/everything:simple-prompt/]);
  await expectActive(input, page, '/daily-report');
  await input.press('ArrowDown');

  await input.press('Enter');
  const form = page.getByRole('form', { name: 'Arguments of /everything:args-prompt' });
  await expect(form.locator('input[name="city"]')).toBeFocused();
  await expect(picker(page)).toBeHidden();
  await expect(input).not.toHaveAttribute('aria-activedescendant');
  await page.keyboard.type('Paris');
  await page.keyboard.press('Enter');
  await expect(input).toHaveValue("What's weather in Paris?");
  await expect(form).toBeHidden();
  await expect(input).toBeFocused();
  expect((await callsTo(page, 'mcp_get_prompt')).map((c) => c.args)).toEqual([{ server: 'everything', name: 'args-prompt', arguments: { city: 'Paris' } }]);
  expect(await callsTo(page, 'send_message')).toEqual([]);

  await input.press('Enter');
  await expect.poll(async () => (await callsTo(page, 'send_message')).length).toBe(1);
  expect((await callsTo(page, 'send_message'))[0].args.content).toEqual([{ type: 'text', text: "What's weather in Paris?" }]);
});

test('Escape closes the picker (and a prompt’s form) keeping the text; Tab and the mouse pick; Enter sends with no match', async ({ page }) => {
  const input = await openChat(page, [argsPrompt, simplePrompt]);
  await input.fill('/every');
  await expect(picker(page)).toBeVisible();
  await input.press('Escape');
  await expect(picker(page)).toBeHidden();
  await expect(input).toHaveValue('/every');
  await expect(input).not.toHaveAttribute('aria-activedescendant');
  // Typing on opens it again, and once open going back to the text it was closed at keeps it open.
  await input.press('t');
  await expectActive(input, page, '/everything:args-prompt');
  await input.press('Backspace');
  await expect(picker(page)).toBeVisible();
  await input.press('Escape');
  await input.fill('');
  await input.fill('/every');
  await expect(picker(page)).toBeVisible();
  await input.press('t');

  await input.press('Tab');
  const form = page.getByRole('form', { name: 'Arguments of /everything:args-prompt' });
  await expect(form.locator('input[name="city"]')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(input).toBeFocused();
  await expect(input).toHaveValue('/everyt');
  await expect(picker(page)).toBeVisible();

  await input.press('ArrowDown');
  await input.press('Enter');
  await expect(input).toHaveValue('This is a simple prompt.');

  // The mouse highlights what it is over and picks it; the focus stays in the message box.
  await input.fill('/');
  const weather = picker(page).locator('[data-command="/weather"]');
  await weather.hover();
  await expectActive(input, page, '/weather');
  await weather.click();
  await expect(page.locator('.skill-chip')).toHaveText(/Skill: weather/);
  await expect(input).toBeFocused();
  await page.getByRole('button', { name: 'Stop using the skill' }).click();

  await input.fill('/zzz');
  await expect(page.getByText('No command, skill or prompt matches “/zzz”.')).toBeVisible();
  await input.press('Enter');
  await expect.poll(async () => (await callsTo(page, 'send_message')).length).toBe(1);
  expect((await callsTo(page, 'send_message'))[0].args.content).toEqual([{ type: 'text', text: '/zzz' }]);
  expect(await callsTo(page, 'send_skill_message')).toEqual([]);
});

test('the highlighted entry is scrolled into view', async ({ page }) => {
  const many = Array.from({ length: 14 }, (_, i) => ({ ...simplePrompt, name: `prompt-${String(i).padStart(2, '0')}` }));
  const input = await openChat(page, many);
  await input.fill('/everything:');
  const options = picker(page).getByRole('option');
  await expect(options).toHaveCount(14);
  await expect(options.first()).toBeInViewport();
  await expect(options.last()).not.toBeInViewport();
  await input.press('ArrowUp');
  await expectActive(input, page, '/everything:prompt-13');
  await expect(options.last()).toBeInViewport();
  await expect(options.first()).not.toBeInViewport();
  await input.press('ArrowDown');
  await expect(options.first()).toBeInViewport();
});

test('/mcp is offered as a command: typed in part and picked, it opens the MCP panel without sending', async ({ page }) => {
  const input = await openChat(page, [simplePrompt]);
  await input.fill('/mc');
  await expect(picker(page).getByRole('option')).toHaveText([/^\/mcp/]);
  await expect(page.getByText(/No command, skill or prompt matches/)).toHaveCount(0);
  await expectActive(input, page, '/mcp');
  await input.press('Enter');
  const panel = page.getByRole('complementary', { name: 'MCP servers' });
  await expect(panel.locator('[data-server="everything"]')).toBeVisible();
  await expect(input).toHaveValue('');
  await expect(picker(page)).toBeHidden();
  await panel.getByRole('button', { name: 'Close' }).click();

  // The mouse picks it as well.
  await input.fill('/');
  await picker(page).locator('[data-command="/mcp"]').click();
  await expect(panel).toBeVisible();
  expect(await callsTo(page, 'send_message')).toEqual([]);
  expect(await callsTo(page, 'send_skill_message')).toEqual([]);
});

test('the picker’s commands in 简体中文', async ({ page }) => {
  await boot(page, {
    settings: { ...withProvider, language: 'zh-CN', mcp_servers: [mcpServer('everything', { command: 'npx' })] },
    sessions: [session('desktop:a', 'A')],
  });
  await page.getByText('A', { exact: true }).click();
  const box = page.getByRole('textbox', { name: '消息' });
  await box.fill('/mc');
  const zhPicker = page.getByRole('listbox', { name: '命令、技能与提示词' });
  await expect(zhPicker.getByRole('group', { name: '命令' }).getByRole('option')).toHaveText(['/mcp 查看 MCP 服务器及其工具和资源']);
});
