import { defineConfig } from '@playwright/test';

// End-to-end tests of the built UI (ui/dist served by `vite preview` under the app's CSP) in
// Debian's Chromium, with the Tauri backend replaced by tests/e2e/fake-*.ts. The preview
// server's port is PLAYWRIGHT_PORT (default 4173), so several people can run Playwright at once.
const port = Number(process.env.PLAYWRIGHT_PORT ?? 4173);
const origin = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  workers: 2,
  reporter: [['list']],
  forbidOnly: !!process.env.CI,
  use: {
    baseURL: origin,
    browserName: 'chromium',
    viewport: { width: 1200, height: 800 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-dev-shm-usage',
      ],
    },
    trace: 'off',
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port}`,
    url: origin,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
