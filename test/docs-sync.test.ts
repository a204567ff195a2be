import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../presets/index.js';
import { TOOLS } from '../tools/index.js';
import { withTable } from '../scripts/write-config-docs.js';
import { withToolTable } from '../scripts/write-readme-tools.js';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

describe('documentation stays in step with the code', () => {
  it('docs/configuration.md carries the generated settings table (run `npm run docs:config`)', () => {
    const page = read('docs/configuration.md');
    expect(page).toBe(withTable(page));
  });

  it('the README carries the tool table generated from the registry (run `npm run docs:tools`), and every preset', () => {
    const readme = read('README.md');
    expect(readme).toBe(withToolTable(readme));
    for (const tool of TOOLS) expect(readme).toContain(`| \`${tool.name}\` | \`${tool.side_effects}\` |`);
    for (const preset of PRESETS) expect(readme).toContain(`\`${preset.name}\``);
  });
});
