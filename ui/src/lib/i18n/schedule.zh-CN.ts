// Simplified Chinese words for a schedule the Chinese wording does not cover.
import type { scheduleEn } from './schedule.en';

export const scheduleZhCN: Record<keyof typeof scheduleEn, string> = {
  'schedule.cron': '按计划表达式 {expr}',
  'schedule.every': '每 {ms} 毫秒',
};
