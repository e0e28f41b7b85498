// Layout measured in Chromium: short audit columns stay on one line in Chinese, the Knowledge
// page's Add folder button is a button (not a thin full-width bar), the skill source input
// spans its form, an MCP server's per-tool selects are small and in one column, and file
// dialogs are titled in the UI language.
import { boot, callsTo, expect, test, withProvider } from './fixtures';
import { mcpServer } from './mcpServers';

test('the Chinese audit log keeps decision and actor on one line', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 700 });
  await boot(page, {
    settings: { ...withProvider, language: 'zh-CN' },
    audit: [
      {
        id: 1,
        session_id: null,
        tool: 'exec',
        arguments: JSON.stringify({ command: 'ls -la /home/u/projects/hearth && git status && cargo test --workspace' }),
        decision: 'deny',
        reason: null,
        reason_code: {
          reason: { code: 'needs_approval', params: { tool: 'exec', security: 'personal_cli', every_time: true } },
          confirmation: null,
          allowed: null,
        },
        actor: 'timeout',
        created_at: 1_700_000_000_000,
      },
    ],
  });
  await page.getByRole('button', { name: /设置/ }).click();
  const row = page.locator('table.audit tbody tr').first();
  await expect(row.locator('td').nth(2)).toHaveText('拒绝');
  for (const n of [2, 3]) {
    // The text's own lines (a cell is as tall as its row's longest reason).
    const lines = await row.locator('td').nth(n).evaluate((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return tops.size;
    });
    expect(lines, `column ${n} lines`).toBe(1);
  }
  await page.screenshot({ path: 'test-results/layout-audit-zh.png', fullPage: true });
});

test('Add folder is a button sized to its label, and the folder dialog is titled in the UI language', async ({ page }) => {
  await boot(page, {
    settings: { ...withProvider, language: 'zh-CN' },
    dialog: '/home/u/Documents',
    knowledge: {
      folders: ['/home/u/.hearth/workspace/knowledge'],
      files: 0,
      chunks: 0,
      errors: 0,
      last_indexed: null,
      watching: true,
      progress: { running: false, total: 0, done: 0, current: null, last: null },
      file_errors: [],
    },
  });
  await page.getByRole('button', { name: '知识库' }).click();
  const button = page.locator('button.add-folder');
  const box = await button.boundingBox();
  const page_ = await button.evaluate((b) => b.parentElement!.getBoundingClientRect().width);
  expect(box!.width).toBeLessThan(page_ / 2);
  expect(box!.height).toBeGreaterThanOrEqual(24);
  await page.screenshot({ path: 'test-results/layout-knowledge-zh.png', fullPage: true });
  await button.click();
  await expect.poll(async () => (await callsTo(page, 'plugin:dialog|open')).length).toBe(1);
  const [call] = await callsTo(page, 'plugin:dialog|open');
  expect((call.args.options as { title?: string }).title).toBe('选择加入知识库的文件夹');
});

test('the skill source input spans its form', async ({ page }) => {
  await boot(page, { settings: withProvider });
  await page.getByRole('button', { name: 'Skills' }).click();
  await page.getByRole('button', { name: 'Install…' }).click();
  const input = page.locator('input[name="skill_location"]');
  const form = await input.evaluate((i) => i.closest('form')!.getBoundingClientRect().width);
  const box = await input.boundingBox();
  expect(box!.width).toBeGreaterThan(form * 0.9);
  await page.screenshot({ path: 'test-results/layout-skill-install.png' });
});

for (const language of ['en', 'zh-CN'] as const) {
  test(`an MCP server's per-tool selects line up in one column, no taller than a small button (${language})`, async ({ page }) => {
    await boot(page, {
      settings: { ...withProvider, language, mcp_servers: [mcpServer('everything', { command: 'npx' })] },
      mcpTools: {
        everything: [
          { tool: 'echo', description: 'Echoes back the input', read_only: true },
          { tool: 'get-sum', description: 'Adds two numbers' },
          { tool: 'longRunningOperation', description: 'Demonstrates a long running operation with progress updates' },
        ],
      },
    });
    await page.getByRole('button', { name: /Settings|设置/ }).click();
    const card = page.locator('section[aria-labelledby="mcp-title"] [data-server="everything"]');
    await expect(card.locator('[data-state="ready"]')).toBeVisible();
    const rows = await card.locator('li[data-tool]').evaluateAll((items) =>
      items.map((li) => {
        const box = (el: Element) => el.getBoundingClientRect();
        const select = box(li.querySelector('select')!);
        const name = box(li.querySelector('code')!);
        const description = box(li.querySelector('select + span')!);
        const restart = box(li.closest('[data-server]')!.querySelector('.row-actions button')!);
        return { select, name, description, restart };
      }),
    );
    expect(rows).toHaveLength(3);
    for (const { select, name, description, restart } of rows) {
      expect(Math.abs(select.left - rows[0].select.left), 'selects share a left edge').toBeLessThan(1);
      expect(Math.abs(description.left - rows[0].description.left), 'descriptions share a left edge').toBeLessThan(1);
      expect(select.height, 'a select is no taller than a small button').toBeLessThanOrEqual(restart.height + 1);
      expect(Math.abs(select.top + select.height / 2 - (name.top + name.height / 2)), 'a select is centred on its tool name').toBeLessThan(3);
    }
    await card.screenshot({ path: `test-results/layout-mcp-tools-${language}.png` });
  });
}
