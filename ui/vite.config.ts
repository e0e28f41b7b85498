import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

// The CSP the Tauri window enforces, mirrored by `vite preview` so end-to-end tests run under it.
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // xterm.js (the pty terminal view) sizes and themes itself with inline styles; scripts stay 'self'.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  // Generated audio plays from blob URLs (read_workspace_media).
  "media-src 'self' blob:",
  "font-src 'self'",
  "connect-src 'self' ipc: http://ipc.localhost",
  "object-src 'none'",
  "frame-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export default defineConfig({
  plugins: [svelte()],
  clearScreen: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
  },
  server: { port: 5173, strictPort: true },
  preview: { port: 4173, strictPort: true, headers: { 'Content-Security-Policy': CSP } },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
