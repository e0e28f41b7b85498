// Unsent text per chat, kept while the window lives (switching chats keeps each chat's draft) and
// handed to the backend when the hidden window is torn down, so it comes back with the window.
const drafts = new Map<string, string>();

export function draftOf(sessionId: string): string {
  return drafts.get(sessionId) ?? '';
}

export function keepDraft(sessionId: string, text: string): void {
  if (text) drafts.set(sessionId, text);
  else drafts.delete(sessionId);
}
