// The browser tests need the database of the server tests and the built front ends.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import serverGlobalSetup from '../server/test/globalSetup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestChange(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

/** A front end is rebuilt when it has no build, or when its sources (or shared's) changed since. */
function needsBuild(app) {
  const built = path.join(root, app, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((entry) => path.join(root, app, entry));
  sources.push(path.join(root, 'shared', 'src'));
  return Math.max(...sources.map(newestChange)) > statSync(built).mtimeMs;
}

export default async function globalSetup() {
  await serverGlobalSetup();
  for (const app of ['client', 'admin']) {
    if (!needsBuild(app)) continue;
    console.log(`\n[e2e] building ${app}…`);
    // jest sets NODE_ENV=test, which would make Vite build React's slow development bundle
    execFileSync('npm', ['run', 'build', '--workspace', app], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
}
