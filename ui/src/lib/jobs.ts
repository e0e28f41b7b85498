// The small pieces of logic the Jobs page needs; the job service's types are generated
// (`ui/src/lib/bindings/`, from hearth-scheduler and the job commands).

import type { JobForm } from './bindings/JobForm';
import type { JobView } from './bindings/JobView';
import type { Schedule } from './bindings/Schedule';

export type { AuthorizationGrant } from './bindings/AuthorizationGrant';
export type { AuthorizationState } from './bindings/AuthorizationState';
export type { Preview } from './bindings/Preview';
export type { RunStatus } from './bindings/RunStatus';
export type { RunView } from './bindings/RunView';
export type { JobForm, JobView, Schedule };

/** The text to put back in the schedule field when editing: the cron expression, else JSON. */
export function scheduleText(schedule: Schedule): string {
  if (schedule.type === 'cron') return schedule.expr;
  return JSON.stringify(schedule);
}

/** The form for an existing job. */
export function formOf(job: JobView): JobForm {
  return {
    name: job.name,
    schedule: scheduleText(job.schedule),
    tz: job.tz,
    prompt: job.prompt,
    target: job.target,
    model: job.model,
    notify: job.notify,
  };
}

/**
 * An RFC 3339 time with offset (`2025-06-02T08:00:00+02:00`) as the wall-clock time it names in
 * the job's zone (`2025-06-02 08:00`), plus the offset; anything else is returned as it is.
 */
export function wallClock(rfc3339: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.exec(rfc3339);
  if (!m) return rfc3339;
  const offset = m[3] === 'Z' ? '+00:00' : m[3];
  return `${m[1]} ${m[2]} (UTC${offset})`;
}
