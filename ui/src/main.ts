// Entry point: mounts the app (or, when Hearth could not start, the start-up error screen), loads
// settings and sessions, and tells the backend once the first screen is on display (start-up measurement).
import { listen } from '@tauri-apps/api/event';
import { mount, tick } from 'svelte';
import App from './App.svelte';
import StartupProblem from './features/startup/StartupProblem.svelte';
import './app.css';
import { api } from './lib/api';
import type { SubAgentProgress } from './lib/bindings/SubAgentProgress';
import { applyEvent } from './lib/chat/reducer';
import { setLanguage } from './lib/i18n/index.svelte';
import { app } from './lib/state/app.svelte';
import { backgroundTasks } from './lib/state/background.svelte';
import { chats } from './lib/state/chats.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('missing #app element');

if (location.hash === '#startup-problem') {
  // Hearth could not load its settings: only the error screen runs, in the system's language.
  setLanguage(navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en');
  mount(StartupProblem, { target });
} else {
  start(target);
}

function start(target: HTMLElement): void {
  mount(App, { target });

  window.addEventListener('pagehide', () => app.flushDeletes());

  // The tray menu's "New chat" (the backend has already shown the window).
  listen('tray://new-chat', () => void app.newChat()).catch(() => {
    // Outside the desktop shell (a plain browser): there is no tray.
  });

  // A clicked notification about a chat (the backend has already shown the window).
  listen<string>('notification://open-chat', (event) => void app.revealChat(event.payload)).catch(() => {
    // Outside the desktop shell: no OS notifications.
  });

  // The hidden window is about to be torn down to save memory: hand over what must survive.
  listen('window://park', () => void api.parkWindow(app.parked())).catch(() => {
    // Outside the desktop shell there is no tray.
  });

  // The model wrote a chat's title after its first reply.
  listen<string>('session://titled', () => void app.refreshSessions()).catch(() => {
    // Outside the desktop shell there are no backend events.
  });

  // A scheduled job delivered into a chat (or ran in a new one): show it.
  listen<string>('session://appended', (event) => {
    void app.refreshSessions();
    if (chats.get(event.payload)) void chats.open(event.payload);
  }).catch(() => {
    // Outside the desktop shell there are no backend events.
  });

  // A sub-agent's progress, also after the turn that started it ended (background children).
  listen<SubAgentProgress>('subagent://progress', (event) => {
    const chat = chats.get(event.payload.parent_session_id);
    if (chat) applyEvent(chat, { type: 'sub_agent', progress: event.payload });
    backgroundTasks.apply(event.payload);
  }).catch(() => {
    // Outside the desktop shell there are no backend events.
  });

  const marks: Record<string, number> = { navigation: performance.timeOrigin, script: Date.now() };
  void app.init().then(async () => {
    marks.data = Date.now();
    await tick();
    requestAnimationFrame(() => {
      api.appReady(marks).catch((e: unknown) => console.warn('app_ready failed', e));
    });
  });
}
