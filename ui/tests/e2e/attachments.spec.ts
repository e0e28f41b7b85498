import { boot, callsTo, expect, session, test, withProvider } from './fixtures';

const chat = session('desktop:a', 'Files chat');

async function openChat(page: import('@playwright/test').Page, dialog: string | string[] | null = null, clipboardImage?: string) {
  await boot(page, { settings: withProvider, sessions: [chat], dialog, clipboardImage, script: [{ text: 'Got them.' }] });
  await page.locator('[data-session-id="desktop:a"] .session-open').click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
}

test('picked files become removable chips and are sent with the message', async ({ page }) => {
  await openChat(page, ['/home/me/photo.png', '/home/me/notes.txt', '/home/me/data.bin']);
  await page.getByRole('button', { name: 'Attach files' }).click();
  const chips = page.locator('.composer .chip');
  await expect(chips).toHaveCount(3);
  await expect(chips.locator('.chip-label')).toHaveText(['photo.png', 'notes.txt', 'data.bin']);
  await expect(chips.nth(2)).toContainText('4.0 KB');
  expect((await callsTo(page, 'plugin:dialog|open'))[0].args).toEqual({ options: { multiple: true, directory: false, title: 'Choose files to attach' } });
  expect((await callsTo(page, 'prepare_attachment')).map((c) => c.args)).toEqual([
    { sessionId: 'desktop:a', path: '/home/me/photo.png' },
    { sessionId: 'desktop:a', path: '/home/me/notes.txt' },
    { sessionId: 'desktop:a', path: '/home/me/data.bin' },
  ]);

  await page.getByRole('button', { name: 'Remove notes.txt' }).click();
  await expect(chips).toHaveCount(2);
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill('Look at these');
  await input.press('Enter');

  const sent = (await callsTo(page, 'send_message'))[0].args.content as { type: string }[];
  expect(sent.map((p) => p.type)).toEqual(['text', 'image', 'file']);
  await expect(chips).toHaveCount(0);
  const userChips = page.locator('article.message.user .chip .chip-label');
  await expect(userChips).toHaveText(['photo.png', 'data.bin']);
  await expect(page.locator('article.message.assistant')).toContainText('Got them.');
  // Still there after the chat reloads from the store.
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(userChips).toHaveText(['photo.png', 'data.bin']);
});

test('files dropped on the window are attached; failures are reported', async ({ page }) => {
  await openChat(page);
  await expect.poll(async () => (await callsTo(page, 'plugin:event|listen')).map((c) => c.args.event)).toContain('tauri://drag-drop');
  await page.evaluate(() => {
    const h = (window as unknown as { __hearth: { emit(e: string, p: unknown): void } }).__hearth;
    h.emit('tauri://drag-enter', { paths: ['/tmp/x.md'], position: { x: 10, y: 10 } });
  });
  await expect(page.locator('.drop-hint')).toHaveText('Drop files to attach them');
  await page.evaluate(() => {
    const h = (window as unknown as { __hearth: { emit(e: string, p: unknown): void } }).__hearth;
    h.emit('tauri://drag-drop', { paths: ['/tmp/x.md', '/tmp/missing.bin'], position: { x: 10, y: 10 } });
  });
  await expect(page.locator('.drop-hint')).toHaveCount(0);
  await expect(page.locator('.composer .chip .chip-label')).toHaveText(['x.md']);
  await expect(page.locator('.composer .chip')).toContainText('text');
  await expect(page.locator('.toast.error')).toContainText('Could not attach missing.bin: no such file: /tmp/missing.bin');

  // A file alone can be sent; the attached text shows as a chip, not as the message body.
  await page.getByRole('button', { name: 'Send' }).click();
  const sent = (await callsTo(page, 'send_message'))[0].args.content as { type: string; text: string }[];
  expect(sent).toHaveLength(1);
  expect(sent[0].type).toBe('attached');
  expect(sent[0].text.startsWith('Attached file `x.md`:')).toBe(true);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(page.locator('article.message.user .chip-label')).toHaveText(['x.md']);
  await expect(page.locator('article.message.user .user-text')).toHaveCount(0);
});

