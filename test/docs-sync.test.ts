import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../presets/index.js';
import { loadConfig } from '../src/config.js';
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

  it('the quick start, the agent-host configurations and the HTTP key all use one tenant, the default one', () => {
    const readme = read('README.md');
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    // The quick start names no tenant, so it fills the configured default...
    expect(scripts.quickstart).toMatch(/ingest README\.md docs/);
    expect(scripts.quickstart).not.toMatch(/--tenant|DOCENT_TENANT/);
    expect(loadConfig({ env: {}, overrides: { dataDir: '/tmp/unused' } }).tenant).toBe('default');
    // ...which is the tenant every host configuration and the HTTP example key name.
    const hostTenants = [...readme.matchAll(/DOCENT_TENANT(?:=|": ")([^\s"]+)/g)].map((m) => m[1]);
    const keyTenants = [...readme.matchAll(/keys create --tenant ([^\s\]]+) --json/g)].map((m) => m[1]);
    expect(hostTenants.length).toBeGreaterThanOrEqual(3);
    expect(new Set([...hostTenants, ...keyTenants])).toEqual(new Set(['default']));
  });
});
