/** The text rendering of a sub-agent result (the MCP text content next to its structured result). */
import type { SubAgentResult } from './result.js';

export function renderResult(r: SubAgentResult): string {
  const failed = r.steps.filter((s) => s.outcome === 'error').length;
  const lines = [
    r.answer,
    '',
    '---',
    `Verdict: ${r.verdict} (${r.claims.held} of ${r.claims.checked} checked claim(s) held) · preset ${r.preset} · depth ${r.depth} · ` +
      `${r.steps.length} tool call(s)${failed ? `, ${failed} failed` : ''} · ${r.wall_time_ms} ms · ${r.model.label}`,
  ];
  if (r.retrieval) lines.push(`Documentation: ${r.retrieval.note}`);
  for (const step of r.steps) {
    lines.push(
      `  step ${step.n}: ${step.tool} ${step.arguments}${step.parallel_group ? ` [group ${step.parallel_group}]` : ''} → ` +
        (step.outcome === 'ok' ? 'ok' : `error (${step.error_code}): ${step.message}`),
    );
  }
  const unsupported = r.claims.items.filter((c) => !c.held);
  if (unsupported.length) {
    lines.push('Not supported by the evidence:');
    for (const c of unsupported) lines.push(`  - "${c.text}" (not found: ${c.unsupported.join(', ')})`);
  }
  if (r.preset === 'data_analyst') {
    const sourced = r.claims.items.filter((c) => c.held && c.sources.length);
    if (sourced.length) {
      lines.push('Provenance:');
      for (const c of sourced) lines.push(`  - "${c.text}" ← ${c.sources.join(', ')}`);
    }
  }
  for (const note of r.notes) lines.push(`Note: ${note}`);
  return lines.join('\n');
}
