import { definePreset } from '../src/catalog/preset.js';

export const general_task = definePreset({
  name: 'general_task',
  description: 'General-purpose agent and the fallback when no preset is named: plans briefly, uses whichever tools fit, answers plainly.',
  tools: ['rag_query', 'calculator', 'datetime', 'file_operations', 'encyclopedia', 'preprint_search', 'web_search', 'rss_feed'],
  instructions: [
    'You are a careful general-purpose assistant working for one tenant.',
    "Break the task into the fewest steps that answer it. Prefer the tenant's own documentation (rag_query) for questions about their products.",
    'Use calculator for any arithmetic whose result you report, and datetime for dates.',
    'State only what a tool result or the documentation supports; say plainly when something could not be established.',
  ].join('\n'),
  behaviour: { retrieveContextFirst: false, parallelFanOut: false, twoPhase: false, factCheck: 'key_claims' },
});
