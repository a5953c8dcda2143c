/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' }, module: { type: 'commonjs' } }] as const;
// ESM-only packages that jest (CommonJS) must transform
const esmPackages = ['superjson', 'copy-anything', 'is-what', '@trpc'];
const transformIgnorePatterns = [`/node_modules/(?!(${esmPackages.join('|')})/)`];

const config: Config = {
  projects: [
    {
      displayName: 'shared',
      testEnvironment: 'node',
      roots: ['<rootDir>/shared/src'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc as never },
      transformIgnorePatterns,
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      roots: ['<rootDir>/server/src', '<rootDir>/server/test'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc as never },
      transformIgnorePatterns,
      globalSetup: '<rootDir>/server/test/globalSetup.mjs',
      globalTeardown: '<rootDir>/server/test/globalTeardown.mjs',
      setupFilesAfterEnv: ['<rootDir>/server/test/setupDb.ts'],
      testTimeout: 30_000,
    },
  ],
};
export default config;
