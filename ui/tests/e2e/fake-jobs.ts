// The Jobs and Memory part of the fake backend: installed after `installFakeBackend`, it wraps
// `__TAURI_INTERNALS__.invoke` to answer the job and memory commands like the job service and
// the memory store would (authorization withdrawn by edits, runs with outputs, search over
// Chinese and English, contradictions), recording calls in the same `window.__hearth.calls`.
// Serialized into the page: it must not use anything from outside its own body.
import type { AuthorizationGrant, JobForm, JobView, Preview, RunView } from '../../src/lib/jobs';
import type { Contradiction, Memory, MemoryForm } from '../../src/lib/memory';
import type { FakeHandlers, FakeTable } from './fake-ipc';

export interface JobsScenario {
  jobs?: JobView[];
  runs?: Record<string, RunView[]>;
  memories?: Memory[];
  contradictions?: Contradiction[];
}

export function installFakeJobs(scenario: JobsScenario): void {
  const w = window as unknown as {
    __TAURI_INTERNALS__: { invoke: (cmd: string, args?: Record<string, unknown>) => Promise<unknown> };
    __hearth: { calls: { cmd: string; args: Record<string, unknown> }[] };
  };
  const original = w.__TAURI_INTERNALS__.invoke;
  const jobs: JobView[] = JSON.parse(JSON.stringify(scenario.jobs ?? []));
  const runs: Record<string, RunView[]> = JSON.parse(JSON.stringify(scenario.runs ?? {}));
  const memories: Memory[] = JSON.parse(JSON.stringify(scenario.memories ?? []));
  const contradictions: Contradiction[] = JSON.parse(JSON.stringify(scenario.contradictions ?? []));
  let nextId = 1000;
  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value));

  /** Daily "M H * * *" cron and "every hour" are understood; runs start on 2030-01-01 (UTC). */
  function preview(schedule: string, tz: string | null): Preview {
    const text = schedule.trim();
    const zone = tz || 'UTC';
    const pad = (n: number) => String(n).padStart(2, '0');
    const daily = /^(\d{1,2}) (\d{1,2}) \* \* \*$/.exec(text);
    if (daily) {
      const [m, h] = [Number(daily[1]), Number(daily[2])];
      if (m < 60 && h < 24) {
        const next_runs = [1, 2, 3, 4, 5].map((d) => `2030-01-${pad(d)}T${pad(h)}:${pad(m)}:00+00:00`);
        return { schedule: { type: 'cron', expr: text }, description: `at ${pad(h)}:${pad(m)} every day`, tz: zone, next_runs };
      }
    }
    if (text === 'every hour' || text === '每小时') {
      const next_runs = [1, 2, 3, 4, 5].map((h) => `2030-01-01T${pad(h)}:00:00+00:00`);
      return { schedule: { type: 'every', every_ms: 3_600_000 }, description: 'every hour', tz: zone, next_runs };
    }
    throw `\`${text}\` is not a schedule I understand`;
  }

  function job(id: string): JobView {
    const found = jobs.find((j) => j.id === id);
    if (!found) throw `no job ${id}`;
    return found;
  }

  function applyForm(target: JobView, form: JobForm): void {
    if (!form.name.trim()) throw '`name` must not be empty';
    if (!form.prompt.trim()) throw '`prompt` must not be empty: each run starts from it alone';
    const p = preview(form.schedule, form.tz);
    const bound = [target.prompt, JSON.stringify(target.schedule), target.tz, target.target].join('|');
    const cron = { type: 'cron' as const, expr: form.schedule.trim() };
    target.name = form.name.trim();
    target.schedule = cron;
    target.schedule_description = p.description;
    target.tz = p.tz;
    target.prompt = form.prompt.trim();
    target.target = form.target;
    target.model = form.model;
    target.notify = form.notify;
    target.next_run = target.enabled ? p.next_runs[0] : null;
    const now = [target.prompt, JSON.stringify(target.schedule), target.tz, target.target].join('|');
    if (target.authorization === 'authorized' && now !== bound) target.authorization = 'needs_reapproval';
  }

  function grant(j: JobView): AuthorizationGrant {
    const frequency = preview(j.schedule.type === 'cron' ? j.schedule.expr : 'every hour', j.tz);
    return { instruction: j.prompt, frequency, delivery_target: j.target, tools: j.authorized_tools.length ? [...j.authorized_tools] : ['exec', 'write_file'], job: copy(j) };
  }

  function memory(id: number): Memory {
    const found = memories.find((m) => m.id === id);
    if (!found) throw `memory ${id} does not exist`;
    return found;
  }

  function ordered(list: Memory[]): Memory[] {
    return [...list].sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.updated_at - a.updated_at);
  }

  function checkForm(form: MemoryForm): void {
    if (!form.content.trim()) throw '`content` must not be empty';
  }

  const handlers: FakeHandlers = {
    list_jobs: () => copy(jobs),
    create_job: (a) => {
      const form = a.form as JobForm;
      if (jobs.some((j) => j.name === form.name.trim())) throw `a job named '${form.name}' already exists`;
      const created: JobView = {
        id: `job-${nextId++}`,
        name: '',
        schedule: { type: 'cron', expr: '' },
        schedule_description: '',
        tz: 'UTC',
        prompt: '',
        target: null,
        model: null,
        enabled: true,
        notify: true,
        authorization: 'not_authorized',
        authorized_tools: [],
        authorized_at: null,
        next_run: null,
        last_run: null,
        last_status: null,
        run_requested: false,
        created_at: '2030-01-01T00:00:00+00:00',
        skill: form.skill ?? null,
      };
      applyForm(created, form);
      jobs.push(created);
      return copy(created);
    },
    update_job: (a) => {
      const j = job(a.id);
      applyForm(j, a.form as JobForm);
      return copy(j);
    },
    set_job_enabled: (a) => {
      const j = job(a.id);
      j.enabled = a.enabled;
      j.next_run = j.enabled ? preview(j.schedule.type === 'cron' ? j.schedule.expr : 'every hour', j.tz).next_runs[0] : null;
      return copy(j);
    },
    delete_job: (a) => {
      jobs.splice(jobs.indexOf(job(a.id)), 1);
      return null;
    },
    run_job_now: (a) => {
      const j = job(a.id);
      const list = (runs[j.id] ??= []);
      list.unshift({
        id: nextId++,
        status: 'ok',
        catch_up: false,
        manual: true,
        authorized: j.authorization === 'authorized',
        scheduled_for: null,
        started_at: '2030-01-01T09:00:00+00:00',
        finished_at: '2030-01-01T09:00:05+00:00',
        output: `Manual run of ${j.name}: all done.`,
        error: null,
        error_code: null,
      });
      j.last_status = 'ok';
      return copy(j);
    },
    job_history: (a) => copy((runs[a.id] ?? []).slice(0, a.limit)),
    preview_schedule: (a) => preview(a.schedule, a.tz),
    job_approval_request: (a) => grant(job(a.id)),
    approve_job: (a) => {
      const j = job(a.id);
      j.authorization = 'authorized';
      j.authorized_tools = ['exec', 'write_file', ...((a.mcpServers as unknown as string[]) ?? []).map((s) => `mcp__${s}__*`)];
      return copy(j);
    },
    revoke_job_approval: (a) => {
      const j = job(a.id);
      j.authorization = 'not_authorized';
      j.authorized_tools = [];
      j.authorized_at = null;
      return copy(j);
    },
    list_memories: (a) => {
      const all = ordered(memories);
      return { memories: copy(all.slice(a.offset, a.offset + a.limit)), total: all.length };
    },
    search_memories: (a) => {
      const q = String(a.query).toLowerCase();
      const hits = ordered(memories.filter((m) => `${m.content} ${m.tags.join(' ')}`.toLowerCase().includes(q)));
      return { memories: copy(hits.slice(0, a.limit)), total: hits.length };
    },
    add_memory: (a) => {
      const form = a.form as MemoryForm;
      checkForm(form);
      const m: Memory = {
        id: nextId++,
        key: null,
        content: form.content.trim(),
        tags: form.tags,
        importance: form.importance,
        pinned: false,
        source: 'user_stated',
        target: 'user',
        category: 'general',
        pending: false,
        created_at: Date.now(),
        updated_at: Date.now(),
      };
      memories.push(m);
      return copy(m);
    },
    update_memory: (a) => {
      const form = a.form as MemoryForm;
      checkForm(form);
      const m = memory(a.id);
      Object.assign(m, { content: form.content.trim(), tags: form.tags, importance: form.importance, updated_at: Date.now() });
      return copy(m);
    },
    set_memory_pinned: (a) => {
      const m = memory(a.id);
      m.pinned = a.pinned;
      return copy(m);
    },
    delete_memory: (a) => {
      memories.splice(memories.indexOf(memory(a.id)), 1);
      return null;
    },
    list_contradictions: () => copy(contradictions.filter((c) => c.status === 'open')),
    resolve_contradiction: (a) => {
      const c = contradictions.find((x) => x.id === a.id);
      if (!c) throw `no contradiction ${a.id}`;
      if (c.status !== 'open') throw `contradiction ${a.id} is already resolved`;
      if (a.winnerId !== c.memory_a && a.winnerId !== c.memory_b) throw `memory ${a.winnerId} is not a side of contradiction ${a.id}`;
      const loser = a.winnerId === c.memory_a ? c.memory_b : c.memory_a;
      const i = memories.findIndex((m) => m.id === loser);
      if (i >= 0) memories.splice(i, 1);
      c.status = 'resolved';
      c.winner_id = a.winnerId;
      const winner = memory(a.winnerId);
      winner.pending = false;
      return copy(winner);
    },
  };

  w.__TAURI_INTERNALS__.invoke = async (cmd: string, args: Record<string, unknown> = {}) => {
    const handler = (handlers as unknown as FakeTable)[cmd];
    if (!handler) return original(cmd, args);
    w.__hearth.calls.push({ cmd, args });
    return handler(args);
  };
}
