// Entry point: mounts the app (or, when Hearth could not start, the start-up error screen), loads
// settings and sessions, and tells the backend once the first screen is on display (start-up measurement).
import { mount, tick } from 'svelte';
import App from './App.svelte';
import StartupProblem from './features/startup/StartupProblem.svelte';
import './app.css';
import { api } from './lib/api';
import { applyEvent } from './lib/chat/reducer';
import { onEvent } from './lib/events';
import { setLanguage } from './lib/i18n/index.svelte';
import { applyPlatform } from './lib/platform';
import { app } from './lib/state/app.svelte';
import { backgroundTasks } from './lib/state/background.svelte';
import { chats } from './lib/state/chats.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('missing #app element');
applyPlatform();

if (location.hash === '#startup-problem') {
  // Hearth could not load its settings: only the error screen runs, in the system's language.
  setLanguage(navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en');
  mount(StartupProblem, { target });
} else {
  start(target);
}

function start(target: HTMLElement): void {
  // The first data is asked for before the first screen is built, so the backend reads it while
  // the page renders.
  const initialized = app.init();
  mount(App, { target });

  window.addEventListener('pagehide', () => app.flushDeletes());

  // The tray menu's "New chat" (the backend has already shown the window).
  onEvent('tray://new-chat', () => void app.newChat());

  // A clicked notification about a chat (the backend has already shown the window).
  onEvent('notification://open-chat', (id) => void app.revealChat(id));

  // The hidden window is about to be torn down to save memory: hand over what must survive.
  onEvent('window://park', () => void api.parkWindow(app.parked()));

  // The model wrote a chat's title after its first reply.
  onEvent('session://titled', () => void app.refreshSessions());

  // A scheduled job delivered into a chat (or ran in a new one): show it.
  onEvent('session://appended', (id) => {
    void app.refreshSessions();
    if (chats.get(id)) void chats.open(id);
  });

  // A sub-agent's progress, also after the turn that started it ended (background children).
  onEvent('subagent://progress', (progress) => {
    const chat = chats.get(progress.parent_session_id);
    if (chat) applyEvent(chat, { type: 'sub_agent', progress });
    backgroundTasks.apply(progress);
  });

  const marks: Record<string, number> = { navigation: performance.timeOrigin, script: Date.now() };
  void initialized.then(async () => {
    marks.data = Date.now();
    await tick();
    requestAnimationFrame(() => {
      api.appReady(marks).catch((e: unknown) => console.warn('app_ready failed', e));
    });
  });
}
