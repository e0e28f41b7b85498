import { describe, expect, it } from 'vitest';
import { completeCommands, typedCommand } from './slashCommands';

describe('the built-in slash commands', () => {
  it('completes a /query to the commands starting with it, then those containing it', () => {
    expect(completeCommands('')).toEqual(['mcp']);
    expect(completeCommands('m')).toEqual(['mcp']);
    expect(completeCommands('cp')).toEqual(['mcp']);
    expect(completeCommands('weather')).toEqual([]);
  });

  it('recognizes a message that is a whole command', () => {
    expect(typedCommand(' /MCP ')).toBe('mcp');
    expect(typedCommand('/mcp list')).toBeNull();
    expect(typedCommand('/mc')).toBeNull();
  });
});
