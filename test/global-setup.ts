import { existsSync } from 'node:fs';

// Integration tests spawn the built CLI; `npm test` builds first (pretest). Fail early and clearly otherwise.
export default function setup(): void {
  if (!existsSync(new URL('../dist/src/cli/main.js', import.meta.url))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does this for you).');
  }
}
