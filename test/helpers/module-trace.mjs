/**
 * Records every module a Node process loads, for tests that prove heavy modules stay unloaded:
 * `node --import ./test/helpers/module-trace.mjs ...` with DOCENT_MODULE_TRACE=<file>. ES modules are
 * recorded as they resolve (a loader hook), CommonJS modules from the require cache at exit.
 * Lines read `esm <url>` or `cjs <path>`.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const out = process.env.DOCENT_MODULE_TRACE;
if (out) {
  writeFileSync(out, '');
  register('./module-trace-hooks.mjs', import.meta.url, { data: { out } });
  const require = createRequire(import.meta.url);
  process.on('exit', () => {
    appendFileSync(
      out,
      Object.keys(require.cache)
        .map((file) => `cjs ${file}\n`)
        .join(''),
    );
  });
}
