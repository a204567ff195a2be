/**
 * Plans: the numbered steps a two-phase agent writes before executing, and the order in which one reply's
 * tool calls run (in sequence, or fanned out by `parallel_group`).
 */

const MAX_PLAN_STEPS = 12;

function describe(item: unknown): string | undefined {
  if (typeof item === 'string') return item.trim() || undefined;
  if (!item || typeof item !== 'object') return undefined;
  const o = item as Record<string, unknown>;
  const text = [o.description, o.step, o.task, o.goal, o.purpose, o.action].find((v) => typeof v === 'string' && v.trim());
  const tool = typeof o.tool === 'string' ? o.tool : typeof o.name === 'string' ? o.name : undefined;
  if (typeof text === 'string') return tool ? `${text.trim()} (${tool})` : text.trim();
  return tool;
}

/**
 * The steps of a written plan: a JSON `{"plan": [...]}` / `{"steps": [...]}` / array, or numbered or bulleted
 * lines. Returns [] when the text holds no recognisable plan (the caller decides what free text means).
 */
export function readPlan(text: string): string[] {
  const trimmed = text.trim();
  const json = /```(?:json)?(?:[ \t]*\n)?([\s\S]*?)```/.exec(trimmed)?.[1]?.trim() ?? trimmed;
  if (json.startsWith('{') || json.startsWith('[')) {
    try {
      const parsed = JSON.parse(json) as unknown;
      const list = Array.isArray(parsed) ? parsed : [(parsed as Record<string, unknown>).plan, (parsed as Record<string, unknown>).steps].find(Array.isArray);
      if (Array.isArray(list))
        return list
          .map(describe)
          .filter((s): s is string => Boolean(s))
          .slice(0, MAX_PLAN_STEPS);
    } catch {
      // Not JSON after all: read it as lines.
    }
  }
  const steps: string[] = [];
  for (const line of trimmed.split('\n')) {
    const m = /^\s*(?:(?:step\s*)?\d+[.):]|[-*•])\s+(.+)$/is.exec(line);
    if (m?.[1]) steps.push(m[1].replace(/\*\*/g, '').trim());
  }
  return steps.slice(0, MAX_PLAN_STEPS);
}

/**
 * Batches to run one after another. Without fan-out every call is its own batch, in the order given. With
 * fan-out, calls sharing a `parallel_group` form one batch (run concurrently), batches ordered by their first
 * call; a call without a group is a batch of its own.
 */
export function batches<T extends { group?: string }>(calls: readonly T[], fanOut: boolean): T[][] {
  if (!fanOut) return calls.map((c) => [c]);
  const out: T[][] = [];
  const byGroup = new Map<string, T[]>();
  for (const call of calls) {
    if (call.group === undefined) {
      out.push([call]);
      continue;
    }
    let batch = byGroup.get(call.group);
    if (!batch) {
      batch = [];
      byGroup.set(call.group, batch);
      out.push(batch);
    }
    batch.push(call);
  }
  return out;
}
