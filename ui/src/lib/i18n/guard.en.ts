// English strings of the card a part of the window shows instead when it fails (spread into `en`).
export const guardEn = {
  'guard.failed': '“{what}” could not be shown',
  'guard.explain':
    'Something went wrong while showing this part of the window. The rest of Hearth still works, and your chats and settings are unchanged. The error is written to the log in the logs folder.',
  'guard.detail': 'What failed',
  'guard.openFolder': 'Open config folder',
  'guard.reload': 'Reload',
  'guard.chat': 'This chat',
  'guard.sidebar': 'The chat list',
};
