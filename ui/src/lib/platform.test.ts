import { describe, expect, it } from 'vitest';
import { osOf } from './platform';

describe('osOf', () => {
  it('names the system from each desktop webview’s user agent', () => {
    // WebKitGTK 2.50 (Debian 12), WKWebView (macOS 14), WebView2 (Windows 11).
    expect(osOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko)')).toBe('linux');
    expect(osOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)')).toBe(
      'macos',
    );
    expect(
      osOf(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('windows');
  });

  it('keeps an unknown system apart', () => {
    expect(osOf('Mozilla/5.0 (FreeBSD amd64) Gecko/20100101')).toBe('other');
    expect(osOf('')).toBe('other');
  });
});
