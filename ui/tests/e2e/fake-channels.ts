// The channel commands and the background-task list for the fake backend: channel statuses
// worked out like the app's (a Telegram bot without a token is not usable), tokens kept in a
// fake keychain, test messages answered from the scenario (delivered by default), and the
// stored background sub-agents. Installed after `installFakeBackend`, it wraps
// `__TAURI_INTERNALS__.invoke` and records calls in `window.__hearth.calls`. Serialized into
// the page: it must not use anything from outside its own body.
import type { AppError } from '../../src/lib/bindings/AppError';
import type { ChannelStatus } from '../../src/lib/bindings/ChannelStatus';
import type { KeyStatus } from '../../src/lib/bindings/KeyStatus';
import type { Settings } from '../../src/lib/bindings/Settings';
import type { SubAgentRun } from '../../src/lib/bindings/SubAgentRun';
import type { FakeEmit, FakeHandlers, FakeTable } from './fake-ipc';

export interface ChannelsScenario {
  /** Channel tokens already in the keychain, by channel name. */
  channelTokens?: Record<string, string>;
  /** What `test_channel` fails with, by channel name (others are delivered). */
  testFailures?: Record<string, AppError>;
  /** What `list_background_tasks` answers. */
  backgroundTasks?: SubAgentRun[];
}

export function installFakeChannels(scenario: ChannelsScenario): void {
  const w = window as unknown as {
    __TAURI_INTERNALS__: { invoke: (cmd: string, args?: Record<string, unknown>) => Promise<unknown> };
    __hearth: { calls: { cmd: string; args: Record<string, unknown> }[]; settings: Settings; emit: FakeEmit };
  };
  const original = w.__TAURI_INTERNALS__.invoke;
  const tokens: Record<string, string> = { ...(scenario.channelTokens ?? {}) };
  let sent = 0;

  function channel(name: string) {
    const found = w.__hearth.settings.channels.find((c) => c.name === name);
    if (!found) throw { code: 'bad_channel', params: { name, reason: 'no such channel is saved' } } satisfies AppError;
    return found;
  }

  function tokenStatus(name: string): KeyStatus {
    const token = tokens[name];
    return { provider_id: name, stored: token !== undefined, masked: token === undefined ? null : `••••${token.slice(-4)}`, keychain_unavailable: false };
  }

  function statuses(): ChannelStatus[] {
    return w.__hearth.settings.channels.map((c) => {
      const tokenless = c.kind === 'telegram' && !tokens[c.name] && !c.token_env;
      const problem = !c.enabled
        ? 'turned off'
        : tokenless
          ? `Telegram channel \`${c.name}\` has no bot token`
          : undefined;
      return { name: c.name, ready: problem === undefined, problem, polling: problem === undefined && c.inbound };
    });
  }

  const handlers: FakeHandlers = {
    channel_statuses: () => statuses(),
    channel_token_status: (a) => {
      channel(a.name);
      return tokenStatus(a.name);
    },
    set_channel_token: (a) => {
      channel(a.name);
      tokens[a.name] = a.token;
      w.__hearth.emit('channels://changed', null);
      return tokenStatus(a.name);
    },
    delete_channel_token: (a) => {
      delete tokens[a.name];
      w.__hearth.emit('channels://changed', null);
      return null;
    },
    test_channel: (a) => {
      const c = channel(a.name);
      const failure = scenario.testFailures?.[a.name];
      if (failure) throw failure;
      const status = statuses().find((s) => s.name === a.name);
      if (!status?.ready) throw { code: 'bad_channel', params: { name: a.name, reason: `it could not be used: ${status?.problem}` } } satisfies AppError;
      const chat = c.kind === 'webhook' ? 'test' : c.allowed_chats?.[0]?.id;
      if (!chat) throw { code: 'bad_channel', params: { name: a.name, reason: 'no allowed chat to send a test to' } } satisfies AppError;
      sent += 1;
      return { target: `${a.name}:${chat}`, message_ids: [String(sent)] };
    },
    list_background_tasks: () => scenario.backgroundTasks ?? [],
  };

  w.__TAURI_INTERNALS__.invoke = async (cmd: string, args: Record<string, unknown> = {}) => {
    const handler = (handlers as unknown as FakeTable)[cmd];
    if (!handler) return original(cmd, args);
    w.__hearth.calls.push({ cmd, args });
    return handler(args);
  };
}
