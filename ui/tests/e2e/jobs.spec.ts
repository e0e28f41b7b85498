import type { JobView, RunView } from '../../src/lib/jobs';
import { boot, callsTo, emitEvent, expect, session, test, withProvider } from './fixtures';
import { mcpServer } from './mcpServers';

const sessions = [session('desktop:news', 'Morning news'), session('desktop:other', 'Other chat'), session('job:run-1', 'Job: Daily brief')];

function job(extra: Partial<JobView> = {}): JobView {
  return {
    id: 'job-1',
    name: 'Daily brief',
    schedule: { type: 'cron', expr: '0 8 * * *' },
    schedule_description: 'at 08:00 every day',
    tz: 'UTC',
    prompt: 'Summarise the news',
    target: 'desktop:news',
    model: null,
    enabled: true,
    notify: true,
    authorization: 'authorized',
    authorized_tools: ['exec', 'write_file'],
    authorized_at: '2029-12-31T10:00:00+00:00',
    next_run: '2030-01-01T08:00:00+00:00',
    last_run: null,
    last_status: null,
    run_requested: false,
    created_at: '2029-12-31T10:00:00+00:00',
    skill: null,
    ...extra,
  };
}

const run: RunView = {
  id: 7,
  status: 'ok',
  catch_up: true,
  manual: false,
  authorized: true,
  scheduled_for: '2029-12-31T08:00:00+00:00',
  started_at: '2029-12-31T09:12:00+00:00',
  finished_at: '2029-12-31T09:12:30+00:00',
  output: 'Headlines: **all quiet**.',
  error: null,
  error_code: null,
};

test('creates a job with a live preview of its next five runs', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions });
  // A job run's session is not a sidebar row, nor a target.
  await expect(page.locator('li.session')).toHaveCount(2);
  await expect(page.locator('li.session[data-session-id="job:run-1"]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Jobs' }).click();
  await expect(page.getByText('No scheduled jobs yet.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'New job' }).click();
  await page.locator('input[name="job_name"]').fill('Daily brief');
  const schedule = page.locator('input[name="job_schedule"]');
  await schedule.fill('0 8 * * *');
  const runs = page.locator('.preview-runs li');
  await expect(runs).toHaveCount(5);
  await expect(runs.first()).toHaveText('2030-01-01 08:00 (UTC+00:00)');
  await expect(runs.last()).toHaveText('2030-01-05 08:00 (UTC+00:00)');
  // The preview follows the field as it is typed; an unknown schedule says why.
  await schedule.fill('30 9 * * *');
  await expect(runs.first()).toHaveText('2030-01-01 09:30 (UTC+00:00)');
  await schedule.fill('whenever');
  await expect(page.locator('.preview-error')).toContainText('not a schedule I understand');
  await expect(runs).toHaveCount(0);
  await schedule.fill('every hour');
  await expect(page.locator('.preview-description')).toContainText('every hour');
  await expect(runs.nth(1)).toHaveText('2030-01-01 02:00 (UTC+00:00)');

  await page.locator('textarea[name="job_prompt"]').fill('Summarise the news');
  // Targets show title and date, so chats of one title can be told apart.
  await expect(page.locator('select[name="job_target"] option[value="desktop:news"]')).toHaveText(/^Morning news · \S/);
  await expect(page.locator('select[name="job_target"] option[value="job:run-1"]')).toHaveCount(0);
  await page.locator('select[name="job_target"]').selectOption({ value: 'desktop:news' });
  await page.getByRole('button', { name: 'Create job' }).click();
  const card = page.locator('li.job');
  await expect(card).toHaveCount(1);
  await expect(card.locator('.job-name')).toHaveText('Daily brief');
  await expect(card.locator('.job-next')).toContainText('Next run: 2030-01-01 01:00 (UTC+00:00)');
  await expect(card).toContainText('Delivers to: Morning news');
  await expect(card.locator('.auth-badge')).toHaveText('Not approved');
  const created = await callsTo(page, 'create_job');
  expect(created.map((c) => c.args.form)).toEqual([
    { name: 'Daily brief', schedule: 'every hour', tz: null, prompt: 'Summarise the news', target: 'desktop:news', model: null, notify: true },
  ]);
  // Previews were debounced: far fewer calls than keystrokes.
  expect((await callsTo(page, 'preview_schedule')).length).toBeLessThan(12);
});

test('a refused job shows the reason and keeps the form', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions, jobs: [job()] });
  await page.getByRole('button', { name: 'Jobs' }).click();
  await page.getByRole('button', { name: 'New job' }).click();
  await page.locator('input[name="job_name"]').fill('Daily brief');
  await page.locator('input[name="job_schedule"]').fill('0 8 * * *');
  await page.locator('textarea[name="job_prompt"]').fill('Again');
  await page.getByRole('button', { name: 'Create job' }).click();
  await expect(page.locator('.job-editor [role="alert"]')).toContainText("a job named 'Daily brief' already exists");
  await expect(page.locator('input[name="job_name"]')).toHaveValue('Daily brief');
  await expect(page.locator('li.job')).toHaveCount(1);
});

