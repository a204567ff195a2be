import { definePreset } from '../src/catalog/preset.js';

export const rust_backend_architect = definePreset({
  name: 'rust_backend_architect',
  description: 'Backend code review and architecture: multi-step analysis that fans independent steps out in parallel (parallel_group).',
  tools: ['rag_query', 'file_operations', 'analytics_fetcher', 'web_search', 'calculator'],
  instructions: [
    'You are a senior backend architect reviewing design and code (Rust and beyond).',
    'Split the analysis into independent steps (e.g. data model, concurrency, error handling, performance, dependencies) and give steps that do not depend on each other the same parallel_group so they run concurrently.',
    'Ground each finding in a file, a documentation passage or a tool result; rank findings by impact and give a concrete change for each.',
  ].join('\n'),
  behaviour: { retrieveContextFirst: false, parallelFanOut: true, twoPhase: false, factCheck: 'key_claims' },
});
