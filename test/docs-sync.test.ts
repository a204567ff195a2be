import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../presets/index.js';
import { TOOLS } from '../tools/index.js';
import { withTable } from '../scripts/write-config-docs.js';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

describe('documentation stays in step with the code', () => {
  it('docs/configuration.md carries the generated settings table (run `npm run docs:config`)', () => {
    const page = read('docs/configuration.md');
    expect(page).toBe(withTable(page));
  });

  it('the README lists every tool with its side effects, cost class and secret, and every preset', () => {
    const readme = read('README.md');
    for (const tool of TOOLS) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${tool.name}\` |`));
      expect(row, `README tool row for ${tool.name}`).toBeDefined();
      expect(row).toContain(`\`${tool.side_effects}\``);
      expect(row).toContain(`\`${tool.cost_class}\``);
      expect(row).toContain(tool.requires_secret ? '| yes |' : '| no |');
    }
    for (const preset of PRESETS) expect(readme).toContain(`\`${preset.name}\``);
  });
});
