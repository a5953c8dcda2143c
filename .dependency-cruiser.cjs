// The server's module rules, checked by `npm run lint` (`npm run depcruise`) with dependency-cruiser; paths are relative
// to the repository. From the ground up the server holds lib/, db/ and env.ts (infrastructure); http/ (the transport
// kits: console resources, operator auth, tRPC procedures); modules/; and the composition roots (app.ts, index.ts,
// jobs.ts, rest/registry.ts, trpc/root.ts), which mount the modules' doors and hand the kits what they need from the modules
// (http/ports.ts). The rules keep the arrows pointing down; each is an error, with no exception. Tests (`*.test.ts`) are
// left out: a test may arrange data with any module's model. The cycle between modules is checked by the modules-only
// run (.dependency-cruiser-modules.cjs).

/** Where the app is put together: these mount each module's doors. */
const COMPOSITION_ROOTS = '^server/src/(app|index|jobs|moneyKinds|rest/registry|trpc/root)\\.ts$';
/** The transport kits that modules import (auth, resources, procedures). */
const TRANSPORT_KITS = '^server/src/http/';
const MODULE = '^server/src/modules/[^/]+/';
const SERVICE = '\\.service\\.ts$';
/**
 * What a composition root mounts: services, tRPC routers, console resources, Express routers, background jobs, money kinds,
 * the bot's runtime.
 */
const DOOR = '\\.(service|router|rest|resource|jobs|kinds)\\.ts$|/botRuntime\\.ts$';
const ROUTER_OR_RESOURCE = '\\.(router|rest|resource)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No loop between two files of the server.',
      severity: 'error',
      from: { path: '^server/src/' },
      to: { circular: true },
    },
    {
      name: 'module-through-services-only',
      comment: 'Another module is reached through its services only, never its models, routers, resources or REST files.',
      severity: 'error',
      from: { path: '^server/src/modules/([^/]+)/' },
      to: { path: MODULE, pathNot: ['^server/src/modules/$1/', SERVICE] },
    },
    {
      name: 'outside-through-services-only',
      comment: 'Code outside the modules (kits, doors) reaches a module through its services only.',
      severity: 'error',
      from: { path: '^server/src/', pathNot: ['^server/src/(modules|db|lib)/', COMPOSITION_ROOTS] },
      to: { path: MODULE, pathNot: SERVICE },
    },
    {
      name: 'roots-mount-doors-only',
      comment: "A composition root mounts a module's doors (services, routers, resources, REST files, the bot's runtime).",
      severity: 'error',
      from: { path: COMPOSITION_ROOTS },
      to: { path: MODULE, pathNot: DOOR },
    },
    {
      name: 'infrastructure-imports-no-module',
      comment: 'Infrastructure (server/src/db, server/src/lib) never imports a module.',
      severity: 'error',
      from: { path: '^server/src/(db|lib)/' },
      to: { path: '^server/src/modules/' },
    },
    {
      name: 'kits-import-no-module',
      comment:
        'A transport kit (server/src/http/) sits below the modules that import it: it never imports a module (what it ' +
        'needs from one, a root hands in through http/ports.ts).',
      severity: 'error',
      from: { path: TRANSPORT_KITS },
      to: { path: '^server/src/modules/' },
    },
    {
      name: 'only-roots-import-routers-and-resources',
      comment: 'Only the composition roots (app.ts, index.ts, rest/registry.ts, trpc/root.ts) import routers and resources.',
      severity: 'error',
      from: { path: '^server/src/', pathNot: COMPOSITION_ROOTS },
      to: { path: ROUTER_OR_RESOURCE },
    },
    {
      name: 'modules-import-no-transport-root',
      comment:
        'rest/ and trpc/ hold the composition roots, which import the modules and the kits: a module or a kit importing ' +
        'a file there is an arrow climbing back up.',
      severity: 'error',
      from: { path: '^server/src/(modules|http)/' },
      to: { path: '^server/src/(rest|trpc)/' },
    },
  ],
  options: {
    includeOnly: '^server/src/',
    exclude: { path: '\\.test\\.ts$|\\.d\\.m?ts$' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mts', '.mjs', '.js', '.json'] },
  },
};