test('editing an approved job needs re-approval; Re-approve confirms what it binds', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions, jobs: [job()] });
  await page.getByRole('button', { name: 'Jobs' }).click();
  const card = page.locator('li.job[data-job-id="job-1"]');
  await expect(card.locator('.auth-badge')).toHaveText('Approved');
  await card.getByRole('button', { name: 'Edit' }).click();
  await expect(page.locator('input[name="job_schedule"]')).toHaveValue('0 8 * * *');
  await expect(page.locator('.job-editor')).toContainText('withdraws the approval');
  // The preview of the next runs arrives after the form opens without moving the buttons (a
  // click aimed at Save must not land elsewhere).
  const save = page.getByRole('button', { name: 'Save' });
  const before = await save.boundingBox();
  await expect(page.locator('.preview-runs li')).toHaveCount(5);
  expect(await save.boundingBox()).toEqual(before);
  await page.locator('textarea[name="job_prompt"]').fill('Summarise the news and the weather');
  await save.click();
  await expect(card.locator('.auth-badge')).toHaveText('Needs re-approval');
  await expect(card).toContainText('cannot use high-risk tools until you re-approve it');

  // The dialog shows instruction, frequency and target; cancelling approves nothing.
  await card.getByRole('button', { name: 'Re-approve' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.approve-instruction')).toHaveText('Summarise the news and the weather');
  await expect(dialog.locator('.approve-frequency')).toContainText('at 08:00 every day');
  await expect(dialog.locator('.approve-frequency li')).toHaveCount(5);
  await expect(dialog.locator('.approve-target')).toHaveText('Morning news');
  await expect(dialog.locator('.approve-tools')).toHaveText('exec, write_file');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await callsTo(page, 'approve_job')).toEqual([]);
  await expect(card.locator('.auth-badge')).toHaveText('Needs re-approval');

  await card.getByRole('button', { name: 'Re-approve' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(card.locator('.auth-badge')).toHaveText('Approved');
  expect((await callsTo(page, 'approve_job')).map((c) => c.args)).toEqual([{ id: 'job-1', mcpServers: [] }]);
});

test('Revoke approval withdraws a valid approval; the job can be approved again', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions, jobs: [job()] });
  await page.getByRole('button', { name: 'Jobs' }).click();
  const card = page.locator('li.job[data-job-id="job-1"]');
  await expect(card.locator('.auth-badge')).toHaveText('Approved');
  await card.getByRole('button', { name: 'Revoke approval' }).click();
  await expect(card.locator('.auth-badge')).toHaveText('Not approved');
  await expect(card).toHaveAttribute('data-authorization', 'not_authorized');
  expect((await callsTo(page, 'revoke_job_approval')).map((c) => c.args)).toEqual([{ id: 'job-1' }]);
  await expect(card.getByRole('button', { name: 'Revoke approval' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Approve…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(card.locator('.auth-badge')).toHaveText('Approved');
  await expect(card.getByRole('button', { name: 'Revoke approval' })).toBeVisible();
});

test('a job that needs re-approval has nothing to revoke', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, language: 'zh-CN' }, sessions, jobs: [job({ authorization: 'needs_reapproval' }), job({ id: 'job-2', name: 'Backup' })] });
  await page.getByRole('button', { name: '定时任务' }).click();
  await expect(page.locator('li.job[data-job-id="job-1"]').getByRole('button', { name: '撤销批准' })).toHaveCount(0);
  await expect(page.locator('li.job[data-job-id="job-2"]').getByRole('button', { name: '撤销批准' })).toBeVisible();
  // The schedule is described in Chinese too.
  await expect(page.locator('li.job[data-job-id="job-1"] .job-schedule')).toHaveText('每天 08:00 · UTC');
});

