/**
 * Tool calling for models that only exchange text (MCP sampling, endpoints without native tool support):
 * the tools are described in the system prompt, the model replies with a JSON object listing its calls or
 * with plain text for its answer, and the conversation (tool calls and results) is rendered back as text.
 *
 * Reading is lenient about the shapes models actually write (`tool_calls`, `steps` or `calls`; `name` or
 * `tool`; `arguments`, `args` or `parameters`; a ```json fence; a single call) and strict about broken JSON:
 * a reply that tries to be a call but cannot be read is reported as `malformed`, never guessed at.
 */
import { randomUUID } from 'node:crypto';
import type { ChatMessage, Completion, ToolCall, ToolSpec } from './types.js';

export function toolProtocolInstructions(tools: readonly ToolSpec[]): string {
  const described = tools.map((t) => `### ${t.name}\n${t.description}\nArguments (JSON Schema): ${JSON.stringify(t.parameters)}`).join('\n\n');
  return [
    '## Calling tools',
    'To call tools, reply with ONLY a JSON object and no other text:',
    '{"tool_calls": [{"name": "<tool name>", "arguments": {<arguments matching that tool\'s schema>}}]}',
    'You may list several calls; each result comes back to you. To give your final answer, or when no tool is ' + 'needed, reply with plain text (not JSON).',
    '',
    'Tools:',
    described,
  ].join('\n');
}

export interface TextTurn {
  role: 'user' | 'assistant';
  text: string;
}

/** The conversation as alternating user/assistant text turns (tool results become user turns). */
export function transcriptAsText(messages: readonly ChatMessage[]): TextTurn[] {
  const turns: TextTurn[] = [];
  const push = (role: TextTurn['role'], text: string) => {
    const last = turns.at(-1);
    if (last && last.role === role) last.text = `${last.text}\n\n${text}`;
    else turns.push({ role, text });
  };
  for (const m of messages) {
    if (m.role === 'user') push('user', m.content);
    else if (m.role === 'assistant') {
      const calls = m.toolCalls?.length ? JSON.stringify({ tool_calls: m.toolCalls.map((c) => ({ name: c.name, arguments: parseOr(c.arguments) })) }) : '';
      push('assistant', [m.content, calls].filter(Boolean).join('\n') || '(no reply)');
    } else push('user', `Result of ${m.name} (call ${m.toolCallId}):\n${m.content}`);
  }
  return turns;
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const FENCE = /```(?:json|JSON)?(?:[ \t]*\n)?([\s\S]*?)```/;
const CALL_LISTS = ['tool_calls', 'steps', 'calls'] as const;

function newId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

function asCall(item: unknown, index: number): ToolCall | string {
  if (!item || typeof item !== 'object') return `tool call #${index + 1} is not an object`;
  const o = item as Record<string, unknown>;
  const fn = o.function && typeof o.function === 'object' ? (o.function as Record<string, unknown>) : undefined;
  const name = o.name ?? o.tool ?? fn?.name;
  if (typeof name !== 'string' || name.trim() === '') return `tool call #${index + 1} has no "name"`;
  let args: unknown = o.arguments ?? o.args ?? o.parameters ?? o.input ?? fn?.arguments ?? {};
  if (typeof args === 'string') args = parseOr(args);
  // A plan step may carry its parallel_group beside its arguments; it travels with them.
  if (typeof o.parallel_group === 'string' && args && typeof args === 'object' && !Array.isArray(args)) {
    args = { ...(args as Record<string, unknown>), parallel_group: o.parallel_group };
  }
  return { id: typeof o.id === 'string' && o.id ? o.id : newId(), name: name.trim(), arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}

/** Reads a text reply: tool calls, a plain answer, or `malformed` with the reason. */
export function readToolReply(raw: string): Completion {
  const text = raw.trim();
  const fenced = FENCE.exec(text)?.[1]?.trim();
  let candidate: string | undefined;
  if (text.startsWith('{')) candidate = text;
  else if (fenced?.startsWith('{')) candidate = fenced;
  else if (/"(tool_calls|steps|calls)"\s*:/.test(text) && text.includes('{')) {
    candidate = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  }
  if (candidate === undefined) return { text };

  let parsed: unknown;
  try {
    parsed = JSON.parse(candidate);
  } catch (error) {
    return { text, malformed: `the reply is not valid JSON (${(error as Error).message})` };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { text };
  const o = parsed as Record<string, unknown>;
  const listKey = CALL_LISTS.find((k) => Array.isArray(o[k]));
  const items = listKey ? (o[listKey] as unknown[]) : (o.name ?? o.tool) !== undefined ? [o] : undefined;
  if (!items) {
    if (typeof o.answer === 'string') return { text: o.answer };
    if (typeof o.final_answer === 'string') return { text: o.final_answer };
    return { text };
  }
  if (items.length === 0) {
    if (typeof o.answer === 'string') return { text: o.answer };
    return { text, malformed: `"${listKey}" is an empty list: list at least one call, or reply with plain text to answer` };
  }
  const calls: ToolCall[] = [];
  for (const [i, item] of items.entries()) {
    const call = asCall(item, i);
    if (typeof call === 'string') return { text, malformed: call };
    calls.push(call);
  }
  return { text: '', toolCalls: calls };
}
