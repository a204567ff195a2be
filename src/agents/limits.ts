/** The sub-agent's published limits (spawn_sub_agent's schema and description read them from here). */
export const SUB_AGENT_LIMITS = Object.freeze({
  /**
   * Spawning is capped at depth 2, counting agents: the agent calling docent is depth 1 and the sub-agent it
   * spawns depth 2, so a child's child is refused. (`lineage.depth` counts spawns: a direct call is 0.)
   */
  maxDepth: 2,
  maxPromptChars: 4096,
  defaultTimeoutSecs: 60,
  maxTimeoutSecs: 180,
  /** Model turns in the execute phase before the run is made to answer from what it has. */
  maxTurns: 8,
  /** Tool calls in one run (retrieval included). */
  maxSteps: 16,
  /** Unreadable model replies in a row before the run gives up with an error. */
  maxMalformedReplies: 2,
  /** Characters of one tool result shown to the model (the fact-check sees all of it). */
  resultCharsForModel: 8000,
});
