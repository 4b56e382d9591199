// ESLint (flat config): typescript-eslint's recommended rules with type information, over the
// product, its schemas and fixtures, the tests, the bench and scripts. Formatting is Prettier's
// job (npm run lint runs both).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['src/client/api.ts', 'dist/**', 'node_modules/**', 'tmp/**', 'coverage/**', '.tap/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // the one tsconfig.json, which includes every TypeScript file, as the program: measured with no
      // cache (the fresh clone CI lints), 54-58 s of CPU and 1.6-1.8 GB against 64-66 s and 2.2 GB for
      // the project service, with the same findings
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // TypeScript itself reports undefined names (and knows Node's globals)
      'no-undef': 'off',
      // unused names are errors, except the `_`-prefixed ones kept on purpose (destructuring away a field)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // routes are async handlers that Fastify awaits; hooks in callback style are deliberate (no promise per request)
      '@typescript-eslint/require-await': 'off',
      // JSON from sockets, SQLite rows and fixtures is typed at the boundary by casts the schemas back
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // String(x) and `${x}` of unknown values are deliberate (error messages, HTML escaping of anything)
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      // a failure caught inside a transaction callback is rethrown as it was caught
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
      // a name used only as a type is imported as one: the tests run the sources through Node's own
      // type stripping, which (like tsconfig's verbatimModuleSyntax) keeps every import not marked
      // `type`, so an unmarked one would load a module the compiled build does not
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // and an import of nothing but types is `import type`, which leaves nothing behind
      '@typescript-eslint/no-import-type-side-effects': 'error',
    },
  },
  {
    // tests use tap's loose assertion helpers and `any` for response bodies checked against schemas
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // t.equal & co. are passed around; ANSI colour codes are matched on purpose
      '@typescript-eslint/unbound-method': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
