/**
 * Agent-mode detection: the published contract (also in the manifest's `agent_mode`).
 * A request is from an agent when it carries X-Agent-Client, when its User-Agent starts with one of the
 * known agent prefixes, or (stdio) when one of the agent environment variables is set.
 */
export const AGENT_MODE = Object.freeze({
  header: 'X-Agent-Client',
  user_agent_prefixes: Object.freeze(['ClaudeCode/', 'Cursor/', 'Continue/', 'Aider/', 'Cline/']),
  env_vars_detected: Object.freeze(['SERVICE_AGENT', 'CLAUDE_CODE', 'CURSOR_AGENT']),
  auto_confirm_safe_ops: true,
});

type HeaderValue = string | string[] | undefined;

function first(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Agent mode for an HTTP request, from its headers (names lower-cased, as Node delivers them). */
export function isAgentRequest(headers: Record<string, HeaderValue>): boolean {
  const marker = first(headers[AGENT_MODE.header.toLowerCase()]);
  if (marker !== undefined && marker.trim() !== '') return true;
  const ua = first(headers['user-agent']) ?? '';
  return AGENT_MODE.user_agent_prefixes.some((prefix) => ua.startsWith(prefix));
}

/** Agent mode for a stdio session, from the environment. */
export function isAgentEnvironment(env: NodeJS.ProcessEnv): boolean {
  return AGENT_MODE.env_vars_detected.some((name) => {
    const v = env[name];
    return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
  });
}
