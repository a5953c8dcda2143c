import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The module rules `npm run lint` enforces with dependency-cruiser: its `depcruise` script, as package.json spells it, run
 * on the server as it is and on temporary trees (with the same configuration) holding a planted breach each.
 */
const REPO = path.resolve(__dirname, '../..');
const CONFIG_FILES = ['.dependency-cruiser.cjs', '.dependency-cruiser-modules.cjs'];
const { scripts } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** `npm run depcruise` (the lint's dependency-cruiser step) in `root`: whether it failed, and what it printed. */
function lint(root: string) {
  const result = spawnSync('sh', ['-c', scripts.depcruise!], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${path.join(REPO, 'node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  return { failed: result.status !== 0, output: `${result.stdout}${result.stderr}` };
}

// each check runs dependency-cruiser twice as a process: slow on a loaded 2-core machine
jest.setTimeout(120_000);

let roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function tree(files: Record<string, string>) {
  const root = mkdtempSync(path.join(tmpdir(), 'dependency-rules-'));
  roots = [...roots, root];
  for (const file of CONFIG_FILES) cpSync(path.join(REPO, file), path.join(root, file));
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, 'server/src', file)), { recursive: true });
    writeFileSync(path.join(root, 'server/src', file), source);
  }
  return root;
}

/** A copy of the server's sources, with `line` added to the top of `file`. */
function serverWith(file: string, line: string) {
  const root = tree({});
  cpSync(path.join(REPO, 'server/src'), path.join(root, 'server/src'), { recursive: true });
  const target = path.join(root, 'server/src', file);
  writeFileSync(target, `${line}\n${readFileSync(target, 'utf8')}`);
  return root;
}

const healthy = {
  'app.ts': "import { coinsRouter } from './modules/coins/coins.router';\nexport const app = coinsRouter;\n",
  'lib/errors.ts': 'export class AppError {}\n',
  'http/resource.ts': "import { AppError } from '../lib/errors';\nexport const resource = AppError;\n",
  'modules/coins/coin.model.ts': 'export const CoinModel = {};\n',
  'modules/coins/coins.service.ts': "import { CoinModel } from './coin.model';\nexport const coins = () => CoinModel;\n",
  'modules/coins/coins.router.ts': "import { coins } from './coins.service';\nexport const coinsRouter = coins;\n",
  'modules/coins/coins.extra.service.ts': 'export const extra = 1;\n',
  'modules/missions/missions.service.ts': "import { coins } from '../coins/coins.service';\nexport const missions = () => coins();\n",
  'modules/missions/missions.test.ts': "import { CoinModel } from '../coins/coin.model';\nexport const arranged = CoinModel;\n",
};

describe('the module rules, through dependency-cruiser', () => {
  it('hold on the server as it is, without an exception', () => {
    const { failed, output } = lint(REPO);
    expect(output).not.toMatch(/^\s*(error|warn) /m);
    expect(failed).toBe(false);
  });

  it('let a module use another through its service, and a test arrange data with its model', () => {
    const { failed, output } = lint(tree(healthy));
    expect(output).not.toContain('error');
    expect(failed).toBe(false);
  });

  it('fail on a cycle between modules, even one no file loop closes', () => {
    const { failed, output } = lint(
      tree({
        ...healthy,
        'modules/coins/coins.extra.service.ts':
          "import { missions } from '../missions/missions.service';\nexport const extra = missions;\n",
      }),
    );
    expect(output).toMatch(/error no-module-cycle: server\/src\/modules\/(coins|missions)/);
    expect(output).not.toContain('no-circular');
    expect(failed).toBe(true);
  });

  it("fail on an import of another module's model, router or other file", () => {
    const { failed, output } = lint(
      tree({
        ...healthy,
        'modules/missions/missions.service.ts':
          "import { CoinModel } from '../coins/coin.model';\nexport const missions = () => CoinModel;\n",
      }),
    );
    expect(output).toContain(
      'error module-through-services-only: server/src/modules/missions/missions.service.ts → server/src/modules/coins/coin.model.ts',
    );
    expect(failed).toBe(true);
  });

  it('fail on infrastructure importing a module, even its service', () => {
    const { failed, output } = lint(
      tree({ ...healthy, 'lib/errors.ts': "import { coins } from '../modules/coins/coins.service';\nexport const x = coins;\n" }),
    );
    expect(output).toContain(
      'error infrastructure-imports-no-module: server/src/lib/errors.ts → server/src/modules/coins/coins.service.ts',
    );
    expect(failed).toBe(true);
  });

  it('fail on a transport kit importing a module, and on anything but a root importing a router', () => {
    const { failed, output } = lint(
      tree({
        ...healthy,
        'http/resource.ts': "import { coins } from '../modules/coins/coins.service';\nexport const resource = coins;\n",
        'modules/coins/coins.job.ts': "import { coinsRouter } from './coins.router';\nexport const job = coinsRouter;\n",
      }),
    );
    expect(output).toContain('error kits-import-no-module: server/src/http/resource.ts → server/src/modules/coins/coins.service.ts');
    expect(output).toContain(
      'error only-roots-import-routers-and-resources: server/src/modules/coins/coins.job.ts → server/src/modules/coins/coins.router.ts',
    );
    expect(failed).toBe(true);
  });

  it('fail on the server with a kit importing a module', () => {
    const { failed, output } = lint(serverWith('http/adminAuth.ts', "import '../modules/coins/giftCoins.service';"));
    expect(output).toContain('error kits-import-no-module: server/src/http/adminAuth.ts → server/src/modules/coins/giftCoins.service.ts');
    expect(failed).toBe(true);
  });

  it('fail on the server with a module importing a composition root of rest/ or trpc/', () => {
    const { failed, output } = lint(serverWith('modules/home/home.router.ts', "import '../../trpc/root';"));
    expect(output).toContain('error modules-import-no-transport-root: server/src/modules/home/home.router.ts → server/src/trpc/root.ts');
    expect(failed).toBe(true);
  });

  it('fail on the server with a planted loop between two modules', () => {
    const { failed, output } = lint(serverWith('modules/coins/giftCoins.service.ts', "import '../withdrawals/withdrawals.service';"));
    // a loop of files too: the whole-server run stops lint before the modules-only run
    expect(output).toMatch(/error no-circular: server\/src\/modules\/(coins\/giftCoins|withdrawals\/withdrawals)\.service\.ts/);
    expect(failed).toBe(true);
  });
});
