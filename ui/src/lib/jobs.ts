// Scheduled jobs as the backend's job service shows them (hand-written until the scheduler's
// views are exported through ts-rs; keep the field names identical to the serialized structs),
// and the small pieces of logic the Jobs page needs.

import type { AppError } from './bindings/AppError';

export type AuthorizationState = 'not_authorized' | 'authorized' | 'needs_reapproval';
export type RunStatus = 'running' | 'ok' | 'failed' | 'skipped_overlap';

export interface JobView {
  id: string;
  name: string;
  schedule: ScheduleJson;
  schedule_description: string;
  tz: string;
  prompt: string;
  target: string | null;
  model: string | null;
  enabled: boolean;
  notify: boolean;
  authorization: AuthorizationState;
  authorized_tools: string[];
  authorized_at: string | null;
  /** RFC 3339 in the job's zone, with its offset. */
  next_run: string | null;
  last_run: string | null;
  last_status: RunStatus | null;
  run_requested: boolean;
  created_at: string | null;
  /** The skill whose runs the job's runs are (absent from older backends). */
  skill?: string | null;
}

export type ScheduleJson =
  | { type: 'at'; at: number }
  | { type: 'every'; every_ms: number }
  | { type: 'cron'; expr: string; tz?: string };

export interface RunView {
  id: number;
  status: RunStatus;
  catch_up: boolean;
  manual: boolean;
  authorized: boolean;
  scheduled_for: string | null;
  started_at: string | null;
  finished_at: string | null;
  output: string | null;
  error: string | null;
  /** The typed form of `error`, shown in the UI's language (absent on older runs). */
  error_code: AppError | null;
}

export interface Preview {
  /** The parsed schedule, described in the UI's language where `scheduleText` can. */
  schedule: ScheduleJson;
  description: string;
  tz: string;
  next_runs: string[];
}

export interface AuthorizationGrant {
  instruction: string;
  frequency: Preview;
  delivery_target: string | null;
  tools: string[];
  job: JobView;
}

/** What the create/edit form sends. */
export interface JobForm {
  name: string;
  schedule: string;
  tz: string | null;
  prompt: string;
  target: string | null;
  model: string | null;
  notify: boolean;
  /** A job bound to a skill (the Skills page's "Schedule…"). */
  skill?: string | null;
}

/** The text to put back in the schedule field when editing: the cron expression, else JSON. */
export function scheduleText(schedule: ScheduleJson): string {
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
