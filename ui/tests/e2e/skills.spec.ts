import { boot, callsTo, expect, test, withProvider } from './fixtures';
import { skillItem as skill } from './skillItems';

const dailyReport = skill('daily-report', {
  description: 'Writes the daily report from memory and a web source.',
  format: 'ceecore',
  dialect: 'ceecore',
  version: '1.2.0',
  declares: 'permissions',
  permissions: ['internet', 'files', 'notifications'],
  tools: ['word_count'],
});

const card = (page: import('@playwright/test').Page, name: string) => page.locator(`li.skill[data-skill="${name}"]`);

test('installs from a folder after a preview of its permissions, then uses it with / in a chat', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    skills: [skill('release-notes', { declares: 'allowed_tools', allowed_tools: ['read_file', 'skill_run'] })],
    skillSources: { '/home/me/daily-report': dailyReport },
    dialog: '/home/me/daily-report',
    previewDelayMs: 300,
    script: [{ text: 'Report written to reports/today.md.' }],
  });
  await page.getByRole('button', { name: 'Skills' }).click();
  await expect(card(page, 'release-notes').locator('.skill-allowed')).toHaveText('Tools: read_file, skill_run');

  await page.getByRole('button', { name: 'Install…' }).click();
  await page.getByRole('button', { name: 'Browse…' }).click();
  await expect(page.locator('input[name="skill_location"]')).toHaveValue('/home/me/daily-report');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.locator('.skill-progress progress')).toBeVisible();
  const dialog = page.getByRole('dialog', { name: 'Install “daily-report”?' });
  await expect(dialog.locator('.skill-preview-description')).toHaveText('Writes the daily report from memory and a web source.');
  await expect(dialog.locator('.skill-permission')).toHaveText(['Internet', 'Files', 'Notifications']);
  expect(await callsTo(page, 'confirm_skill_install')).toHaveLength(0);
  await dialog.getByRole('button', { name: 'Install' }).click();

  const installed = card(page, 'daily-report');
  await expect(installed.locator('.skill-permission')).toHaveText(['Internet', 'Files', 'Notifications']);
  await expect(installed.locator('.skill-format')).toHaveText('CeeCore');
  await expect(installed.locator('.skill-own-tools')).toHaveText('Own tools: word_count');
  await installed.getByRole('button', { name: 'View' }).click();
  await expect(installed.locator('.skill-instructions h1')).toHaveText('daily-report');
  await expect(installed.locator('.skill-files code')).toHaveText(['SKILL.md', 'scripts/run.sh']);

  await page.getByRole('button', { name: /New chat/ }).first().click();
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('/dai');
  const picker = page.getByRole('group', { name: 'Skills' });
  await expect(picker.getByRole('option')).toHaveText([/\/daily-report/]);
  await input.press('Enter');
  await expect(page.locator('.skill-chip')).toHaveText(/Skill: daily-report/);
  await input.fill('for Monday');
  await input.press('Enter');
  await expect(page.locator('article.message.assistant')).toContainText('Report written to reports/today.md.');
  const runs = await callsTo(page, 'send_skill_message');
  expect(runs).toHaveLength(1);
  expect(runs[0].args.skill).toBe('daily-report');
  expect(runs[0].args.content).toEqual([{ type: 'text', text: 'for Monday' }]);
  const composer = page.locator('.composer');
  await expect(composer.locator('.skill-chip')).toHaveCount(0);
  // The bubble holds what was typed, the skill a chip beside it; never the instructions.
  const bubble = page.locator('article.message.user').last();
  await expect(bubble.locator('.user-text')).toHaveText('for Monday');
  await expect(bubble.locator('.skill-chip')).toHaveText('Skill: daily-report');
  await expect(bubble).not.toContainText('Do the daily-report thing');
  await expect(bubble).not.toContainText('Use the skill');

  // Edit edits the typed text only; the fork runs the skill again.
  await bubble.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('textbox', { name: 'Edit' });
  await expect(edit).toHaveValue('for Monday');
  await edit.fill('for Tuesday');
  await edit.press('Enter');
  const edited = (await callsTo(page, 'edit_message'))[0].args.content as { type: string; text?: string; name?: string }[];
  expect(edited.map((p) => [p.type, p.text ?? p.name])).toEqual([['text', 'for Tuesday'], ['skill', 'daily-report']]);
  const forked = page.locator('article.message.user').last();
  await expect(forked.locator('.user-text')).toHaveText('for Tuesday');
  await expect(forked.locator('.skill-chip')).toHaveText('Skill: daily-report');
});

