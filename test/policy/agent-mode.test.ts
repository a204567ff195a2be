import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { AGENT_MODE, isAgentEnvironment, isAgentRequest } from '../../src/policy/agent-mode.js';
import { startHarness, textOf } from '../helpers/harness.js';

describe('isAgentRequest (HTTP headers)', () => {
  it.each([
    [{ 'x-agent-client': 'my-orchestrator/2.1' }, true],
    [{ 'x-agent-client': 'x' }, true],
    [{ 'x-agent-client': ['first', 'second'] }, true],
    [{ 'user-agent': 'ClaudeCode/1.0.33' }, true],
    [{ 'user-agent': 'Cursor/0.48 (linux)' }, true],
    [{ 'user-agent': 'Continue/1.0' }, true],
    [{ 'user-agent': 'Aider/0.80' }, true],
    [{ 'user-agent': 'Cline/3.8' }, true],
    [{ 'user-agent': 'curl/8.5', 'x-agent-client': 'bot' }, true],
    [{}, false],
    [{ 'x-agent-client': '' }, false],
    [{ 'x-agent-client': '   ' }, false],
    [{ 'x-agent-client': [] as string[] }, false],
    [{ 'user-agent': '' }, false],
    [{ 'user-agent': 'claudecode/1.0' }, false],
    [{ 'user-agent': 'CLAUDECODE/1.0' }, false],
    [{ 'user-agent': 'XClaudeCode/1.0' }, false],
    [{ 'user-agent': 'ClaudeCode' }, false],
    [{ 'user-agent': 'ClaudeCode 1.0' }, false],
    [{ 'user-agent': 'Mozilla/5.0 ClaudeCode/1.0' }, false],
    [{ 'user-agent': 'cursor/0.48' }, false],
    [{ 'user-agent': 'Clinet/1' }, false],
    [{ 'user-agent': 'curl/8.5' }, false],
    [{ 'X-Agent-Client': 'bot' }, false], // Node lower-cases header names; a raw mixed-case key is not a header it delivers
  ])('%j → %s', (headers, expected) => {
    expect(isAgentRequest(headers as Record<string, string | string[] | undefined>)).toBe(expected);
  });

  it('publishes exactly the documented prefixes, header and variables', () => {
    expect(AGENT_MODE).toEqual({
      header: 'X-Agent-Client',
      user_agent_prefixes: ['ClaudeCode/', 'Cursor/', 'Continue/', 'Aider/', 'Cline/'],
      env_vars_detected: ['SERVICE_AGENT', 'CLAUDE_CODE', 'CURSOR_AGENT'],
      auto_confirm_safe_ops: true,
    });
  });
});

describe('isAgentEnvironment (stdio)', () => {
  const cases: [NodeJS.ProcessEnv, boolean][] = [
    [{ SERVICE_AGENT: '1' }, true],
    [{ CLAUDE_CODE: '1' }, true],
    [{ CURSOR_AGENT: 'true' }, true],
    [{ CLAUDE_CODE: 'yes' }, true],
    [{ CLAUDE_CODE: '0', CURSOR_AGENT: '1' }, true],
    [{}, false],
    [{ CLAUDE_CODE: '' }, false],
    [{ CLAUDE_CODE: '0' }, false],
    [{ CLAUDE_CODE: 'false' }, false],
    [{ CLAUDE_CODE: 'FALSE' }, false],
    [{ SERVICE_AGENT: 'False' }, false],
    [{ CLAUDECODE: '1' }, false],
    [{ claude_code: '1' }, false],
    [{ CLAUDE_CODE_AGENT: '1' }, false],
    [{ AGENT: '1' }, false],
  ];

  it.each(cases)('%j → %s', (env, expected) => {
    expect(isAgentEnvironment(env)).toBe(expected);
  });

  it.each(cases)('the stdio config agrees for %j', (env, expected) => {
    expect(loadConfig({ env, cwd: '/tmp' }).policy.agentEnv).toBe(expected);
  });

  it('puts a stdio session started by an agent host in agent mode: safe writes go through unasked', async () => {
    const h = await startHarness({ env: { CLAUDE_CODE: '1' }, overrides: { 'policy.confirmSafeOps': 'outside_agent_mode' } });
    try {
      expect(h.config.policy.agentEnv).toBe(true);
      const result = await h.call('file_operations', { operation: 'write', path: 'a.txt', content: 'x' });
      expect(result.isError).toBeFalsy();
      // Deletes still need an explicit yes, agent or not.
      const del = await h.call('file_operations', { operation: 'delete', path: 'a.txt' });
      expect(del.isError).toBe(true);
      expect(textOf(del)).toMatch(/Confirmation required/);
    } finally {
      await h.close();
    }
  });

  it('leaves a session without the variables out of agent mode', async () => {
    const h = await startHarness({ env: { CLAUDE_CODE: 'false' }, overrides: { 'policy.confirmSafeOps': 'outside_agent_mode' } });
    try {
      expect(h.config.policy.agentEnv).toBe(false);
      const result = await h.call('file_operations', { operation: 'write', path: 'a.txt', content: 'x' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Confirmation required .*DOCENT_CONFIRM_SAFE_OPS/);
    } finally {
      await h.close();
    }
  });
});
