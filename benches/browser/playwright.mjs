// The Playwright side of the browser benchmark: the same pages and script on the same Chromium.
// Usage: node playwright.mjs '<json config>' (see crates/browser/benches/compare.rs).
import { chromium } from 'playwright-core';

const config = JSON.parse(process.argv[2]);
const browser = await chromium.launch({ executablePath: config.executable, args: ['--disable-gpu', '--disable-background-networking'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
const out = { pages: [], script_ms: [] };
for (const url of config.urls) {
  await page.goto(url, { waitUntil: 'load' });
  const plain = await page.ariaSnapshot();
  const times = [];
  let ai = '';
  for (let i = 0; i < config.runs; i++) {
    const start = performance.now();
    ai = await page.ariaSnapshot({ mode: 'ai' });
    times.push(performance.now() - start);
  }
  out.pages.push({ url, default_chars: plain.length, ai_chars: ai.length, ai, times });
}
for (let i = 0; i < config.script_runs; i++) {
  const start = performance.now();
  await page.goto(config.form_url, { waitUntil: 'load' });
  await page.getByRole('textbox', { name: 'First name' }).fill('Ada');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Lovelace');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved Ada Lovelace').waitFor();
  await page.locator('body').innerText();
  await page.screenshot();
  out.script_ms.push(performance.now() - start);
}
await browser.close();
process.stdout.write(JSON.stringify(out));