test('disable, enable, run now, history with outputs, delete after confirming', async ({ page }) => {
  await boot(page, { settings: withProvider, sessions, jobs: [job()], runs: { 'job-1': [run] } });
  await page.getByRole('button', { name: 'Jobs' }).click();
  const card = page.locator('li.job[data-job-id="job-1"]');
  await card.getByRole('button', { name: 'Disable' }).click();
  await expect(card).toHaveAttribute('data-enabled', 'false');
  await expect(card.locator('.job-next')).toContainText('No upcoming run');
  await card.getByRole('button', { name: 'Enable' }).click();
  await expect(card).toHaveAttribute('data-enabled', 'true');

  await card.getByRole('button', { name: 'History' }).click();
  const runs = card.locator('.run');
  await expect(runs).toHaveCount(1);
  await expect(runs.first()).toContainText('catch-up');
  await expect(runs.first().locator('.run-output')).toHaveText('Headlines: **all quiet**.');
  await card.getByRole('button', { name: 'Run now' }).click();
  await expect(runs).toHaveCount(2);
  await expect(runs.first()).toContainText('run now');
  await expect(runs.first().locator('.run-output')).toHaveText('Manual run of Daily brief: all done.');
  await expect(card.locator('.last-status')).toHaveText('Succeeded');

  await card.getByRole('button', { name: 'Delete' }).click();
  expect(await callsTo(page, 'delete_job')).toEqual([]);
  await card.getByRole('button', { name: 'Delete job' }).click();
  await expect(page.locator('li.job')).toHaveCount(0);
  expect((await callsTo(page, 'delete_job')).map((c) => c.args)).toEqual([{ id: 'job-1' }]);
});

test('stored run failures read in the viewer language; older runs keep their text', async ({ page }) => {
  const typed: RunView = { ...run, id: 9, status: 'failed', output: null, error: 'the run was cancelled (session job:9)', error_code: { code: 'run_cancelled' } };
  const old: RunView = { ...run, id: 8, status: 'failed', output: null, error: 'interrupted: the scheduler stopped during the run', error_code: null };
  await boot(page, { settings: { ...withProvider, language: 'zh-CN' }, sessions, jobs: [job()], runs: { 'job-1': [typed, old] } });
  await page.getByRole('button', { name: '定时任务' }).click();
  const card = page.locator('li.job[data-job-id="job-1"]');
  await card.getByRole('button', { name: '历史' }).click();
  const outputs = card.locator('.run .run-output');
  await expect(outputs).toHaveText(['运行已取消。', 'interrupted: the scheduler stopped during the run']);
});

test('the page follows backend changes and speaks Chinese', async ({ page }) => {
  await boot(page, { settings: { ...withProvider, language: 'zh-CN', jobs_paused: true }, sessions, jobs: [job({ authorization: 'needs_reapproval' })] });
  await page.getByRole('button', { name: '定时任务' }).click();
  await expect(page.locator('.notice-bar')).toContainText('所有任务已暂停');
  const card = page.locator('li.job');
  await expect(card.locator('.auth-badge')).toHaveText('需要重新批准');
  await expect(card.getByRole('button', { name: '重新批准' })).toBeVisible();
  const before = (await callsTo(page, 'list_jobs')).length;
  await emitEvent(page, 'jobs://changed', null);
  await expect.poll(async () => (await callsTo(page, 'list_jobs')).length).toBe(before + 1);
});

test('the approval names the MCP servers whose tools the runs may use; one is added and one removed', async ({ page }) => {
  const server = (name: string) => mcpServer(name, { command: 'npx' });
  await boot(page, {
    settings: { ...withProvider, mcp_servers: [server('github'), server('notes')] },
    sessions,
    jobs: [job({ authorization: 'needs_reapproval', authorized_tools: ['exec', 'write_file', 'mcp__github__*'] })],
  });
  await page.getByRole('button', { name: 'Jobs' }).click();
  const card = page.locator('li.job[data-job-id="job-1"]');
  // Re-approving shows the servers authorized before ticked: swap github for notes.
  await card.getByRole('button', { name: 'Re-approve' }).click();
  const dialog = page.getByRole('dialog');
  const github = dialog.getByRole('checkbox', { name: 'github' });
  const notes = dialog.getByRole('checkbox', { name: 'notes' });
  await expect(github).toBeChecked();
  await expect(notes).not.toBeChecked();
  await expect(dialog.locator('.approve-tools')).toHaveText('exec, write_file, mcp__github__*');
  await notes.check();
  await github.uncheck();
  await expect(dialog.locator('.approve-tools')).toHaveText('exec, write_file, mcp__notes__*');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(card.locator('.auth-badge')).toHaveText('Approved');

  // After a revoke nothing is ticked; github is added.
  await card.getByRole('button', { name: 'Revoke approval' }).click();
  await card.getByRole('button', { name: 'Approve…' }).click();
  await expect(dialog.locator('.approve-tools')).toHaveText('exec, write_file');
  await expect(github).not.toBeChecked();
  await github.check();
  await expect(dialog.locator('.approve-tools')).toHaveText('exec, write_file, mcp__github__*');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(card.locator('.auth-badge')).toHaveText('Approved');
  expect((await callsTo(page, 'approve_job')).map((c) => c.args)).toEqual([
    { id: 'job-1', mcpServers: ['notes'] },
    { id: 'job-1', mcpServers: ['github'] },
  ]);
});
