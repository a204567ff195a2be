/** What a sub-agent run returns: spawn_sub_agent's output schema, and the runner's result type. */
import { z } from 'zod';

export const VERDICTS = ['verified', 'partially_verified', 'unverified'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const StepSchema = z.object({
  n: z.number().int().positive().describe('Order in which the step was planned (1-based)'),
  tool: z.string(),
  arguments: z.string().describe('The arguments, summarised'),
  parallel_group: z.string().optional().describe('Steps sharing a group ran concurrently'),
  outcome: z.enum(['ok', 'error']),
  error_code: z.string().optional(),
  message: z.string().optional().describe('What went wrong, for a failed step'),
  duration_ms: z.number().nonnegative(),
});
export type Step = z.infer<typeof StepSchema>;

export const ClaimSchema = z.object({
  text: z.string(),
  held: z.boolean(),
  sources: z.array(z.string()).describe('Where its figures and identifiers were found (provenance)'),
  unsupported: z.array(z.string()).describe('Figures, names or words found in no evidence'),
});
export type Claim = z.infer<typeof ClaimSchema>;

export const SubAgentResultSchema = z.object({
  answer: z.string(),
  verdict: z.enum(VERDICTS).describe('verified: every checked claim held; partially_verified: some did; unverified: none did, or nothing was checkable'),
  preset: z.string(),
  depth: z.number().int().positive(),
  wall_time_ms: z.number().nonnegative(),
  model: z.object({ source: z.enum(['endpoint', 'sampling']), label: z.string(), tool_calling: z.enum(['native', 'json']) }),
  plan: z.array(z.string()),
  steps: z.array(StepSchema),
  claims: z.object({ checked: z.number().int().nonnegative(), held: z.number().int().nonnegative(), items: z.array(ClaimSchema) }),
  retrieval: z
    .object({ tool: z.string(), grounded: z.boolean(), sources: z.array(z.string()), note: z.string() })
    .optional()
    .describe('What the documentation lookup before planning found (presets that retrieve first)'),
  notes: z.array(z.string()),
});
export type SubAgentResult = z.infer<typeof SubAgentResultSchema>;
