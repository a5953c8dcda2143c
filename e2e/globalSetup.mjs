// The browser tests need the database of the server tests and the built front ends.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import serverGlobalSetup from '../server/test/globalSetup.mjs';
import { CHROMIUM } from './chromium.mjs';

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

function succeeds(command, args) {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The browser tests drive Debian's Chromium. On a fresh Debian or Ubuntu machine without it, they install it
 * as `.ci/run` does (as root, or with password-less sudo); anywhere else they stop with how to get one.
 */
function ensureChromium() {
  const chromium = CHROMIUM;
  if (existsSync(chromium)) return;
  const how = 'install it ("sudo apt-get install -y chromium" on Debian or Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary';
  if (process.env.CHROMIUM_PATH) throw new Error(`CHROMIUM_PATH is ${chromium}, which does not exist: ${how}.`);
  const asRoot = process.getuid?.() === 0;
  const viaSudo = !asRoot && succeeds('sudo', ['-n', 'true']);
  if (!succeeds('sh', ['-c', 'command -v apt-get']) || (!asRoot && !viaSudo))
    throw new Error(`The browser tests need Chromium at /usr/bin/chromium: ${how}.`);
  console.log('\n[e2e] Chromium is missing: installing it with apt-get…');
  const apt = (args) =>
    execFileSync(viaSudo ? 'sudo' : 'apt-get', viaSudo ? ['-n', 'apt-get', ...args] : args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', 'chromium']);
}

export default async function globalSetup() {
  ensureChromium();
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