test('a dropped PDF shows how many pages went in, whether it was cut, or that it has no text', async ({ page }) => {
  await openChat(page);
  await expect.poll(async () => (await callsTo(page, 'plugin:event|listen')).map((c) => c.args.event)).toContain('tauri://drag-drop');
  await page.evaluate(() => {
    const h = (window as unknown as { __hearth: { emit(e: string, p: unknown): void } }).__hearth;
    h.emit('tauri://drag-drop', { paths: ['/tmp/季度.pdf', '/tmp/scan.pdf'], position: { x: 10, y: 10 } });
  });
  await expect(page.locator('.composer .chip .chip-label')).toHaveText(['季度.pdf', 'scan.pdf']);
  await expect(page.locator('.composer .chip').nth(0)).toContainText('2 of 5 pages · cut');
  await expect(page.locator('.composer .chip').nth(1)).toContainText('no text (scanned?)');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('article.message.user .chip-label')).toHaveText(['季度.pdf', 'scan.pdf']);
  await expect(page.locator('article.message.user .user-text')).toHaveCount(0);
});

test('a pasted image is attached through attach_bytes', async ({ page }) => {
  await openChat(page);
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.focus();
  await page.evaluate(() => {
    const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
    const data = new DataTransfer();
    data.items.add(new File([bytes], '', { type: 'image/png' }));
    const target = document.querySelector('.composer textarea');
    target?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(page.locator('.composer .chip .chip-label')).toHaveText(['pasted-1.png']);
  const call = (await callsTo(page, 'attach_bytes'))[0].args;
  expect(call).toEqual({ sessionId: 'desktop:a', name: 'pasted-1.png', mimeType: 'image/png', dataBase64: 'iVBORw0KGgo=' });
});

test('a paste the webview gives no image (WebKitGTK) takes the image from the OS clipboard; a text paste does not', async ({ page }) => {
  await openChat(page, null, 'iVBORw0KGgo=');
  await page.getByRole('textbox', { name: 'Message' }).focus();
  const paste = (text: string) =>
    page.evaluate((text) => {
      const data = new DataTransfer();
      if (text) data.setData('text/plain', text);
      document.querySelector('.composer textarea')?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
  await paste('just words');
  expect(await callsTo(page, 'paste_clipboard_image')).toHaveLength(0);
  await paste('');
  await expect(page.locator('.composer .chip .chip-label')).toHaveText(['pasted-1.png']);
  expect((await callsTo(page, 'paste_clipboard_image'))[0].args).toEqual({ sessionId: 'desktop:a', name: 'pasted-1.png' });
});

test('the per-chat model field sets the model', async ({ page }) => {
  await openChat(page);
  const model = page.locator('.model-input');
  await expect(model).toHaveAttribute('placeholder', 'fake-model');
  await model.fill('gpt-4.1');
  await model.press('Enter');
  await expect.poll(async () => (await callsTo(page, 'set_session_model')).map((c) => c.args)).toEqual([{ id: 'desktop:a', model: 'gpt-4.1' }]);
});

test('choosing a workspace folder sets it for the chat', async ({ page }) => {
  await openChat(page, '/home/me/project');
  await expect(page.locator('.chat-header .workspace')).toContainText('Default workspace');
  await page.getByRole('button', { name: 'Choose the workspace folder for this chat' }).click();
  await expect(page.locator('.chat-header .workspace')).toContainText('project');
  expect((await callsTo(page, 'plugin:dialog|open'))[0].args).toEqual({ options: { directory: true, multiple: false, title: 'Choose the chat’s workspace folder' } });
  expect((await callsTo(page, 'set_session_workspace')).map((c) => c.args)).toEqual([{ id: 'desktop:a', workspace: '/home/me/project' }]);
});
