// Lint rules run by `npm test` (the `lint` script). Besides the recommended sets, one dependency rule keeps the
// heavy parts behind their seams: only src/storage/ imports LanceDB (and its Arrow types), only src/model/
// imports `openai`, so everything else loads without them (see README "Layout").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const seams = [
  { group: ['@lancedb/lancedb', '@lancedb/lancedb/*', 'apache-arrow', 'apache-arrow/*'], home: 'src/storage/' },
  { group: ['openai', 'openai/*'], home: 'src/model/' },
];

/** no-restricted-imports patterns for every seam except the one whose home is `except`. */
const restrictedImports = (except) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: seams
        .filter((seam) => seam.home !== except)
        .map((seam) => ({ group: seam.group, message: `Only ${seam.home} may import this; reach it through ctx.services.` })),
    },
  ],
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'test/fixtures/', 'scripts/eval/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      ...restrictedImports(undefined),
    },
  },
  ...seams.map((seam) => ({ files: [`${seam.home}**`], rules: restrictedImports(seam.home) })),
  // The operator page's script runs in the browser, served as is (no build step).
  {
    files: ['src/http/ui/**/*.js'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        sessionStorage: 'readonly',
        fetch: 'readonly',
        FormData: 'readonly',
        XMLHttpRequest: 'readonly',
        Intl: 'readonly',
      },
    },
  },
  // Tests read loosely typed results (JSON bodies, structured content) and assert their shape.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // Tests may build storage fixtures directly (tables in the layout of an earlier version, say).
  { files: ['test/**'], rules: restrictedImports('src/storage/') },
);
