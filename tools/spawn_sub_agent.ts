import { z } from 'zod';
import { DEFAULT_PRESET, PRESET_NAMES, findPreset } from '../presets/index.js';
import { SUB_AGENT_LIMITS as LIMITS } from '../src/agents/limits.js';
import { SubAgentResultSchema } from '../src/agents/result.js';
import { defineTool } from '../src/catalog/definition.js';

export const spawn_sub_agent = defineTool({
  name: 'spawn_sub_agent',
  title: 'Spawn a verified sub-agent',
  summary: 'A verified child agent for a focused sub-task (plan, tools, synthesis, fact-check)',
  description:
    'Hands a focused, self-contained sub-task to a child agent that plans, calls catalog tools, writes an answer and ' +
    'fact-checks it, then returns the answer with a verdict (verified, partially_verified, unverified), the claims ' +
    'checked, the steps it took and its wall time. The preset shapes the child: its instructions and the only tools it ' +
    `may use (${PRESET_NAMES.join(', ')}; default ${DEFAULT_PRESET}). Use it to delegate a sub-task that needs several ` +
    "tool calls, or one whose answer should be checked against tool results and the tenant's documentation. Not for a " +
    "single tool call (call that tool), and not for actions that need the user's confirmation (deleting, posting, " +
    'paid calls beyond the budget): a sub-agent cannot confirm them. Needs a language model: DOCENT_LLM_BASE_URL and ' +
    'DOCENT_LLM_MODEL, or a client that supports MCP sampling.',
  input: z.object({
    prompt: z
      .string()
      .min(1)
      .max(LIMITS.maxPromptChars)
      .refine((s) => s.trim().length > 0, 'must not be blank')
      .describe(`The sub-task, self-contained (the child sees nothing else), at most ${LIMITS.maxPromptChars} characters`),
    preset: z
      .enum(PRESET_NAMES)
      .default(DEFAULT_PRESET)
      .describe("The child's behaviour and tool set. A planner_executor may not spawn another planner_executor."),
    timeout_secs: z
      .number()
      .positive()
      .max(LIMITS.maxTimeoutSecs)
      .default(LIMITS.defaultTimeoutSecs)
      .describe(`Deadline for the whole run, in seconds (default ${LIMITS.defaultTimeoutSecs}, at most ${LIMITS.maxTimeoutSecs})`),
  }),
  output: SubAgentResultSchema,
  side_effects: 'external',
  // The child calls tools of its preset, which may write files, post or delete (each under the confirmation policy).
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  cost_class: 'metered',
  requires_secret: false,
  hints: [
    `Spawning is capped at depth ${LIMITS.maxDepth}: the calling agent is depth 1 and its sub-agent depth 2, so a sub-agent cannot spawn another; a child never has more tools than its parent.`,
    'On timeout the run fails with an error; nothing partial is returned as an answer.',
  ],
  async handler(input, ctx) {
    // Loaded on call: the runner (and, through the services, the model client) stay out of tools/list.
    const [{ runSubAgent }, { renderResult }, { findTool }] = await Promise.all([
      import('../src/agents/runner.js'),
      import('../src/agents/render.js'),
      import('./index.js'),
    ]);
    const result = await runSubAgent({ prompt: input.prompt, preset: findPreset(input.preset)!, timeoutMs: Math.round(input.timeout_secs * 1000) }, ctx, {
      lookup: findTool,
    });
    return { value: result, text: renderResult(result) };
  },
});
