/**
 * A preset is data: a named behaviour for an agent (and for sub-agents spawned with it). Served as an MCP
 * prompt, listed in the manifest, and read by the sub-agent runner for its instructions, tools and shape.
 */
export interface Preset {
  name: string;
  /** One or two sentences: what this preset is for. */
  description: string;
  /** Names of the tools an agent under this preset may call (a subset of the registry). */
  tools: readonly string[];
  /** System instructions for the agent. */
  instructions: string;
  behaviour: {
    /** Search the tenant's documentation before planning and pass what was found to the model. */
    retrieveContextFirst: boolean;
    /** The plan may mark independent steps with a shared `parallel_group` to run them concurrently. */
    parallelFanOut: boolean;
    /** Plan first, then execute the steps strictly in order. */
    twoPhase: boolean;
    /** How strictly the synthesis is checked: every claim, or the claims that carry figures or names. */
    factCheck: 'every_claim' | 'key_claims';
  };
}

export function definePreset(preset: Preset): Preset {
  return Object.freeze({ ...preset, tools: Object.freeze([...preset.tools]), behaviour: Object.freeze({ ...preset.behaviour }) });
}
