import { boot, callsTo, expect, test, withProvider } from './fixtures';
import type { Step } from './fake-backend';
import { add, del, diff as diffView } from './tool-views';

const markdownReply = [
  'Here is a **summary**:',
  '',
  '| Language | Year |',
  '|----------|------|',
  '| Rust     | 2015 |',
  '| Svelte   | 2016 |',
  '',
  '```rust',
  'fn main() {',
  '    println!("hello");',
  '}',
  '```',
  '',
  'Done.',
].join('\n');

async function startChat(page: import('@playwright/test').Page, script: Step[]) {
  await boot(page, { settings: withProvider, script });
  await page.getByRole('button', { name: /New chat/ }).first().click();
  const input = page.getByRole('textbox', { name: 'Message' });
  await expect(input).toBeVisible();
  return input;
}

test('sends a message and renders the streamed markdown, code and tool card', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const input = await startChat(page, [
    { tool: { name: 'read_file', arguments: '{"path":"notes.txt"}', result: '{"content":"hello"}' } },
    { text: markdownReply, chunk: 6, delayMs: 8 },
  ]);
  await input.fill('Summarize my notes');
  await input.press('Enter');

  const user = page.locator('article.message.user');
  await expect(user).toContainText('Summarize my notes');
  const sent = await callsTo(page, 'send_message');
  expect(sent).toHaveLength(1);
  expect(sent[0].args.content).toEqual([{ type: 'text', text: 'Summarize my notes' }]);
  expect(String(sent[0].args.onEvent)).toMatch(/^__CHANNEL__:\d+$/);

  const card = page.locator('.tool-card[data-tool="read_file"]');
  await expect(card).toHaveAttribute('data-status', 'ok');
  await expect(card).toContainText('Done');
  await expect(card).toContainText('20 ms');
  await card.getByRole('button', { name: /read_file/ }).click();
  await expect(card.locator('pre.json').first()).toHaveText('{\n  "path": "notes.txt"\n}');
  await expect(card.locator('pre.json').nth(1)).toHaveText('{\n  "content": "hello"\n}');

  const reply = page.locator('article.message.assistant').last();
  await expect(reply.locator('table td').first()).toHaveText('Rust');
  await expect(reply.locator('table tr')).toHaveCount(3);
  await expect(reply.locator('.code-block .code-lang')).toHaveText('rust');
  await expect(reply.locator('.code-block code .hljs-keyword').first()).toHaveText('fn');
  await expect(reply).toContainText('Done.');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();

  await reply.locator('.code-block').getByRole('button', { name: 'Copy' }).click();
  await expect(reply.locator('.code-block').getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('fn main() {\n    println!("hello");\n}');

  // Usage per reply and per chat (two model responses of 12 in / 7 out each).
  await expect(reply.locator('.usage')).toHaveText('12 in · 7 out tokens');
  await expect(page.locator('.chat-header .usage')).toHaveText('Chat total: 24 in · 14 out tokens');
});

test('model output with script and event handlers renders inert', async ({ page, problems }) => {
  // DOMPurify parses the reply in an inert document; Chromium reports the inline handlers it
  // sees there against the CSP. What matters is that none reaches the live page (checked below).
  problems.allow(/Executing inline event handler violates/);
  await page.addInitScript(() => {
    const live: string[] = [];
    (window as unknown as { __liveHandlers: string[] }).__liveHandlers = live;
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (!(n instanceof Element)) continue;
          for (const el of [n, ...n.querySelectorAll('*')]) {
            for (const a of el.attributes) if (a.name.toLowerCase().startsWith('on')) live.push(el.outerHTML);
            if (['SCRIPT', 'IFRAME', 'SVG', 'svg'].includes(el.tagName) && el.closest('.markdown')) live.push(el.outerHTML);
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const input = await startChat(page, [
    {
      text: 'Careful: <script>window.__pwned=1</script>\n\n<img src=x onerror="window.__pwned=1">\n\n<svg onload="window.__pwned=1"></svg>\n\n[click](javascript:window.__pwned=1)\n\nend',
      chunk: 5,
    },
  ]);
  await input.fill('attack');
  await input.press('Enter');
  const reply = page.locator('article.message.assistant').last();
  await expect(reply).toContainText('end');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await reply.getByText('click').click();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('.markdown script, .markdown svg, .markdown img, .markdown iframe').count()).toBe(0);
  const handlers = await page.evaluate(() =>
    [...document.querySelectorAll('.markdown *')].flatMap((el) => [...el.attributes].map((a) => a.name)).filter((n) => n.startsWith('on')),
  );
  expect(handlers).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __liveHandlers: string[] }).__liveHandlers)).toEqual([]);
});

