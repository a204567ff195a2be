import { definePreset } from '../src/catalog/preset.js';

export const planner_executor = definePreset({
  name: 'planner_executor',
  description: 'Two phases: first plan the steps, then execute them strictly in order, feeding each result to the next.',
  tools: ['rag_query', 'calculator', 'datetime', 'file_operations', 'web_search', 'encyclopedia', 'preprint_search', 'spawn_sub_agent'],
  instructions: [
    'Work in two phases.',
    'Phase 1, plan: write numbered steps, each with the tool it needs and what it must produce. Do not execute yet.',
    'Phase 2, execute: run the steps in order; if a step fails, say so and adapt the remaining steps rather than inventing its result.',
    'A planner_executor may delegate a focused step to a sub-agent of another preset, never to another planner_executor.',
  ].join('\n'),
  behaviour: { retrieveContextFirst: false, parallelFanOut: false, twoPhase: true, factCheck: 'key_claims' },
});
