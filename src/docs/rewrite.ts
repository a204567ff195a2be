/**
 * Query rewrite, optional: a model (the calling agent's through MCP sampling, or the configured chat
 * endpoint) names the words the documentation would likely use for what the question asks, which are then
 * searched beside the question (src/docs/index.ts `alternatives`). Askers describe the goal; documentation
 * names the feature. Bounded: one short completion, abandoned after a timeout; any failure leaves the
 * question searched as asked. The rewrite only widens the search: answers still quote the documentation, a
 * name the question uses that the documentation lacks still refuses, and the rest of the refusal evidence is
 * read with the question's words and with the rewrite's, a stronger reading of the rewrite's moving the
 * question's half of the way (all of it when a model writes the answer: src/docs/index.ts, tuning.ts
 * alternativeEvidence).
 */
import type { Complete } from './generate.js';

export const REWRITE_SYSTEM =
  'You help search software documentation. Given a question, reply with ONE line: the words and names the ' +
  'documentation itself would most likely use for what is asked (feature, option, setting, command, method or ' +
  'API names, and technical terms), separated by spaces or commas. Do not answer the question, do not explain, ' +
  "do not invent product names. If you cannot tell, reply with the question's own key terms.";

/** At most this many characters of a rewrite are searched. */
export const REWRITE_MAX_CHARS = 300;

/** The documentation's likely wording of the question, or undefined (timeout, failure, empty reply). */
export async function rewriteQuestion(complete: Complete, question: string, timeoutMs: number, signal?: AbortSignal): Promise<string | undefined> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const reply = await Promise.race([
      complete({ system: REWRITE_SYSTEM, user: `Question: ${question}`, signal: combined }),
      new Promise<never>((_, reject) => combined.addEventListener('abort', () => reject(new Error('rewrite timed out')), { once: true })),
    ]);
    return rewriteLine(reply);
  } catch {
    return undefined;
  }
}

/** What of a model's reply is searched: its first non-empty line, at most REWRITE_MAX_CHARS characters. */
export function rewriteLine(reply: string): string | undefined {
  const line = reply
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  return line ? line.slice(0, REWRITE_MAX_CHARS) : undefined;
}