for (const [label, decision, shown] of [
  ['Allow once', 'allow_once', 'Allowed once'],
  ['Allow for this session', 'allow_session', 'Allowed for this session'],
  ['Deny', 'deny', 'Denied'],
] as const) {
  test(`approval card: ${label} sends ${decision}`, async ({ page }) => {
    const args = '{"command":"rm -rf build","cwd":"/home/me/project"}';
    const input = await startChat(page, [
      { tool: { name: 'exec', arguments: args, result: '{"exit_code":0}', approval: 'exec runs commands', startsPrograms: true } },
      { text: 'Finished.' },
    ]);
    await input.fill('clean the build');
    await input.press('Enter');
    const approval = page.locator('.approval');
    await expect(approval).toContainText('Approval needed: exec');
    await expect(approval).toContainText('Why: exec runs commands');
    await expect(approval.locator('pre')).toHaveText('{\n  "command": "rm -rf build",\n  "cwd": "/home/me/project"\n}');
    await expect(page.locator('.tool-card')).toHaveAttribute('data-status', 'awaiting_approval');
    await approval.getByRole('button', { name: label, exact: true }).click();
    await expect(page.locator('.approval.decision')).toHaveText(shown);
    const resolved = await callsTo(page, 'resolve_approval');
    expect(resolved).toHaveLength(1);
    expect(resolved[0].args.decision).toBe(decision);
    expect(String(resolved[0].args.requestId)).toMatch(/^req-/);
    await expect(page.locator('.tool-card')).toHaveAttribute('data-status', decision === 'deny' ? 'error' : 'ok');
    await expect(page.locator('article.message.assistant').last()).toContainText('Finished.');
  });
}

