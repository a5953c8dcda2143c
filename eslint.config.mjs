// One lint config for every workspace (as create-t3-turbo's tooling/eslint): type-checked TypeScript rules,
// React hooks rules for the two front ends, and the module boundary of server/src/modules.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['**/dist/', '**/coverage/', 'screenshots/', 'bench-results/', 'client/dev-dist/']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.ts', '*.mjs'] }, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // an ObjectId prints its hex string: the form every id takes in messages and keys
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allow: [
            { name: 'ObjectId', from: 'package', package: 'bson' },
            { name: 'ObjectId', from: 'package', package: 'mongoose' },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // plain JavaScript (build scripts, jest setup, benchmarks' helpers) is in no tsconfig
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // a jest environment module, which jest loads as CommonJS
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['client/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // a module uses another module's service, never its model (tests arrange other collections directly)
    files: ['server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./[^/]+/[^/]+\\.models?$',
              message: "A module uses another module's service, never its model.",
            },
          ],
        },
      ],
    },
  },
  {
    // tests read response bodies (supertest, fetch().json()) and mocks that are untyped JSON by nature;
    // their assertions are what checks the shape
    files: ['**/*.test.{ts,tsx}', '**/test/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // test doubles implement promise-returning interfaces (react-admin providers, fetch) with async bodies
      '@typescript-eslint/require-await': 'off',
    },
  },
);
