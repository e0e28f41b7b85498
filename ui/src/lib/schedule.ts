// A job's schedule in the UI language: the backend describes it in English; in Chinese it is
// written here from the stored form (every N units, once at a time, and the cron forms people
// write: every minute or N minutes, hourly, fixed times on days of the week or the month, hour
// ranges), and a rarer cron expression is shown as written, never in English words.
import { num, t } from './i18n/index.svelte';
import type { Schedule } from './bindings/Schedule';

const WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
const UNITS: [number, string][] = [
  [86_400_000, '天'],
  [3_600_000, '小时'],
  [60_000, '分钟'],
  [1_000, '秒'],
];

/** `schedule` as a Chinese phrase, or null when it is not one of the forms written here. */
export function chineseSchedule(schedule: Schedule, formatTime: (ms: number) => string): string | null {
  if (schedule.type === 'at') return `一次，于 ${formatTime(schedule.at)}`;
  if (schedule.type === 'every') {
    for (const [size, unit] of UNITS) {
      if (schedule.every_ms % size === 0) {
        const n = schedule.every_ms / size;
        return n === 1 ? `每${unit}` : `每 ${n} ${unit}`;
      }
    }
    return null;
  }
  return chineseCron(schedule.expr);
}

/** A cron expression in Chinese, or null when it is not one of the forms written here:
 * `30 9 * * 1-5` → `工作日 09:30`, `* * * * *` → `每分钟`, `0 9-17 * * *` → `每天 9–17 点整`. Six
 * fields (seconds first) are read when the seconds are 0. */
export function chineseCron(expr: string): string | null {
  let fields = expr.trim().split(/\s+/);
  if (fields.length === 6 && fields[0] === '0') fields = fields.slice(1);
  if (fields.length !== 5) return null;
  const [minute, hour, dom, month, dow] = fields;
  const time = timePhrase(minute, hour);
  const days = weekdays(dow);
  if (time === null || days === null) return null;
  if (month !== '*' && !/^\d{1,2}$/.test(month)) return null;
  const months = month === '*' ? '' : `${Number(month)} 月 `;
  const at = time.fixed ? ` ${time.text}` : time.text;
  if (dom !== '*') {
    if (!/^\d{1,2}$/.test(dom) || days.length > 0) return null;
    return `${months || '每月 '}${Number(dom)} 日${time.fixed ? ' ' : ''}${time.text}`;
  }
  if (days.length === 0) return months || time.fixed ? `${months}每天${at}` : time.text;
  return `${months}${dayPhrase(days)}${at}`;
}

const NUMBER = /^\d{1,2}$/;

/** The time of day part of a cron expression; `fixed` when it is one time of day. */
function timePhrase(minute: string, hour: string): { text: string; fixed: boolean } | null {
  const step = (field: string) => field.match(/^\*\/(\d{1,2})$/)?.[1];
  const minutes = minute === '*' ? '每分钟' : step(minute) ? `每 ${Number(step(minute))} 分钟` : null;
  if (NUMBER.test(minute)) {
    const m = Number(minute);
    if (NUMBER.test(hour)) return { text: `${hour.padStart(2, '0')}:${minute.padStart(2, '0')}`, fixed: true };
    const past = m === 0 ? '整点' : `第 ${m} 分`;
    if (hour === '*') return { text: `每小时${past}`, fixed: false };
    if (step(hour)) return { text: `每 ${Number(step(hour))} 小时${past}`, fixed: false };
    const hours = hourList(hour);
    return hours === null ? null : { text: m === 0 ? `${hours} 点整` : `${hours} 点 ${m} 分`, fixed: true };
  }
  if (minutes === null) return null;
  if (hour === '*') return { text: minutes, fixed: false };
  const hours = hourList(hour);
  return hours === null ? null : { text: `${hours} 点内${minutes}`, fixed: true };
}

/** A list or range of hours: `9-17` → `9–17`, `8,12,18` → `8、12、18`. */
function hourList(field: string): string | null {
  const parts = field.split(',').map((part) => part.match(/^(\d{1,2})(?:-(\d{1,2}))?$/));
  if (parts.some((p) => p === null)) return null;
  return parts.map((p) => (p![2] === undefined ? `${Number(p![1])}` : `${Number(p![1])}–${Number(p![2])}`)).join('、');
}

/** The days of week of a cron field (0–7, Sunday twice), sorted; [] for `*`; null otherwise. */
function weekdays(field: string): number[] | null {
  if (field === '*' || field === '?') return [];
  const days = new Set<number>();
  for (const part of field.split(',')) {
    const range = part.match(/^(\d)(?:-(\d))?$/);
    if (!range) return null;
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (from > 7 || to > 7 || to < from) return null;
    for (let d = from; d <= to; d++) days.add(d % 7);
  }
  return [...days].sort((a, b) => a - b);
}

function dayPhrase(days: number[]): string {
  const key = days.join(',');
  if (key === '1,2,3,4,5') return '工作日';
  if (key === '0,6') return '周末';
  if (days.length === 7) return '每天';
  return `每${days.map((d) => WEEKDAYS[d]).join('、')}`;
}

/** What a job card shows for `job`'s schedule in `lang`. */
export function scheduleText(
  job: { schedule: Schedule; schedule_description: string },
  lang: string,
  formatTime: (ms: number) => string,
): string {
  if (lang !== 'zh-CN') return job.schedule_description;
  return chineseSchedule(job.schedule, formatTime) ?? (job.schedule.type === 'cron' ? t('schedule.cron', { expr: job.schedule.expr }) : t('schedule.every', { ms: num((job.schedule as { every_ms: number }).every_ms) }));
}
