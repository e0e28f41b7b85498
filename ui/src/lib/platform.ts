// The system the window runs on, from the webview's user agent (WebKitGTK on Linux, WKWebView on
// macOS, WebView2 on Windows); `data-os` on <html> picks that system's font stack in app.css.
export type Os = 'linux' | 'macos' | 'windows' | 'other';

export function osOf(userAgent: string): Os {
  if (userAgent.includes('Windows')) return 'windows';
  if (userAgent.includes('Macintosh') || userAgent.includes('Mac OS X')) return 'macos';
  if (userAgent.includes('Linux') || userAgent.includes('X11')) return 'linux';
  return 'other';
}

export const os: Os = typeof navigator === 'undefined' ? 'other' : osOf(navigator.userAgent);

/** Windows has no sandbox for commands yet. */
export const onWindows = os === 'windows';

/** Marks <html> with the system, before anything is drawn. */
export function applyPlatform(): void {
  document.documentElement.dataset.os = os;
}
