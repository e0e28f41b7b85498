// English words for a schedule the Chinese wording does not cover (English uses the engine's).
export const scheduleEn = {
  'schedule.cron': 'cron {expr}',
  'schedule.every': 'every {ms} ms',
} as const;
