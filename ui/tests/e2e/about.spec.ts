import { boot, callsTo, expect, test, withProvider } from './fixtures';

const updates = { endpoint: 'https://updates.example.org/hearth/{{target}}.json', pubkey: 'cHVibGljIGtleQ==' };

test('About shows the version and says how to turn updates on while they are off', async ({ page }) => {
  await boot(page, { settings: withProvider });
  await page.getByRole('button', { name: /Settings/ }).click();
  const about = page.locator('section[aria-labelledby="about-title"]');
  await expect(about.locator('[data-about="version"]')).toHaveText('Hearth version 0.1.0');
  await expect(about.locator('[data-about="off"]')).toContainText('[updates] in config.toml');
  await expect(about.getByRole('button', { name: 'Check for updates' })).toHaveCount(0);
  expect(await callsTo(page, 'check_for_update')).toEqual([]);
});

test('checking offers a newer version, explains what installing does and installs on demand', async ({ page }) => {
  const update = { version: '0.2.0', notes: 'Faster start-up.', date: '2026-12-01T08:00:00Z' };
  await boot(page, { settings: { ...withProvider, updates }, update });
  await page.getByRole('button', { name: /Settings/ }).click();
  const about = page.locator('section[aria-labelledby="about-title"]');
  await expect(about).toContainText('asks https://updates.example.org/hearth/{{target}}.json only when you click');
  await expect(about).toContainText('refuses it unless its signature matches the public key');
  expect(await callsTo(page, 'check_for_update')).toEqual([]);
  await about.getByRole('button', { name: 'Check for updates' }).click();
  await expect(about.locator('[data-about="available"]')).toHaveText('Version 0.2.0 is available.');
  await expect(about.locator('.notes')).toHaveText('Faster start-up.');
  await about.getByRole('button', { name: 'Install and restart' }).click();
  await expect.poll(async () => (await callsTo(page, 'install_update')).length).toBe(1);
});

test('an up-to-date Hearth says so, in 简体中文 too', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, updates, language: 'zh-CN' } });
  await page.getByRole('button', { name: /设置/ }).click();
  const about = page.locator('section[aria-labelledby="about-title"]');
  await expect(about.getByRole('heading', { name: '关于' })).toBeVisible();
  await expect(about.locator('[data-about="version"]')).toHaveText('Hearth 版本 0.1.0');
  await about.getByRole('button', { name: '检查更新' }).click();
  await expect(about.locator('[data-about="up-to-date"]')).toHaveText('Hearth 已是最新版本。');
});
