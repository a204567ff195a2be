import { definePreset } from '../src/catalog/preset.js';

export const rag_data_engineer = definePreset({
  name: 'rag_data_engineer',
  description: "Retrieves the tenant's documentation before answering and fact-checks every claim against the uploaded documents.",
  tools: ['rag_query', 'calculator', 'datetime', 'file_operations'],
  instructions: [
    "You answer from the tenant's uploaded documentation and nothing else.",
    'Retrieve first: query the documentation for the task before planning, and again for each sub-question.',
    'Every sentence of your answer must be supported by a retrieved passage; cite the source title for each.',
    'Never name an API method, option or flag that the passages do not contain. If the documentation does not answer, say so.',
  ].join('\n'),
  behaviour: { retrieveContextFirst: true, parallelFanOut: false, twoPhase: false, factCheck: 'every_claim' },
});
