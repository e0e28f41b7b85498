// Settings → Models downloads against the fake backend, which sends each change as a
// `models://download` event as the app does: a recommended model downloaded with its progress,
// paused and resumed into the installed list; the form's checks, a Hugging Face file started and
// cancelled; a refused start and a failed download with their errors translated; all in Chinese.
import type { Page } from '@playwright/test';
import { boot, callsTo, expect, test, withProvider } from './fixtures';
import { recommended, smol } from './localModelItems';

const QWEN = 'Qwen3-1.7B-Q4_K_M.gguf';

async function openModels(page: Page, settingsLabel = 'Settings') {
  await page.getByRole('button', { name: new RegExp(settingsLabel) }).click();
  const section = page.locator('section#models');
  await expect(section).toHaveAttribute('data-models', 'loaded');
  return section;
}

/** Moves the running fake downloads on by `share` of their size. */
const step = (page: Page, share: number) =>
  page.evaluate((s) => (window as unknown as { __hearth: { downloadStep(s: number): void } }).__hearth.downloadStep(s), share);

test('a recommended model downloads with its progress, pauses, resumes and lands in the installed list', async ({ page }) => {
  await boot(page, { settings: withProvider, localModels: [smol], recommended });
  const section = await openModels(page);
  const offer = section.locator(`[data-recommended="${QWEN}"]`);
  await offer.getByRole('button', { name: 'Download Qwen3 1.7B' }).click();
  expect((await callsTo(page, 'start_model_download')).map((c) => c.args)).toEqual([
    { params: { source: 'unsloth/Qwen3-1.7B-GGUF', file: QWEN, sha256: null } },
  ]);
  const row = section.locator(`[data-download="${QWEN}"]`);
  await expect(row).toHaveAttribute('data-state', 'running');
  await expect(row).toContainText('https://huggingface.co/unsloth/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf');
  await expect(offer).toContainText('Downloading');

  await step(page, 0.25);
  await expect(row.locator('[data-download-facts]')).toHaveText('175.0 MB of 700.0 MB · 25.0 MB/s · 21 s left');
  await expect(row.locator('progress')).toHaveJSProperty('value', 0.25);

  await row.getByRole('button', { name: `Pause the download of ${QWEN}` }).click();
  await expect(row).toHaveAttribute('data-state', 'paused');
  await expect(row.locator('.badge')).toHaveText('Paused');
  await expect(row.locator('[data-download-facts]')).toHaveText('175.0 MB of 700.0 MB');
  await step(page, 0.25);
  await expect(row.locator('[data-download-facts]')).toHaveText('175.0 MB of 700.0 MB');

  await row.getByRole('button', { name: `Resume the download of ${QWEN}` }).click();
  await expect(row).toHaveAttribute('data-state', 'running');
  await step(page, 0.5);
  await expect(row.locator('[data-download-facts]')).toHaveText('525.0 MB of 700.0 MB · 25.0 MB/s · 7 s left');
  await step(page, 0.5);
  await expect(row).toHaveCount(0);
  await expect(section.locator('[data-model="Qwen3-1.7B-Q4_K_M"]')).toContainText('700.0 MB');
  await expect(page.getByText('Model Qwen3-1.7B-Q4_K_M downloaded.')).toBeVisible();
  await expect(offer).toContainText('Installed');
  expect((await callsTo(page, 'pause_model_download')).length).toBe(1);
  expect((await callsTo(page, 'resume_model_download')).length).toBe(1);
});

test('the form checks what it is given, downloads a Hugging Face file or a URL, and cancels', async ({ page }) => {
  await boot(page, { settings: withProvider, localModels: [smol] });
  const section = await openModels(page);
  const form = section.locator('[data-models="download-form"]');
  const download = form.getByRole('button', { name: 'Download', exact: true });
  await download.click();
  await expect(form.locator('[data-models="download-error"]')).toHaveText('Enter an address or a Hugging Face repository.');
  await form.getByLabel('Address or Hugging Face repository').fill('Qwen/Qwen3-0.6B-GGUF');
  await download.click();
  await expect(form.locator('[data-models="download-error"]')).toHaveText('Enter the name of the file to download from the repository.');
  await form.getByLabel('File in the repository').fill('Qwen3-0.6B-Q8_0.gguf');
  await form.getByLabel('SHA-256 (optional)').fill('abc');
  await download.click();
  await expect(form.locator('[data-models="download-error"]')).toHaveText('A SHA-256 is 64 hexadecimal digits.');
  expect(await callsTo(page, 'start_model_download')).toHaveLength(0);

  const sha = 'ab'.repeat(32);
  await form.getByLabel('SHA-256 (optional)').fill(sha);
  await download.click();
  await expect(form.locator('[data-models="download-error"]')).toHaveCount(0);
  await expect(form.getByLabel('Address or Hugging Face repository')).toHaveValue('');
  const row = section.locator('[data-download="Qwen3-0.6B-Q8_0.gguf"]');
  await expect(row).toHaveAttribute('data-state', 'running');
  await expect(row.locator('progress')).not.toHaveAttribute('value');

  await form.getByLabel('Address or Hugging Face repository').fill('http://127.0.0.1:8000/models/tiny.gguf');
  await expect(form.getByLabel('File in the repository')).toHaveCount(0);
  await download.click();
  await expect(section.locator('[data-download="tiny.gguf"]')).toHaveAttribute('data-state', 'running');
  expect((await callsTo(page, 'start_model_download')).map((c) => c.args)).toEqual([
    { params: { source: 'Qwen/Qwen3-0.6B-GGUF', file: 'Qwen3-0.6B-Q8_0.gguf', sha256: sha } },
    { params: { source: 'http://127.0.0.1:8000/models/tiny.gguf', file: null, sha256: null } },
  ]);

  await step(page, 0.1);
  await row.getByRole('button', { name: 'Cancel the download of Qwen3-0.6B-Q8_0.gguf' }).click();
  await expect(row).toHaveCount(0);
  await expect(section.locator('[data-download="tiny.gguf"]')).toBeVisible();
  await expect(section.locator('[data-model="Qwen3-0.6B-Q8_0"]')).toHaveCount(0);
});

