import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../i18n/index.svelte';
import { OUTPUT_COLLAPSED_LINES, outputLines, runOutcome, type CommandRunView } from './commandRun';

function run(fields: Partial<CommandRunView>): CommandRunView {
  return { kind: 'command_run', command: 'make', skill: null, exit_code: 0, signal: null, timed_out: false, duration_ms: 1234, stdout: '', stderr: '', truncated: false, ...fields };
}

describe('command runs', () => {
  afterEach(() => setLanguage('en'));

  it('says how a run ended, in both languages, and only exit code 0 is a success', () => {
    expect(runOutcome(run({}))).toEqual({ text: 'exit code 0', ok: true });
    expect(runOutcome(run({ exit_code: 2 }))).toEqual({ text: 'exit code 2', ok: false });
    expect(runOutcome(run({ exit_code: null, timed_out: true, signal: 9 }))).toEqual({ text: 'stopped: over the time limit (1.2 s)', ok: false });
    expect(runOutcome(run({ exit_code: null, signal: 15 }))).toEqual({ text: 'ended by signal 15', ok: false });
    expect(runOutcome(run({ exit_code: null }))).toEqual({ text: 'ended without an exit code', ok: false });
    setLanguage('zh-CN');
    expect(runOutcome(run({ exit_code: 127 })).text).toBe('退出码 127');
    expect(runOutcome(run({ timed_out: true })).text).toBe('已停止：超过时间限制（1.2 秒）');
  });

  it('counts a stream’s lines and shows the first ones while collapsed', () => {
    expect(outputLines('', false)).toEqual({ shown: '', total: 0 });
    expect(outputLines('one\ntwo\n', false)).toEqual({ shown: 'one\ntwo', total: 2 });
    const long = Array.from({ length: OUTPUT_COLLAPSED_LINES + 5 }, (_, i) => `line ${i}`).join('\n');
    const collapsed = outputLines(long, false);
    expect(collapsed.total).toBe(OUTPUT_COLLAPSED_LINES + 5);
    expect(collapsed.shown.split('\n')).toHaveLength(OUTPUT_COLLAPSED_LINES);
    expect(outputLines(long, true).shown).toBe(long);
  });
});
