// The cards of commands and skill scripts: what ran (and the skill), how it ended, its output
// and errors, long output collapsed, markup shown as text, in both languages.
import type { Page } from '@playwright/test';
import type { ToolView } from '../../src/lib/bindings/ToolView';
import type { Step } from './fake-backend';
import { expect, runScriptedTurn, test } from './fixtures';

function run(fields: Partial<Extract<ToolView, { kind: 'command_run' }>>): ToolView {
  return { kind: 'command_run', command: 'make', skill: null, exit_code: 0, signal: null, timed_out: false, duration_ms: 850, stdout: '', stderr: '', truncated: false, ...fields };
}

function tool(name: string, args: unknown, view: ToolView): Step {
  return { tool: { name, arguments: JSON.stringify(args), result: JSON.stringify({ exit_code: 0 }), views: [view] } };
}

const longOutput = Array.from({ length: 45 }, (_, i) => `page ${i + 1} converted`).join('\n') + '\n';

const turn: Step[] = [
  tool(
    'skill_run',
    { name: 'pdf-tools', script: 'scripts/convert.py', args: ['--out', 'a b.txt'] },
    run({ command: "scripts/convert.py --out 'a b.txt'", skill: 'pdf-tools', stdout: longOutput, stderr: 'warning: 1 font substituted\n' }),
  ),
  tool('exec', { command: 'grep -r TODO src <b>x</b>' }, run({ command: 'grep -r TODO src <b>x</b>', exit_code: 2, stderr: "grep: src: <i>No such file</i>\n" })),
  tool('exec', { command: 'sleep 999' }, run({ command: 'sleep 999', exit_code: null, timed_out: true, duration_ms: 30_000, truncated: true })),
  { text: 'done' },
];

function runTurn(page: Page, language: 'en' | 'zh-CN') {
  return runScriptedTurn(page, turn, { language }, 'convert the manual');
}

test('a skill script and commands show what ran, how each ended and their output', async ({ page }) => {
  await runTurn(page, 'en');
  const runs = page.locator('.command-run');
  await expect(runs).toHaveCount(3);

  const script = runs.nth(0);
  await expect(script.locator('.file-view-head')).toContainText('Skill pdf-tools');
  await expect(script.locator('.command-line')).toHaveText("scripts/convert.py --out 'a b.txt'");
  await expect(script.locator('.command-outcome')).toHaveText('exit code 0');
  await expect(script).toHaveAttribute('data-ok', 'true');
  const output = script.locator('[data-stream="stdout"] .command-output');
  await expect(output).toContainText('page 20 converted');
  await expect(output).not.toContainText('page 21 converted');
  await expect(script.locator('[data-stream="stderr"] .command-output')).toHaveText('warning: 1 font substituted');
  // The list may still settle after the turn, moving the button under the pointer: click until
  // the output shows whole.
  await expect(async () => {
    const more = script.getByRole('button', { name: 'Show all 45 lines' });
    if (await more.count()) await more.click();
    await expect(output).toContainText('page 45 converted', { timeout: 1_000 });
  }).toPass();
  await script.getByRole('button', { name: 'Show less' }).click();
  await expect(output).not.toContainText('page 45 converted');

  const failed = runs.nth(1);
  await expect(failed.locator('.command-outcome')).toHaveText('exit code 2');
  await expect(failed).toHaveAttribute('data-ok', 'false');
  await expect(failed.locator('.command-line')).toHaveText('grep -r TODO src <b>x</b>');
  await expect(failed.locator('b, i')).toHaveCount(0);
  await expect(failed.locator('[data-stream="stdout"]')).toHaveCount(0);

  const stopped = runs.nth(2);
  await expect(stopped.locator('.command-outcome')).toHaveText('stopped: over the time limit (30 s)');
  await expect(stopped).toContainText('No output.');
  await expect(stopped).toContainText('the start and end of each stream are shown');
});

test('the run cards in Chinese', async ({ page }) => {
  await runTurn(page, 'zh-CN');
  const runs = page.locator('.command-run');
  await expect(runs.nth(0).locator('.file-view-head')).toContainText('技能 pdf-tools');
  await expect(runs.nth(0).locator('[data-stream="stderr"] .command-stream-name')).toHaveText('错误输出');
  await expect(runs.nth(0).getByRole('button', { name: '显示全部 45 行' })).toBeVisible();
  await expect(runs.nth(1).locator('.command-outcome')).toHaveText('退出码 2');
  await expect(runs.nth(2).locator('.command-outcome')).toHaveText('已停止：超过时间限制（30 秒）');
  await expect(runs.nth(2)).toContainText('没有输出。');
});
