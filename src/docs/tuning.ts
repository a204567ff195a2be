/**
 * Every tuned value of the documentation pipeline, in one place, each with the measurement that justifies
 * it, and the components `npm run eval -- --ablate NAME` can switch off to show what they earn.
 */

export interface Ablation {
  /** What switching it off removes. */
  about: string;
}

/** Components that can be switched off, by name. */
export const ABLATIONS: Record<string, Ablation> = {};

/** Throws on a name that is not a component, listing the ones that are. */
export function checkAblations(names: readonly string[]): void {
  const unknown = names.filter((n) => !(n in ABLATIONS));
  if (unknown.length) throw new Error(`Unknown component ${unknown.join(', ')}; components: ${Object.keys(ABLATIONS).join(', ') || '(none)'}.`);
}
