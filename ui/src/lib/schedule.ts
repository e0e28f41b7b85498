// A job's schedule in the UI language: the backend describes it in English; in Chinese the usual
// forms (every N units, a fixed time on days of the week or the month, once at a time) are
// written here, and anything else keeps the backend's description.
import type { ScheduleJson } from './jobs';

const WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
const UNITS: [number, string][] = [
  [86_400_000, '天'],
  [3_600_000, '小时'],
  [60_000, '分钟'],
  [1_000, '秒'],
];

/** `schedule` as a Chinese phrase, or null when it is not one of the forms written here. */
export function chineseSchedule(schedule: ScheduleJson, formatTime: (ms: number) => string): string | null {
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

/** Five-field cron with a fixed minute and hour: `30 9 * * 1-5` → `工作日 09:30`. */
export function chineseCron(expr: string): string | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [minute, hour, dom, month, dow] = fields;
  if (!/^\d{1,2}$/.test(minute) || !/^\d{1,2}$/.test(hour)) return null;
  const time = `${hour.padStart(2, '0')}:${minute.padStart(2, '0')}`;
  const days = weekdays(dow);
  if (days === null) return null;
  if (month !== '*' && !/^\d{1,2}$/.test(month)) return null;
  const months = month === '*' ? '' : `${Number(month)} 月 `;
  if (dom !== '*') {
    if (!/^\d{1,2}$/.test(dom) || days.length > 0) return null;
    return `${months || '每月 '}${Number(dom)} 日 ${time}`;
  }
  return `${months}${days.length === 0 ? '每天' : dayPhrase(days)} ${time}`;
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
  job: { schedule: ScheduleJson; schedule_description: string },
  lang: string,
  formatTime: (ms: number) => string,
): string {
  return (lang === 'zh-CN' ? chineseSchedule(job.schedule, formatTime) : null) ?? job.schedule_description;
}
