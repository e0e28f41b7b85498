// English strings of Settings → Browser and of the browser tool's card in chats.
export const browserEn = {
  'settings.browser': 'Browser',
  'settings.browser.intro':
    'The agent’s browser tool drives its own Chrome-family browser with a profile of its own, so a site you log in to there stays logged in. Its traffic goes through Hearth’s egress guard.',
  'settings.browser.found': 'Browser: {path}',
  'settings.browser.source.setting': 'set below',
  'settings.browser.source.HEARTH_BROWSER': 'from HEARTH_BROWSER',
  'settings.browser.source.install': 'installed',
  'settings.browser.source.PATH': 'on PATH',
  'settings.browser.missing':
    'No Chrome, Chromium, Microsoft Edge or Brave was found. Install one (on Debian or Ubuntu: sudo apt install chromium) or give its program below.',
  'settings.browser.running': 'Running now',
  'settings.browser.stopped': 'Not running (it starts on the agent’s first browser call)',
  'settings.browser.executable': 'Browser program',
  'settings.browser.executableHint': 'Empty: found automatically.',
  'settings.browser.visible': 'Show the browser window (otherwise it runs headless)',
  'settings.browser.idle': 'Close after idle minutes',
  'settings.browser.open': 'Open the agent’s browser',
  'settings.browser.openHint': 'Opens its window so you can log in to a site or watch; the agent then uses this window.',
  'settings.browser.opened': 'The agent’s browser is open.',
  'settings.browser.clear': 'Clear browser data',
  'settings.browser.clearConfirm': 'Close the agent’s browser and delete its cookies, logins and cache?',
  'settings.browser.cleared': 'Browser data cleared.',
  'settings.browser.cdpUrl': 'Attach to your own Chrome (DevTools address)',
  'settings.browser.cdpUrlHint':
    'Off when empty. Start Chrome with --remote-debugging-port=9222 and enter http://127.0.0.1:9222 (only addresses on this computer). The agent then acts in your own browser, logged in as you, and its traffic does NOT go through the egress guard: every call asks you first, and unattended jobs refuse it.',
  'browserCard.action': 'Browser: {action}',
  'browserCard.snapshot': 'Page outline ({count} characters)',
} as const;
