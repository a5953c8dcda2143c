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
// the player app's router ships ESM only
const clientEsmPackages = [...esmPackages, 'wouter', 'regexparam'];
// react-admin's own dependencies that ship ESM only
const adminEsmPackages = [...esmPackages, 'react-hotkeys-hook'];

const config: Config = {
  // a global option: jest ignores it inside a project; concurrency tests on 2 cores need the room
  testTimeout: 30_000,
  // Two workers, each a child process recycled once it holds more than 1 GB after a file. On 2 cores jest would
  // otherwise run every file inside its own process (in band), which grew past node's 4 GB heap after ~140 files.
  // `npm test` runs the unit and process tests first and the browser tests after them, so a browser test never
  // shares the two cores with the crash test's killed and restarted processes.
  maxWorkers: 2,
  workerIdleMemoryLimit: '1GB',
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
      transformIgnorePatterns: [`/node_modules/(?!(${clientEsmPackages.join('|')})/)`],
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
