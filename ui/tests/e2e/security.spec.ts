// Settings → Security (status, mode, the grants of config.toml) and the approval card's sandbox
// choices for a command (with the network, outside the sandbox, sandboxed commands without
// asking in this chat, or outside the sandbox for this chat where there is none), in English and
// Simplified Chinese; the chat's banner turns its choice off.
import type { Page } from '@playwright/test';
import { boot, callsTo, expect, test, withProvider } from './fixtures';
import type { Step } from './fake-backend';

const grants = [
  { command: 'npm *', skill: null, network: true, writable_roots: [] },
  { command: null, skill: 'fetcher', network: false, writable_roots: ['/srv/cache'] },
];

for (const [language, security, title, granted, skill] of [
  ['en', /Settings/, 'Security', 'Commands matching npm *: network', 'Scripts of the skill fetcher: may write /srv/cache'],
  ['zh-CN', /设置/, '安全', '匹配 npm * 的命令: 网络', '技能 fetcher 的脚本: 可写入 /srv/cache'],
] as const) {
  test(`Settings → Security lists the grants and saves the mode (${language})`, async ({ page }) => {
    await boot(page, {
      settings: {
        ...withProvider,
        language,
        security: { sandbox: 'workspace-write', network: false, writable_roots: [], denied_paths: [], grants },
      },
    });
    await page.getByRole('button', { name: security }).first().click();
    const section = page.locator('section[aria-labelledby="security-title"]');
    await expect(section.locator('#security-title')).toHaveText(title);
    await expect(section.locator('[data-sandbox-status="landlock+netns"]')).toBeVisible();
    await expect(section.locator('li[data-grant="npm *"]')).toHaveText(granted);
    await expect(section.locator('li[data-grant="fetcher"]')).toHaveText(skill);
    await section.locator('select[name="sandbox_mode"]').selectOption('read-only');
    const saved = (await callsTo(page, 'save_settings')).at(-1)?.args.settings as { security: unknown };
    expect(saved.security).toMatchObject({ sandbox: 'read-only', grants });
  });
}

test('Settings → Security says when there are no grants', async ({ page }) => {
  await boot(page, { settings: withProvider });
  await page.getByRole('button', { name: /Settings/ }).first().click();
  await expect(page.locator('[data-grant="none"]')).toHaveText('No grants: every command gets the sandbox above.');
});

const exec: Step = {
  tool: { name: 'exec', arguments: '{"command":"cargo test"}', result: '{"exit_code":0}', approval: 'exec runs commands', startsPrograms: true },
};

async function askExec(page: Page, language: 'en' | 'zh-CN', sandbox?: { isolation: string; reason: string | null }) {
  await boot(page, { settings: { ...withProvider, language }, script: [exec, { text: 'Done.' }], sandbox });
  await page.getByRole('button', { name: language === 'en' ? /New chat/ : /新建对话/ }).first().click();
  const input = page.getByRole('textbox', { name: language === 'en' ? 'Message' : /消息/ });
  await input.fill('run the tests');
  await input.press('Enter');
  const approval = page.locator('.approval');
  await expect(approval.locator('.approval-buttons')).toBeVisible();
  return approval;
}

for (const [language, texts] of [
  [
    'en',
    {
      line: 'Runs in the sandbox: Workspace write (writes only in the chat’s workspace and a temp folder), network off',
      buttons: ['Allow once', 'Allow for this session', 'Allow once with network', 'Allow once outside the sandbox', 'Allow, and run sandboxed commands without asking in this chat', 'Deny'],
      decided: 'Allowed; sandboxed commands run without asking in this chat',
      banner: 'Sandboxed commands run without asking in this chat. Commands that need the network or to leave the sandbox still ask.',
      off: 'Turn off',
    },
  ],
  [
    'zh-CN',
    {
      line: '在沙箱中运行：可写工作区（只能写入对话的工作区和一个临时文件夹），网络关闭',
      buttons: ['允许一次', null, '允许一次（开启网络）', '允许一次（在沙箱外运行）', '允许，并在此对话中不再询问沙箱内的命令', null],
      decided: '已允许；此对话中沙箱内的命令不再询问',
      banner: '此对话中，沙箱内的命令不再询问即运行。需要网络或离开沙箱的命令仍会询问。',
      off: '关闭',
    },
  ],
] as const) {
  test(`the approval card offers sandboxed commands without asking in this chat, and the chat turns it off (${language})`, async ({ page }) => {
    const approval = await askExec(page, language);
    await expect(approval.locator('[data-sandbox="workspace-write"]')).toHaveText(texts.line);
    const buttons = approval.locator('.approval-buttons button');
    await expect(buttons).toHaveCount(6);
    for (const [index, name] of texts.buttons.entries()) if (name) await expect(buttons.nth(index)).toHaveText(name);
    await expect(approval.locator('[data-chat-choice="unsandboxed"]')).toHaveCount(0);
    await approval.locator('[data-chat-choice="sandboxed"]').click();
    await expect(page.locator('.approval.decision')).toHaveText(texts.decided);
    expect((await callsTo(page, 'resolve_approval'))[0].args.decision).toBe('allow_sandboxed_in_chat');
    const banner = page.locator('[data-chat-sandbox="without-asking"]');
    await expect(banner).toContainText(texts.banner);
    await banner.getByRole('button', { name: texts.off }).click();
    await expect(banner).toHaveCount(0);
    const set = await callsTo(page, 'set_chat_sandbox');
    expect(set.at(-1)?.args.choice).toEqual({ sandboxed_without_asking: false, unsandboxed: false });
  });
}

for (const [language, texts] of [
  [
    'en',
    {
      unavailable: 'This computer has no sandbox for commands: it is refused unless it runs outside the sandbox',
      choice: 'Allow, and run this chat’s commands outside the sandbox',
      banner: 'This chat’s commands run outside the sandbox, with all of your rights.',
    },
  ],
  [
    'zh-CN',
    {
      unavailable: '这台电脑没有可用于命令的沙箱：除非在沙箱外运行，否则会被拒绝',
      choice: '允许，并让此对话的命令在沙箱外运行',
      banner: '此对话的命令在沙箱外运行，拥有你的全部权限。',
    },
  ],
] as const) {
  test(`without a sandbox the card offers running this chat's commands outside it (${language})`, async ({ page }) => {
    const approval = await askExec(page, language, { isolation: 'none', reason: 'Landlock is unavailable' });
    await expect(approval.locator('[data-sandbox="unavailable"]')).toHaveText(texts.unavailable);
    await expect(approval.locator('[data-chat-choice="sandboxed"]')).toHaveCount(0);
    await approval.locator('[data-chat-choice="unsandboxed"]').click();
    await expect(approval.locator('[data-chat-choice="unsandboxed"]')).toHaveCount(0);
    expect((await callsTo(page, 'resolve_approval'))[0].args.decision).toBe('allow_unsandboxed_in_chat');
    await expect(page.locator('[data-chat-sandbox="unsandboxed"]')).toContainText(texts.banner);
    await expect(page.locator('.approval.decision')).toHaveAttribute('data-decision', 'allow_unsandboxed_in_chat');
  });
}
