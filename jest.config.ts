/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' },
    module: { type: 'commonjs' },
  },
] as const;
// ESM-only packages that jest (CommonJS) must transform
const esmPackages = ['superjson', 'copy-anything', 'is-what', '@trpc', '@otplib', '@scure', '@noble'];
const transformIgnorePatterns = [`/node_modules/(?!(${esmPackages.join('|')})/)`];
// react-admin's own dependencies that ship ESM only
const adminEsmPackages = [...esmPackages, 'react-hotkeys-hook'];

const config: Config = {
  // a global option: jest ignores it inside a project; concurrency tests on 2 cores need the room
  testTimeout: 30_000,
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
    },
    {
      displayName: 'client',
      testEnvironment: '<rootDir>/client/test/jsdomWithFetch.cjs',
      roots: ['<rootDir>/client/src'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc as never },
      transformIgnorePatterns,
      moduleNameMapper: { '\\.css$': '<rootDir>/client/test/styleStub.ts' },
      setupFilesAfterEnv: ['<rootDir>/client/test/setupTests.ts'],
    },
    {
      displayName: 'admin',
      testEnvironment: '<rootDir>/client/test/jsdomWithFetch.cjs',
      roots: ['<rootDir>/admin/src'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc as never },
      transformIgnorePatterns: [`/node_modules/(?!(${adminEsmPackages.join('|')})/)`],
      setupFilesAfterEnv: ['<rootDir>/admin/test/setupTests.ts'],
    },
    {
      // whole flows in a real browser against the built front ends and a live server
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/e2e'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc as never },
      transformIgnorePatterns,
      globalSetup: '<rootDir>/e2e/globalSetup.mjs',
      globalTeardown: '<rootDir>/e2e/globalTeardown.mjs',
      setupFilesAfterEnv: ['<rootDir>/server/test/setupDb.ts'],
    },
  ],
};
export default config;
