import { describe, expect, it } from 'vitest';
import { setLanguage } from './i18n/index.svelte';
import { chineseCron, chineseSchedule, scheduleText } from './schedule';

const time = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

describe('schedules in Chinese', () => {
  it('writes fixed-time cron expressions', () => {
    expect(chineseCron('30 9 * * 1-5')).toBe('工作日 09:30');
    expect(chineseCron('0 8 * * *')).toBe('每天 08:00');
    expect(chineseCron('0 10 * * 0,6')).toBe('周末 10:00');
    expect(chineseCron('0 10 * * 6,7')).toBe('周末 10:00');
    expect(chineseCron('15 7 * * 1,3')).toBe('每周一、周三 07:15');
    expect(chineseCron('0 8 1 * *')).toBe('每月 1 日 08:00');
    expect(chineseCron('0 8 1 3 *')).toBe('3 月 1 日 08:00');
  });

  it('leaves other forms alone', () => {
    expect(chineseCron('0 9 L * *')).toBeNull();
    expect(chineseCron('30 0 8 * * *')).toBeNull();
    expect(chineseCron('0 8 1 * 1')).toBeNull();
  });

  it('writes intervals and one-off times', () => {
    expect(chineseSchedule({ type: 'every', every_ms: 3_600_000 }, time)).toBe('每小时');
    expect(chineseSchedule({ type: 'every', every_ms: 7_200_000 }, time)).toBe('每 2 小时');
    expect(chineseSchedule({ type: 'every', every_ms: 90_500 }, time)).toBeNull();
    expect(chineseSchedule({ type: 'at', at: Date.UTC(2030, 0, 1, 8, 0) }, time)).toBe('一次，于 2030-01-01 08:00');
    expect(chineseSchedule({ type: 'cron', expr: '30 9 * * 1-5' }, time)).toBe('工作日 09:30');
  });
});

describe('the cron forms people write, in Chinese', () => {
  it('words minutes, hours and hour ranges', () => {
    expect(chineseCron('* * * * *')).toBe('每分钟');
    expect(chineseCron('*/15 * * * *')).toBe('每 15 分钟');
    expect(chineseCron('0 * * * *')).toBe('每小时整点');
    expect(chineseCron('5 */2 * * *')).toBe('每 2 小时第 5 分');
    expect(chineseCron('0 9-17 * * *')).toBe('每天 9–17 点整');
    expect(chineseCron('30 8,12,18 * * 1-5')).toBe('工作日 8、12、18 点 30 分');
    expect(chineseCron('*/10 9-17 * * 1-5')).toBe('工作日 9–17 点内每 10 分钟');
    expect(chineseCron('* * * * 0,6')).toBe('周末每分钟');
    expect(chineseCron('0 0 8 * * *')).toBe('每天 08:00');
  });

  it('shows a rarer expression as written, in Chinese words', () => {
    setLanguage('zh-CN');
    const job = { schedule: { type: 'cron' as const, expr: '0 9 L * *' }, schedule_description: 'At 09:00, on the last day of the month.' };
    expect(scheduleText(job, 'zh-CN', time)).toBe('按计划表达式 0 9 L * *');
    expect(scheduleText(job, 'en', time)).toBe('At 09:00, on the last day of the month.');
    setLanguage('en');
  });
});
