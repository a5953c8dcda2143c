// The server's module rules, checked by `npm run lint` (as dependency-cruiser would; no dependency needed):
// - no cycle between the modules of server/src/modules;
// - code outside a module (another module, the doors) reaches it only through its services (`*.service.ts`);
//   the composition roots (app.ts, index.ts, rest/registry.ts, trpc/root.ts) also mount its doors (routers,
//   `*.resource.ts` console resources, `*.rest.ts` Express routers, the bot's runtime);
// - infrastructure (server/src/db, server/src/lib) never imports a module.
// Tests (`*.test.ts`) may arrange data with any module's model. `node server/scripts/moduleRules.mjs [srcDir]`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Known breaches, each to be removed by the issue that names it: none today, and nothing may be added here. */
export const ADMITTED = new Map();

/** Where the app is put together: these mount each module's doors. */
const COMPOSITION_ROOTS = new Set(['app.ts', 'index.ts', 'rest/registry.ts', 'trpc/root.ts']);
const DOOR = /\.(service|router|rest|resource)$|\/botRuntime$/;

const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm;

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every breach of the rules under `srcDir` (server/src), one line each. */
export function moduleRuleViolations(srcDir) {
  const modulesDir = path.join(srcDir, 'modules');
  const moduleOf = (file) => {
    const relative = path.relative(modulesDir, file);
    return relative.startsWith('..') ? null : relative.split(path.sep)[0];
  };
  const violations = [];
  const edges = new Map();
  for (const file of filesUnder(srcDir)) {
    const from = path.relative(srcDir, file).split(path.sep).join('/');
    if (from.endsWith('.test.ts') || ADMITTED.has(from)) continue;
    const fromModule = moduleOf(file);
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(IMPORT)) {
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      const toModule = moduleOf(target);
      if (!toModule || toModule === fromModule) continue;
      const to = path.relative(srcDir, target).split(path.sep).join('/');
      if (/^(db|lib)\//.test(from)) violations.push(`${from} imports ${to}: infrastructure never imports a module`);
      else if (!(COMPOSITION_ROOTS.has(from) ? DOOR : /\.service$/).test(to))
        violations.push(`${from} imports ${to}: another module is reached through its services only`);
      if (fromModule) {
        if (!edges.has(fromModule)) edges.set(fromModule, new Map());
        if (!edges.get(fromModule).has(toModule)) edges.get(fromModule).set(toModule, `${from} -> ${to}`);
      }
    }
  }
  // a cycle between modules: a path back to where it started
  const seen = new Set();
  // one line per cycle, whichever of its modules the walk started from
  const cycles = new Map();
  const walk = (module, pathSoFar) => {
    for (const [next, via] of edges.get(module) ?? []) {
      const at = pathSoFar.findIndex((step) => step.module === next);
      if (at >= 0) {
        const loop = [...pathSoFar.slice(at).map((step) => step.via), via].filter(Boolean);
        const key = pathSoFar
          .slice(at)
          .map((step) => step.module)
          .sort()
          .join(' ');
        if (!cycles.has(key)) cycles.set(key, `a cycle between modules: ${loop.join(', ')}`);
      } else if (!seen.has(`${pathSoFar.map((s) => s.module).join('>')}>${next}`) && pathSoFar.length < 20) {
        seen.add(`${pathSoFar.map((s) => s.module).join('>')}>${next}`);
        walk(next, [...pathSoFar, { module: next, via }]);
      }
    }
  };
  for (const module of edges.keys()) walk(module, [{ module, via: null }]);
  return [...violations, ...cycles.values()];
}

if (process.argv[1]?.endsWith(path.join('scripts', 'moduleRules.mjs'))) {
  const srcDir = path.resolve(process.argv[2] ?? path.join(path.dirname(process.argv[1]), '..', 'src'));
  const violations = moduleRuleViolations(srcDir);
  for (const line of violations) console.error(line);
  if (violations.length) {
    console.error(
      `\n${violations.length} breach${violations.length === 1 ? '' : 'es'} of the module rules (server/scripts/moduleRules.mjs)`,
    );
    process.exit(1);
  }
  console.log('module rules: no cycle between modules, modules reached through their services, infrastructure imports none');
}
