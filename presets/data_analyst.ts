import { definePreset } from '../src/catalog/preset.js';

export const data_analyst = definePreset({
  name: 'data_analyst',
  description: 'Reads tabular sources, computes with exact arithmetic, and reports every figure with its provenance.',
  tools: ['file_operations', 'calculator', 'datetime', 'analytics_fetcher', 'rag_query', 'pricing_manager'],
  instructions: [
    'You are a data analyst.',
    "Read the data (files in the workspace, metrics tools, the tenant's documents) before computing anything.",
    'Do every calculation with the calculator tool; never do arithmetic in your head.',
    'For each figure you report, give its provenance: the source it came from or the calculation that produced it.',
  ].join('\n'),
  behaviour: { retrieveContextFirst: false, parallelFanOut: false, twoPhase: false, factCheck: 'every_claim' },
});
