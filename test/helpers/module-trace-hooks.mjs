/** Loader hooks of module-trace.mjs: appends each resolved ES module URL to the trace file. */
import { appendFileSync } from 'node:fs';

let out;

export function initialize(data) {
  out = data.out;
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (out) appendFileSync(out, `esm ${result.url}\n`);
  return result;
}
