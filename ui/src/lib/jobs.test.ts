import { describe, expect, it } from 'vitest';
import { formOf, scheduleText, wallClock, type JobView } from './jobs';

describe('scheduleText', () => {
  it('gives back a cron expression as typed and other schedules as JSON', () => {
    expect(scheduleText({ type: 'cron', expr: '30 9 * * 1-5' })).toBe('30 9 * * 1-5');
    expect(scheduleText({ type: 'every', every_ms: 3600000 })).toBe('{"type":"every","every_ms":3600000}');
    expect(scheduleText({ type: 'at', at: 1 })).toBe('{"type":"at","at":1}');
  });
});

describe('formOf', () => {
  it('carries every editable field of a job', () => {
    const job = {
      name: 'Brief',
      schedule: { type: 'cron', expr: '0 8 * * *' },
      tz: 'Asia/Shanghai',
      prompt: 'Summarise',
      target: 'desktop:x',
      model: null,
      notify: false,
    } as unknown as JobView;
    expect(formOf(job)).toEqual({
      name: 'Brief',
      schedule: '0 8 * * *',
      tz: 'Asia/Shanghai',
      prompt: 'Summarise',
      target: 'desktop:x',
      model: null,
      notify: false,
    });
  });
});

describe('wallClock', () => {
  it('shows the time in the job zone with its offset, whatever the machine zone', () => {
    expect(wallClock('2025-03-30T03:00:00+02:00')).toBe('2025-03-30 03:00 (UTC+02:00)');
    expect(wallClock('2025-06-02T08:00:00Z')).toBe('2025-06-02 08:00 (UTC+00:00)');
    expect(wallClock('2025-10-05T02:30:00.000+10:30')).toBe('2025-10-05 02:30 (UTC+10:30)');
  });

  it('returns text it does not recognise unchanged', () => {
    expect(wallClock('tomorrow')).toBe('tomorrow');
    expect(wallClock('')).toBe('');
  });
});
