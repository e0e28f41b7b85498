import type { Page } from '@playwright/test';
import type { Settings } from '../../src/lib/bindings/Settings';
import { CAPABILITIES } from '../../src/lib/bindings/choices';
import { boot, callsTo, expect, test, withProvider } from './fixtures';

const savedRules = async (page: Page) => ((await callsTo(page, 'save_settings')).at(-1)?.args.settings as Settings | undefined)?.rules;

test('rules are added, checked like the loader, reordered, removed and saved', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, rules: [{ effect: 'deny', tool: 'exec' }] } });
  await page.getByRole('button', { name: /Settings/ }).click();
  const section = page.locator('section[aria-labelledby="rules-title"]');
  const rules = section.locator('li.rule');
  await expect(rules).toHaveCount(1);
  await expect(rules.nth(0).locator('select[name="rule_effect"]')).toHaveValue('deny');
  await expect(rules.nth(0).locator('input[name="rule_tool"]')).toHaveValue('exec');
  await expect(section.getByRole('button', { name: 'Save rules' })).toHaveCount(0);

  // A capability rule, offered from the policy's list of capabilities.
  await section.getByRole('button', { name: 'Add rule' }).click();
  const second = rules.nth(1);
  await second.locator('select[name="rule_effect"]').selectOption('allow');
  await second.locator('select[name="rule_target"]').selectOption('capability');
  const capability = second.locator('select[name="rule_capability"]');
  await expect(capability.locator('option')).toHaveText([...CAPABILITIES]);
  await capability.selectOption('fs.write');
  await second.locator('input[name="rule_workspace"]').fill('/home/me/project');

  // A rule naming nothing is refused on its own row, and nothing is saved.
  await section.getByRole('button', { name: 'Add rule' }).click();
  await section.getByRole('button', { name: 'Save rules' }).click();
  await expect(rules.nth(2).locator('.rule-error')).toHaveText('give exactly one of `tool` or `capability`');
  await expect(rules.nth(2)).toHaveClass(/invalid/);
  await expect(section.locator('.rule-error')).toHaveCount(1);
  expect((await callsTo(page, 'validate_rules')).at(-1)?.args.rules).toHaveLength(3);
  expect(await callsTo(page, 'save_settings')).toEqual([]);

  await rules.nth(2).getByRole('button', { name: 'Remove' }).click();
  await expect(rules).toHaveCount(2);
  await expect(section.locator('.rule-error')).toHaveCount(0);
  await expect(rules.nth(0).getByRole('button', { name: 'Move up' })).toBeDisabled();
  await rules.nth(1).getByRole('button', { name: 'Move up' }).click();
  await expect(rules.nth(0).locator('select[name="rule_capability"]')).toHaveValue('fs.write');
  await section.getByRole('button', { name: 'Save rules' }).click();
  await expect.poll(() => savedRules(page)).toEqual([
    { effect: 'allow', capability: 'fs.write', workspace: '/home/me/project' },
    { effect: 'deny', tool: 'exec' },
  ]);
  await expect(section.getByRole('button', { name: 'Save rules' })).toHaveCount(0);

  // Discard returns to what was saved.
  await rules.nth(1).getByRole('button', { name: 'Remove' }).click();
  await expect(rules).toHaveCount(1);
  await section.getByRole('button', { name: 'Discard changes' }).click();
  await expect(rules).toHaveCount(2);
  expect(await callsTo(page, 'save_settings')).toHaveLength(1);
});

test('the rules editor speaks Chinese and marks a rule naming nothing', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, language: 'zh-CN', rules: [{ effect: 'allow', capability: 'fs.write' }] } });
  await page.getByRole('button', { name: /设置/ }).click();
  const section = page.locator('section[aria-labelledby="rules-title"]');
  await expect(section.getByRole('heading', { name: '规则' })).toBeVisible();
  const rules = section.locator('li.rule');
  await expect(rules.nth(0).locator('select[name="rule_capability"]')).toHaveValue('fs.write');
  await expect(rules.nth(0).locator('select[name="rule_effect"] option:checked')).toHaveText('允许');
  await rules.nth(0).locator('input[name="rule_workspace"]').fill('/srv');
  await section.getByRole('button', { name: '添加规则' }).click();
  await section.getByRole('button', { name: '保存规则' }).click();
  await expect(rules.nth(1).locator('.rule-error')).toContainText('give exactly one of `tool` or `capability`');
  expect(await callsTo(page, 'save_settings')).toEqual([]);
  await rules.nth(1).getByRole('button', { name: '删除' }).click();
  await section.getByRole('button', { name: '保存规则' }).click();
  await expect.poll(() => savedRules(page)).toEqual([{ effect: 'allow', capability: 'fs.write', workspace: '/srv' }]);
});
