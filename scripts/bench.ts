/**
 * `npm run bench`: runs the benchmark sections in scripts/bench/ (each exports `name` and
 * `run(): Promise<Record<string, unknown>>`), prints a table per section and, with `--json`, the results
 * as JSON on stdout. `--only <name>` runs one section. Figures are for this machine at this moment: run it
 * on a quiet machine and compare ratios, not absolute numbers.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

interface Section {
  name: string;
  run(): Promise<Record<string, unknown>>;
}

const { values } = parseArgs({ options: { only: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  process.stdout.write('Usage: npm run bench [-- --only <section>] [-- --json]\n');
  process.exit(0);
}

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bench');
const files = (await readdir(dir)).filter((f) => f.endsWith('.js')).sort();
const sections: Section[] = [];
for (const file of files) sections.push((await import(pathToFileURL(path.join(dir, file)).href)) as Section);
const chosen = values.only ? sections.filter((s) => s.name === values.only) : sections;
if (!chosen.length) {
  process.stderr.write(`No bench section "${values.only}". Sections: ${sections.map((s) => s.name).join(', ')}\n`);
  process.exit(2);
}

function format(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (value && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const results: Record<string, Record<string, unknown>> = {};
for (const section of chosen) {
  process.stderr.write(`bench: ${section.name} ...\n`);
  const result = await section.run();
  results[section.name] = result;
  const width = Math.max(...Object.keys(result).map((k) => k.length));
  process.stdout.write(`\n${section.name}\n${'-'.repeat(section.name.length)}\n`);
  for (const [key, value] of Object.entries(result)) process.stdout.write(`  ${key.padEnd(width)}  ${format(value)}\n`);
}
if (values.json) process.stdout.write(`\n${JSON.stringify(results, null, 2)}\n`);
