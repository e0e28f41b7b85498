// Shared end-to-end setup: boots the built app against the fake backend and fails a test on any
// page error or CSP violation.
import { test as base, expect, type Page } from '@playwright/test';
import type { Message } from '../../src/lib/bindings/Message';
import type { ProviderEntry } from '../../src/lib/bindings/ProviderEntry';
import type { Session } from '../../src/lib/bindings/Session';
import type { AppEvent, Events } from '../../src/lib/events';
import type { Memory } from '../../src/lib/memory';
import { installFakeBackend, type Call, type Scenario, type Step } from './fake-backend';
import { installFakeTurns } from './fake-turns';
import { installFakeDesktop, type DesktopScenario } from './fake-desktop';
import { installFakeDocuments, type DocumentsScenario } from './fake-documents';
import { installFakeJobs, type JobsScenario } from './fake-jobs';
import { installFakeSkills, type SkillsScenario } from './fake-skills';
import { installFakeMcp, type McpScenario } from './fake-mcp';
import { installFakeChannels, type ChannelsScenario } from './fake-channels';
import { installFakeModels, type ModelsScenario } from './fake-models';

export const provider: ProviderEntry = {
  id: 'local',
  name: 'Local',
  kind: 'openai',
  base_url: 'http://127.0.0.1:9',
  default_model: 'fake-model',
};

/** Settings with one provider configured, so chats are available. */
export const withProvider = { providers: [provider], default_provider: 'local', default_model: 'fake-model' };

export function session(id: string, title: string, extra: Partial<Session> = {}): Session {
  return {
    id,
    title,
    model: null,
    workspace: null,
    tool_profile: 'coding',
    pinned: false,
    message_count: 0,
    created_at: 1,
    updated_at: 1,
    ...extra,
  };
}

export function textMessage(id: number, sessionId: string, role: 'user' | 'assistant', text: string): Message {
  return {
    id,
    session_id: sessionId,
    role,
    kind: 'normal',
    content: [{ type: 'text', text }],
    tool_calls: [],
    tool_result: null,
    status: 'complete',
    model: role === 'assistant' ? 'fake-model' : null,
    usage: role === 'assistant' ? { input_tokens: 5, output_tokens: 3 } : null,
    error: null,
    error_code: null,
    summary_through: null,
    created_at: id,
    updated_at: id,
  };
}

/** A stored memory, created and updated at `id` (ms) unless `extra` says otherwise. */
export function memory(id: number, content: string, extra: Partial<Memory> = {}): Memory {
  return {
    id,
    key: null,
    content,
    tags: [],
    importance: 0.5,
    pinned: false,
    source: 'user_stated',
    target: 'user',
    category: 'general',
    pending: false,
    created_at: id,
    updated_at: id,
    ...extra,
  };
}

export async function boot(
  page: Page,
  scenario: Scenario & DesktopScenario & JobsScenario & SkillsScenario & McpScenario & ChannelsScenario & DocumentsScenario & ModelsScenario,
  /** `hold`: commands whose answers wait for `window.__hearth.release()`. */
  { hold = [] }: { hold?: string[] } = {},
): Promise<void> {
  await page.addInitScript(installFakeBackend, scenario);
  await page.addInitScript(installFakeTurns, scenario);
  await page.addInitScript(installFakeDesktop, scenario);
  await page.addInitScript(installFakeJobs, scenario);
  await page.addInitScript(installFakeSkills, scenario);
  await page.addInitScript(installFakeMcp, scenario);
  await page.addInitScript(installFakeChannels, scenario);
  await page.addInitScript(installFakeDocuments, scenario);
  await page.addInitScript(installFakeModels, scenario);
  if (hold.length) await holdCalls(page, hold);
  await page.goto('/');
  await expect(page.locator('.app[data-ready="true"]')).toBeVisible();
}

/** Boots with `settings` (a provider configured), sends `text` in a new chat, the backend
 * answering with `script`, and waits until the turn ended. */
export async function runScriptedTurn(page: Page, script: Step[], settings: object = {}, text = 'go'): Promise<void> {
  await boot(page, { settings: { ...withProvider, ...settings }, script });
  await page.getByRole('button', { name: /New chat|新对话/ }).first().click();
  const input = page.getByRole('textbox').last();
  await input.fill(text);
  await input.press('Enter');
  await expect(page.getByRole('button', { name: /^(Send|发送)$/ })).toBeVisible();
}

/** Makes the fake backend hold its answers to `cmds` (a slow keychain or server) until the page
 * calls `window.__hearth.release()`. */
async function holdCalls(page: Page, cmds: string[]): Promise<void> {
  await page.addInitScript((held: string[]) => {
    const w = window as unknown as {
      __TAURI_INTERNALS__?: { invoke: (cmd: string, args?: Record<string, unknown>) => Promise<unknown> };
      __hearth?: { release?: () => void };
    };
    // Wraps the fakes: this script is added after them.
    const gates: (() => void)[] = [];
    let open = false;
    const internals = w.__TAURI_INTERNALS__;
    if (!internals || !w.__hearth) throw new Error('holdCalls: the fake backend is not installed');
    const inner = internals.invoke;
    internals.invoke = async (cmd, args) => {
      if (held.includes(cmd) && !open) await new Promise<void>((resolve) => gates.push(resolve));
      return inner(cmd, args);
    };
    w.__hearth.release = () => {
      open = true;
      for (const go of gates.splice(0)) go();
    };
  }, cmds);
}

/** The calls the app made to `cmd`, in order. */
export async function callsTo(page: Page, cmd: string): Promise<Call[]> {
  return page.evaluate((c) => {
    const all = (window as unknown as { __hearth: { calls: Call[] } }).__hearth.calls;
    return all.filter((x) => x.cmd === c).map((x) => ({ cmd: x.cmd, args: JSON.parse(JSON.stringify(x.args)) }));
  }, cmd);
}

/** Sends the page `event` with `payload` as the backend would (typed by the generated table). */
export async function emitEvent<E extends AppEvent>(page: Page, event: E, payload: Events[E]): Promise<void> {
  await page.evaluate(
    ([e, p]) => (window as unknown as { __hearth: { emit(e: string, p: unknown): void } }).__hearth.emit(e, p),
    [event, payload as unknown] as const,
  );
}

export interface Problems {
  /** Accept console messages matching `pattern` in this test (e.g. CSP reports it provokes). */
  allow(pattern: RegExp): void;
}

export const test = base.extend<{ problems: Problems }>({
  problems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      const allowed: RegExp[] = [];
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        const text = m.text();
        if (allowed.some((re) => re.test(text))) return;
        if (m.type() === 'error' || /Content Security Policy/i.test(text)) problems.push(`console: ${text}`);
      });
      await use({ allow: (pattern) => void allowed.push(pattern) });
      expect(problems, 'page errors or CSP violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