test('a refused preview says why and installs nothing; cancel drops the staged skill', async ({ page }) => {
  await boot(page, { settings: withProvider, skillSources: { 'https://example.com/weather.zip': skill('weather') } });
  await page.getByRole('button', { name: 'Skills' }).click();
  await expect(page.locator('.skills-empty')).toBeVisible();
  await page.getByRole('button', { name: 'Install…' }).click();
  await page.locator('input[name="skill_location"]').fill('/nowhere/broken.rar');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.locator('.skill-install-error')).toContainText('The skill cannot be used: /nowhere/broken.rar: not a folder');

  await page.locator('input[name="skill_location"]').fill('https://example.com/weather.zip');
  await expect(page.locator('input[value="url"]')).toBeChecked();
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByRole('dialog', { name: 'Install “weather”?' }).getByRole('button', { name: 'Cancel' }).click();
  expect((await callsTo(page, 'cancel_skill_install')).map((c) => c.args.token)).toEqual(['t1']);
  await expect(page.locator('li.skill')).toHaveCount(0);
});

test('switches a skill off, removes one with undo, imports another agent’s skill', async ({ page }) => {
  await boot(page, {
    settings: withProvider,
    skills: [skill('notes'), skill('weather')],
    skillImports: [
      { agent: 'Claude Code', dir: '/home/me/.claude/skills/pdf', name: 'pdf', description: 'Reads PDFs', format: 'agent_skills', broken: null, installed: false },
      { agent: 'Claude Code', dir: '/home/me/.claude/skills/notes', name: 'notes', description: 'Notes', format: 'agent_skills', broken: null, installed: true },
    ],
  });
  await page.getByRole('button', { name: 'Skills' }).click();
  await card(page, 'notes').getByRole('switch', { name: 'Use notes' }).uncheck();
  await expect(card(page, 'notes')).toHaveAttribute('data-enabled', 'false');
  expect((await callsTo(page, 'set_skill_enabled')).map((c) => c.args)).toEqual([{ name: 'notes', enabled: false }]);

  await card(page, 'weather').getByRole('button', { name: 'Remove' }).click();
  await expect(card(page, 'weather')).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(card(page, 'weather')).toBeVisible();
  expect(await callsTo(page, 'remove_skill')).toHaveLength(0);

  await page.getByRole('button', { name: 'Import…' }).click();
  const importing = page.getByRole('dialog', { name: 'Import skills from other agents' });
  await expect(importing.locator('li[data-candidate="notes"] input')).toBeDisabled();
  await importing.locator('li[data-candidate="pdf"] input').check();
  await importing.getByRole('button', { name: 'Import 1 chosen' }).click();
  await expect(card(page, 'pdf').locator('.skill-source')).toHaveText('Imported');

  // A switched-off skill is not offered by the / picker.
  await page.getByRole('button', { name: /New chat/ }).first().click();
  await page.getByRole('textbox', { name: 'Message' }).fill('/');
  await expect(page.getByRole('group', { name: 'Skills' }).getByRole('option')).toHaveText([/\/pdf/, /\/weather/]);
});

test('"Use in a new chat" and "Schedule…" start from the skill', async ({ page }) => {
  await boot(page, { settings: withProvider, skills: [dailyReport] });
  await page.getByRole('button', { name: 'Skills' }).click();
  await card(page, 'daily-report').getByRole('button', { name: 'Schedule…' }).click();
  await page.locator('input[name="skill_job_schedule"]').fill('0 8 * * *');
  await page.getByRole('button', { name: 'Create job' }).click();
  await expect(page.locator('.toast')).toContainText('Created the job “daily-report”');
  const jobs = await callsTo(page, 'create_job');
  expect(jobs[0].args.form).toMatchObject({ name: 'daily-report', schedule: '0 8 * * *', skill: 'daily-report' });

  await card(page, 'daily-report').getByRole('button', { name: 'Use in a new chat' }).click();
  await expect(page.locator('.skill-chip')).toHaveText(/Skill: daily-report/);
});

test('the Skills page reads in Chinese', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, language: 'zh-CN' }, skills: [dailyReport] });
  await page.getByRole('button', { name: '技能' }).click();
  await expect(card(page, 'daily-report').locator('.skill-permission')).toHaveText(['联网', '文件', '通知']);
  await expect(page.getByRole('button', { name: '安装…' })).toBeVisible();
});
