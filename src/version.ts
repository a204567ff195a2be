/** The package version, read from package.json (found by walking up from this file, in src/ or dist/src/). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function readVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'docent' && pkg.version) return pkg.version;
    } catch {
      // not here; keep walking up
    }
    dir = path.dirname(dir);
  }
  return '0.0.0';
}

export const VERSION = readVersion();