const refusedSource = 'http://10.0.0.5/m.gguf';
const failures = {
  downloadRefusals: {
    [refusedSource]: { code: 'download_refused', params: { url: refusedSource, detail: 'a private address; add it to allow_local_hosts' } },
  },
  downloadFailures: {
    'bad.gguf': { code: 'download_checksum', params: { expected: 'a'.repeat(8), actual: 'b'.repeat(8) } },
  },
} as const;

test('a refused start and a failed download say why; a failed one is tried again or dismissed', async ({ page }) => {
  await boot(page, { settings: withProvider, localModels: [smol], ...failures });
  const section = await openModels(page);
  const form = section.locator('[data-models="download-form"]');
  const source = form.getByLabel('Address or Hugging Face repository');
  await source.fill(refusedSource);
  await form.getByRole('button', { name: 'Download', exact: true }).click();
  await expect(form.locator('[data-models="download-error"]')).toHaveText(
    'The download from http://10.0.0.5/m.gguf was refused: a private address; add it to allow_local_hosts',
  );
  await expect(source).toHaveValue(refusedSource);
  await source.fill(`https://example.org/${smol.file_name}`);
  await form.getByRole('button', { name: 'Download', exact: true }).click();
  await expect(form.locator('[data-models="download-error"]')).toHaveText(
    `A model named ${smol.file_name} is already in /home/u/.hearth/models: remove it first, or choose another file.`,
  );

  await source.fill('https://example.org/bad.gguf');
  await form.getByRole('button', { name: 'Download', exact: true }).click();
  const row = section.locator('[data-download="bad.gguf"]');
  await step(page, 0.5);
  await expect(row).toHaveAttribute('data-state', 'failed');
  await expect(row.locator('[data-download-error]')).toHaveText(
    'The downloaded file is not the expected one (its SHA-256 is bbbbbbbb, expected aaaaaaaa), so it was deleted.',
  );
  await row.getByRole('button', { name: 'Try the download of bad.gguf again' }).click();
  await expect(row).toHaveAttribute('data-state', 'running');
  await step(page, 0.5);
  await expect(row.locator('[data-download-facts]')).toContainText('350.0 MB of 700.0 MB');
  await row.getByRole('button', { name: 'Pause the download of bad.gguf' }).click();
  await expect(row).toHaveAttribute('data-state', 'paused');
  await row.getByRole('button', { name: 'Cancel the download of bad.gguf' }).click();
  await expect(row).toHaveCount(0);
});

test('in Chinese, downloads read in Chinese: progress, buttons and errors', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, language: 'zh-CN' }, localModels: [smol], recommended, ...failures });
  const section = await openModels(page, '设置');
  const form = section.locator('[data-models="download-form"]');
  await expect(form.getByRole('heading', { name: '下载模型' })).toBeVisible();
  await form.getByRole('button', { name: '下载', exact: true }).click();
  await expect(form.locator('[data-models="download-error"]')).toHaveText('请输入地址或 Hugging Face 仓库。');
  await form.getByLabel('地址或 Hugging Face 仓库').fill(refusedSource);
  await form.getByRole('button', { name: '下载', exact: true }).click();
  await expect(form.locator('[data-models="download-error"]')).toContainText('已拒绝从 http://10.0.0.5/m.gguf 下载');
  await form.getByLabel('地址或 Hugging Face 仓库').fill(`https://example.org/${smol.file_name}`);
  await form.getByRole('button', { name: '下载', exact: true }).click();
  await expect(form.locator('[data-models="download-error"]')).toHaveText(
    `/home/u/.hearth/models 中已有名为 ${smol.file_name} 的模型：请先移除它，或选择其他文件。`,
  );

  await section.locator(`[data-recommended="${QWEN}"]`).getByRole('button', { name: '下载 Qwen3 1.7B' }).click();
  const row = section.locator(`[data-download="${QWEN}"]`);
  await step(page, 0.25);
  await expect(row.locator('[data-download-facts]')).toHaveText('175.0 MB / 700.0 MB · 25.0 MB/秒 · 剩余 21 秒');
  await expect(section.locator(`[data-recommended="${QWEN}"]`)).toContainText('正在下载');
  await row.getByRole('button', { name: `暂停下载 ${QWEN}` }).click();
  await expect(row.locator('.badge')).toHaveText('已暂停');

  await form.getByLabel('地址或 Hugging Face 仓库').fill('https://example.org/bad.gguf');
  await form.getByRole('button', { name: '下载', exact: true }).click();
  await step(page, 0.5);
  const bad = section.locator('[data-download="bad.gguf"]');
  await expect(bad.locator('[data-download-error]')).toHaveText('下载的文件与预期不符（其 SHA-256 为 bbbbbbbb，预期为 aaaaaaaa），已将其删除。');
  await expect(bad.getByRole('button', { name: '重新下载 bad.gguf' })).toBeVisible();
  await bad.getByRole('button', { name: '关闭失败的下载 bad.gguf' }).click();
  await expect(bad).toHaveCount(0);
});
