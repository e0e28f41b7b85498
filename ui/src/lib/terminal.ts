// Which tool cards show a terminal: the `pty` call that spawned a session (its result names the
// session and the terminal size), so a session gets one view however often it is read.
import type { ToolResult } from './bindings/ToolResult';

export function terminalSession(name: string, result: ToolResult | null): string | null {
  if (name !== 'pty' || !result || result.is_error) return null;
  try {
    const value: unknown = JSON.parse(result.content);
    if (value && typeof value === 'object' && 'session_id' in value && 'rows' in value) {
      const id = (value as { session_id: unknown }).session_id;
      return typeof id === 'string' && id.length > 0 ? id : null;
    }
  } catch {
    return null;
  }
  return null;
}
