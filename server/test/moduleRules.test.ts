import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { moduleRuleViolations } from '../scripts/moduleRules.mjs';

/** The module rules `npm run lint` enforces: they hold on the tree, and each breach planted in a copy is caught. */
const SRC = path.resolve(__dirname, '../src');

function tree(files: Record<string, string>) {
  const root = mkdtempSync(path.join(tmpdir(), 'module-rules-'));
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
  return root;
}

const healthy = {
  'lib/errors.ts': 'export class AppError {}\n',
  'modules/coins/coin.model.ts': 'export const CoinModel = {};\n',
  'modules/coins/coins.service.ts': "import { CoinModel } from './coin.model';\nexport const coins = () => CoinModel;\n",
  'modules/missions/missions.service.ts': "import { coins } from '../coins/coins.service';\nexport const missions = () => coins();\n",
  'modules/missions/missions.test.ts': "import { CoinModel } from '../coins/coin.model';\nexport const arranged = CoinModel;\n",
};

let roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
const check = (files: Record<string, string>) => {
  const root = tree(files);
  roots = [...roots, root];
  return moduleRuleViolations(root);
};

describe('the module rules', () => {
  it('hold on the server as it is: no cycle between modules, services only, infrastructure imports no module', () => {
    expect(moduleRuleViolations(SRC)).toEqual([]);
  });

  it('let a module use another through its service, and a test arrange data with its model', () => {
    expect(check(healthy)).toEqual([]);
  });

  it('catch a cycle between modules', () => {
    const violations = check({
      ...healthy,
      'modules/coins/coins.service.ts': "import { missions } from '../missions/missions.service';\nexport const coins = () => missions;\n",
    });
    expect(violations).toEqual([expect.stringMatching(/^a cycle between modules: .*coins\.service.*missions\.service/)]);
  });

  it("catch an import of another module's model, router or other file", () => {
    const violations = check({
      ...healthy,
      'modules/missions/missions.service.ts':
        "import { CoinModel } from '../coins/coin.model';\nexport const missions = () => CoinModel;\n",
    });
    expect(violations).toEqual([
      'modules/missions/missions.service.ts imports modules/coins/coin.model: another module is reached through its services only',
    ]);
  });

  it('catch infrastructure importing a module, even its service', () => {
    const violations = check({
      ...healthy,
      'lib/errors.ts': "import { coins } from '../modules/coins/coins.service';\nexport const x = coins;\n",
    });
    expect(violations).toEqual(['lib/errors.ts imports modules/coins/coins.service: infrastructure never imports a module']);
  });
});
