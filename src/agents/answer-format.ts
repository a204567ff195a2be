/**
 * What some presets require of the final answer's shape, checked after synthesis (one rewrite is asked for
 * when it is missing). The preset's instructions ask for the same shape; this is the check.
 */

/** Section headings a preset's answer must have, matched case-insensitively at the start of a line. */
export const REQUIRED_SECTIONS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  security_auditor: Object.freeze(['Threat model', 'Findings', 'Remediation']),
});

/** The required sections the answer lacks (none for presets without requirements). */
export function missingSections(preset: string, answer: string): string[] {
  const required = REQUIRED_SECTIONS[preset] ?? [];
  return required.filter((heading) => {
    const escaped = heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return !new RegExp(`^[\\s#>*_\\d.)-]*${escaped}`, 'im').test(answer);
  });
}
