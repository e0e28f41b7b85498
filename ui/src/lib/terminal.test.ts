import { describe, expect, it } from 'vitest';
import { terminalSession } from './terminal';

const result = (content: string, is_error = false) => ({ call_id: 'c', name: 'pty', content, is_error, duration_ms: 1 });

describe('terminal sessions of tool cards', () => {
  it('takes the session id from the result of a pty spawn', () => {
    expect(terminalSession('pty', result('{"session_id":"pty-3","status":"running","rows":24,"cols":80}'))).toBe('pty-3');
  });

  it('shows no second view for reads and writes of the session', () => {
    expect(terminalSession('pty', result('{"session_id":"pty-3","screen":"$","status":"running"}'))).toBeNull();
  });

  it('ignores other tools, errors, missing or malformed results', () => {
    expect(terminalSession('exec', result('{"session_id":"pty-3","rows":24}'))).toBeNull();
    expect(terminalSession('pty', result('{"session_id":"pty-3","rows":24}', true))).toBeNull();
    expect(terminalSession('pty', null)).toBeNull();
    expect(terminalSession('pty', result('not json'))).toBeNull();
    expect(terminalSession('pty', result('{"sessions":[]}'))).toBeNull();
    expect(terminalSession('pty', result('{"session_id":42,"rows":24}'))).toBeNull();
    expect(terminalSession('pty', result('null'))).toBeNull();
  });
});
