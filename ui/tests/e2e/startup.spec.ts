import type { Page } from '@playwright/test';
import type { StartupProblem } from '../../src/lib/bindings/StartupProblem';
import { installFakeBackend } from './fake-backend';
import { installFakeDesktop } from './fake-desktop';
import { callsTo, expect, test } from './fixtures';

const dir = '/home/ana/.local/share/dev.hearth.desktop';

function problem(part: Partial<StartupProblem>): StartupProblem {
  return {
    kind: { code: 'invalid_settings' },
    message: `${dir}/config.toml: security_profile: unknown security profile \`public_gatway\` (expected one of: personal_cli, daemon, public_gateway) (line 1); fix it and start again`,
    path: `${dir}/config.toml`,
    config_path: `${dir}/config.toml`,
    data_dir: dir,
    ...part,
  };
}

async function showScreen(page: Page, startupProblem: StartupProblem): Promise<void> {
  await page.addInitScript(installFakeBackend, {});
  await page.addInitScript(installFakeDesktop, { startupProblem });
  await page.goto('/#startup-problem');
  await expect(page.locator('[data-startup-problem="shown"]')).toBeVisible();
}

test('each problem is explained with what to do, the detail and the path', async ({ page }) => {
  await showScreen(page, problem({}));
  await expect(page.locator('[data-startup="title"]')).toHaveText('Hearth’s settings file does not load');
  await expect(page.locator('[data-startup="explanation"]')).toContainText('Fix the line named below');
  await expect(page.locator('[data-startup="message"]')).toContainText('public_gatway');
  await expect(page.locator('[data-startup="path"]')).toHaveText(`${dir}/config.toml`);
  await page.getByRole('button', { name: 'Open folder' }).click();
  await expect.poll(async () => (await callsTo(page, 'open_data_folder')).length).toBe(1);
  await expect(page.locator('.app')).toHaveCount(0);
});

test.describe('in 简体中文 (the system language)', () => {
  test.use({ locale: 'zh-CN' });

  test('a database from a newer Hearth names both schema versions', async ({ page }) => {
    await showScreen(
      page,
      problem({
        kind: { code: 'database_too_new', found: 12, supported: 8 },
        message: 'the database was written by a newer Hearth (schema version 12; this version understands up to 8); update Hearth to open it',
        path: `${dir}/hearth.db`,
      }),
    );
    await expect(page.locator('[data-startup="title"]')).toHaveText('此数据库来自更新版本的 Hearth');
    await expect(page.locator('[data-startup="explanation"]')).toContainText('架构版本 12；当前版本最多支持 8');
    await expect(page.getByRole('button', { name: '打开文件夹' })).toBeVisible();
    await expect(page.getByRole('button', { name: '重试' })).toBeVisible();
  });

  test('a denied data dir says how to get access back', async ({ page }) => {
    await showScreen(page, problem({ kind: { code: 'data_dir_denied' }, message: 'Permission denied (os error 13)', path: dir }));
    await expect(page.locator('[data-startup="title"]')).toHaveText('Hearth 无权使用其数据文件夹');
    await expect(page.locator('[data-startup="explanation"]')).toContainText('HEARTH_HOME');
    await expect(page.locator('[data-startup="path"]')).toHaveText(dir);
  });
});
