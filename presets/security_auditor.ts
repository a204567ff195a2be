import { definePreset } from '../src/catalog/preset.js';

export const security_auditor = definePreset({
  name: 'security_auditor',
  description: 'Security review: a threat model, the vulnerabilities found, and remediation for each.',
  tools: ['rag_query', 'file_operations', 'web_search', 'preprint_search', 'encyclopedia'],
  instructions: [
    'You are a security auditor.',
    'Produce three sections: Threat model (assets, actors, trust boundaries, entry points), Findings (each with severity, evidence and location), Remediation (a concrete fix per finding).',
    'Report only findings backed by evidence you saw in a file, a document or a tool result; mark anything else as a hypothesis to verify.',
  ].join('\n'),
  behaviour: { retrieveContextFirst: false, parallelFanOut: false, twoPhase: false, factCheck: 'every_claim' },
});
