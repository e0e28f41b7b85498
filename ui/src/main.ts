// Entry point: mounts the app, loads settings and sessions, and tells the backend once the first
// screen is on display (start-up measurement).
import { mount, tick } from 'svelte';
import App from './App.svelte';
import './app.css';
import { api } from './lib/api';
import { app } from './lib/state/app.svelte';

const target = document.getElementById('app');
if (!target) throw new Error('missing #app element');
mount(App, { target });

window.addEventListener('pagehide', () => app.flushDeletes());

void app.init().then(async () => {
  await tick();
  requestAnimationFrame(() => {
    api.appReady().catch((e: unknown) => console.warn('app_ready failed', e));
  });
});
