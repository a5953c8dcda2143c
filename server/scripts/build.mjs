// Compiles the server to dist/index.js for production: one CommonJS file for Node 20 with `shared` (TypeScript
// source) bundled in; every npm package stays an ordinary require of the production node_modules.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Packages load from node_modules at run time; the workspace packages are source and are compiled in. */
const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@gift/') ? undefined : { path: args.path, external: true }));
  },
};

// `node scripts/build.mjs <outfile>` builds elsewhere (the crash test, so it never rewrites a file another test runs)
const outfile = process.argv[2] ? path.resolve(process.argv[2]) : path.join(serverDir, 'dist/index.js');

const result = await build({
  entryPoints: [path.join(serverDir, 'src/index.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  // stack traces keep the names of functions and classes (errors are logged by name)
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [npmPackagesExternal],
});

const output = result.metafile.outputs[path.relative(process.cwd(), outfile)];
const kb = output ? ` (${Math.round(output.bytes / 1024)} kB)` : '';
console.log(`server: built ${path.relative(serverDir, outfile)}${kb}`);