test('an edit asking for approval shows the change as a diff, with the raw arguments folded', async ({ page }) => {
  const args = JSON.stringify({ path: 'src/<b>main</b>.rs', old_string: 'println!("hi");', new_string: 'println!("hello");\n<img src=x onerror="window.__pwned=1">' });
  const proposed = diffView('src/<b>main</b>.rs', [del('println!("hi");'), add('println!("hello");'), add('<img src=x onerror="window.__pwned=1">')]);
  const input = await startChat(page, [
    { tool: { name: 'edit_file', arguments: args, result: '{"replacements":1}', approval: 'edit_file changes files', proposed } },
    { text: 'Edited.' },
  ]);
  await input.fill('say hello');
  await input.press('Enter');
  const approval = page.locator('.approval');
  await expect(approval).toContainText('Approval needed: edit_file');
  const diff = approval.locator('.diff-view');
  await expect(diff.locator('.file-path')).toHaveText('src/<b>main</b>.rs');
  await expect(diff.locator('.diff-line[data-kind="del"]')).toHaveText(['-println!("hi");']);
  await expect(diff.locator('.diff-line[data-kind="add"]')).toHaveText(['+println!("hello");', '+<img src=x onerror="window.__pwned=1">']);
  expect(await approval.locator('img, b').count()).toBe(0);
  await expect(approval.locator('details pre')).toBeHidden();
  await approval.locator('details summary').click();
  await expect(approval.locator('details pre')).toContainText('"old_string": "println!(\\"hi\\");"');
  await approval.getByRole('button', { name: 'Allow once', exact: true }).click();
  await expect(page.locator('.approval.decision')).toHaveText('Allowed once');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('the stop button cancels the running turn', async ({ page }) => {
  const input = await startChat(page, [{ untilCancelled: true }]);
  await input.fill('write forever');
  await input.press('Enter');
  const stop = page.getByRole('button', { name: /Stop/ });
  await expect(stop).toBeVisible();
  await expect(page.locator('article.message.assistant')).toContainText('...');
  await stop.click();
  await expect(page.locator('p.notice')).toHaveText('Stopped.');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  const cancels = await callsTo(page, 'cancel_turn');
  expect(cancels).toHaveLength(1);
  expect(cancels[0].args.sessionId).toMatch(/^desktop:/);
  await expect(page.locator('article.message.assistant')).toHaveAttribute('data-status', 'interrupted');
});

test('a turn that fails before any reply keeps the message and shows the error once on it, with Retry', async ({ page }) => {
  const input = await startChat(page, [{ fail: 'provider returned 401: invalid api key' }]);
  await input.fill('hi');
  await input.press('Enter');
  await expect(page.getByRole('alert')).toHaveCount(1);
  const user = page.locator('article.message.user');
  await expect(user.getByRole('alert')).toHaveText('The turn failed: provider returned 401: invalid api key');
  await expect(user.locator('.user-text')).toHaveText('hi');
  await expect(page.locator('p.notice')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(page.locator('.toast')).toHaveCount(0);
  // The message was stored, so the composer is empty.
  await expect(input).toHaveValue('');
  // The failed turn can be tried again from the stored message.
  await user.getByRole('button', { name: /Retry/ }).click();
  await expect.poll(async () => (await callsTo(page, 'regenerate')).length).toBe(1);
});

test("the composer warns when a message will not fit the model's context window", async ({ page }) => {
  await boot(page, { settings: { ...withProvider, model_context_windows: { [withProvider.default_model ?? '']: 1000 } } });
  await page.getByRole('button', { name: /New chat/ }).first().click();
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('short question');
  await expect(page.locator('.too-long')).toHaveCount(0);
  await input.fill('word '.repeat(700));
  await expect(page.locator('.too-long')).toContainText('has a context of 1,000: it will not fit');
});

test('a send refused before the message is stored keeps the text in the composer', async ({ page }) => {
  await boot(page, { settings: withProvider, refuseSend: { code: 'busy_elsewhere', params: { session_id: 'x' } } });
  await page.getByRole('button', { name: /New chat/ }).first().click();
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('do not lose me');
  await input.press('Enter');
  await expect(page.locator('.toast')).toHaveCount(1);
  await expect(input).toHaveValue('do not lose me');
  await expect(page.locator('article.message.user')).toHaveCount(0);
});

test('a typed failure is shown in the UI language', async ({ page }) => {
  const unreachable = {
    code: 'model_unreachable' as const,
    params: { url: 'http://127.0.0.1:8080/v1', detail: 'connection refused' },
  };
  await boot(page, { settings: { ...withProvider, language: 'zh-CN' }, script: [{ fail: unreachable }] });
  await page.getByRole('button', { name: /新建对话/ }).first().click();
  const input = page.getByRole('textbox', { name: '消息' });
  await input.fill('你好');
  await input.press('Enter');
  const alert = page.getByRole('alert');
  await expect(alert.locator('.error-text')).toHaveText('本轮失败：无法连接到 http://127.0.0.1:8080/v1 的服务：请检查基础 URL 和网络。');
  // The network library's English is folded under 技术细节, hidden until opened.
  const detail = alert.locator('details.error-detail');
  await expect(detail.locator('code')).toBeHidden();
  await detail.locator('summary', { hasText: '技术细节' }).click();
  await expect(detail.locator('code')).toHaveText('connection refused');
});

test('regenerate replaces the last reply', async ({ page }) => {
  const input = await startChat(page, [{ text: 'An answer.' }]);
  await input.fill('question');
  await input.press('Enter');
  await expect(page.locator('article.message.assistant')).toHaveCount(1);
  await page.getByRole('button', { name: /Regenerate/ }).click();
  await expect.poll(async () => (await callsTo(page, 'regenerate')).length).toBe(1);
  await expect(page.getByRole('button', { name: /Regenerate/ })).toBeVisible();
  await expect(page.locator('article.message.assistant')).toHaveCount(1);
  await expect(page.locator('article.message.user')).toHaveCount(1);
});

test('editing a past message forks the chat into a new session', async ({ page }) => {
  const input = await startChat(page, [{ text: 'Reply.' }]);
  await input.fill('first question');
  await input.press('Enter');
  await expect(page.getByRole('button', { name: /Regenerate/ })).toBeVisible();
  await input.fill('second question');
  await input.press('Enter');
  await expect(page.locator('article.message.assistant')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();

  await page.locator('article.message.user').nth(1).getByRole('button', { name: /Edit/ }).click();
  const editor = page.getByRole('textbox', { name: 'Edit' });
  await editor.fill('second question, rephrased');
  await page.getByRole('button', { name: 'Save and fork' }).click();

  await expect(page.locator('.chat-title')).toHaveText('first question (edited)');
  await expect(page.locator('article.message.user')).toHaveText([/first question/, /second question, rephrased/]);
  await expect(page.locator('.session')).toHaveCount(2);
  const edits = await callsTo(page, 'edit_message');
  expect(edits).toHaveLength(1);
  expect(edits[0].args.content).toEqual([{ type: 'text', text: 'second question, rephrased' }]);
  await expect(page.locator('article.message.user').first().getByRole('button', { name: /Edit/ })).toBeVisible();
});
