// Adds the lock entries of other platforms' optional binaries (@swc/core-darwin-arm64, @turbo/windows-64, …)
// that a partial npm registry copy does not serve. npm writes the lock without them there, and `npm ci` then
// refuses the lock as out of sync. The entries added carry os/cpu, so npm skips them on this platform without
// fetching; they are what a lock written against the full registry holds. Prints what it adds; idempotent.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const lockPath = path.resolve(process.argv[2] ?? 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages ?? {};

const OS = {
  darwin: 'darwin',
  win32: 'win32',
  windows: 'win32',
  linux: 'linux',
  android: 'android',
  freebsd: 'freebsd',
  openharmony: 'openharmony',
  netbsd: 'netbsd',
  openbsd: 'openbsd',
  sunos: 'sunos',
  aix: 'aix',
};
const CPU = {
  arm64: 'arm64',
  aarch64: 'arm64',
  x64: 'x64',
  64: 'x64',
  ia32: 'ia32',
  arm: 'arm',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
};
const LIBC = { gnu: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };

/** os / cpu / libc from a platform package's name, e.g. "resolver-binding-linux-arm-musleabihf". */
function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.map((t) => OS[t]).find(Boolean);
  const cpu =
    tokens.map((t) => CPU[t]).find(Boolean) ??
    (tokens.some((t) => /^(gnu|musl)?eabi(hf)?$/.test(t) || t === 'gnueabihf' || t === 'musleabihf') ? 'arm' : undefined);
  const libc = tokens.map((t) => LIBC[t]).find(Boolean);
  return os ? { os, cpu, libc } : undefined;
}

/** Where node would find `name` from the package at `from`: its own node_modules, then each parent's. */
function resolvedFrom(from, name) {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut >= 0 ? dir.slice(0, cut) : '';
  }
}

const added = [];
const skipped = [];
for (const [from, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolvedFrom(from, name)) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) {
      skipped.push(`${name}@${spec} (wanted by ${from || 'the root'})`);
      continue;
    }
    const key = packages[`node_modules/${name}`] ? `${from}/node_modules/${name}` : `node_modules/${name}`;
    packages[key] = {
      version: spec,
      ...(platform.cpu ? { cpu: [platform.cpu] } : {}),
      ...(entry.dev ? { dev: true } : {}),
      ...(entry.devOptional ? { devOptional: true } : {}),
      ...(platform.libc ? { libc: [platform.libc] } : {}),
      optional: true,
      os: [platform.os],
    };
    added.push(`${key}@${spec}`);
  }
}

if (added.length) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'))),
  );
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(
  added.length
    ? `package-lock.json: added ${added.length} other-platform optional entries:\n  ${added.join('\n  ')}`
    : 'package-lock.json: complete',
);
if (skipped.length) console.log(`missing optional dependencies left as they are (not platform binaries):\n  ${skipped.join('\n  ')}`);
