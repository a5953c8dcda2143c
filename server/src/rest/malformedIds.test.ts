import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { z } from 'zod';
import { createApp } from '../app';
import { GiftApprovalModel } from '../modules/gifts/giftApproval.model';
import { LedgerEntryModel } from '../modules/ledger/ledger.models';
import { appRouter } from '../trpc/root';
import { signPlayerToken } from '../modules/users/playerAuth.service';
import { createPlayer, playerCaller } from '../../test/factories';
import { testEnv } from '../../test/helpers';
import { consoleApi, createOperator } from '../../test/operators';
import { adminResources } from './registry';
import { resourceRouter } from '../http/resource';

/** A logger that keeps its error lines: a refused id must leave none (finding 14 left a stack trace per call). */
function recordingLogger() {
  const errors: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) if (JSON.parse(line).level >= 50) errors.push(line);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), errors };
}

/** Every route of every console resource whose path names `:id`, as Express holds them: method and path. */
function consoleRoutesWithId(): Array<[method: string, path: string]> {
  const routes: Array<[string, string]> = [];
  for (const definition of adminResources) {
    const router = resourceRouter(definition) as unknown as {
      stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }>;
    };
    for (const layer of router.stack) {
      const route = layer.route;
      if (!route || typeof route.path !== 'string' || !route.path.includes(':id')) continue;
      for (const method of Object.keys(route.methods)) routes.push([method, `/${definition.name}${route.path}`]);
    }
  }
  routes.push(['get', '/proofs/:id'], ['post', '/risk/:id/clear']);
  return routes;
}

const MALFORMED = ['not-an-id', '123', 'zzzzzzzzzzzzzzzzzzzzzzzz', 'abcdefabcdef'];

describe('malformed ids (finding 14)', () => {
  const { logger, errors } = recordingLogger();
  const app = createApp({ env: testEnv(), logger, clientDist: '/nonexistent', adminDist: '/nonexistent' });

  it('answer 400 with a field message on every console route that takes an id, and change nothing', async () => {
    const api = consoleApi(app, (await createOperator(['*'])).token);
    const routes = consoleRoutesWithId();
    // the doors of the finding are among those walked
    expect(routes).toEqual(
      expect.arrayContaining([
        ['post', '/gifts/:id/approve'],
        ['post', '/gifts/:id/reject'],
        ['post', '/users/:id/adjustments'],
        ['put', '/withdraws/:id'],
      ]),
    );
    expect(routes.length).toBeGreaterThan(40);
    const [entries, gifts] = [await LedgerEntryModel.countDocuments(), await GiftApprovalModel.countDocuments()];
    const answers: string[] = [];
    for (const [method, path] of routes) {
      for (const id of MALFORMED) {
        const url = path.replace(':id', id);
        const body = { amount: '5', coin: '0123456789abcdef01234567', note: 'x', idempotencyKey: 'malformed-1', rejectReason: 'x' };
        const res =
          method === 'get' ? await api.get(url) : method === 'delete' ? await api.delete(url) : await api[method as 'post'](url, body);
        answers.push(`${method} ${url} ${res.status} ${res.body?.errors?.id ?? ''}`);
      }
    }
    expect(answers.filter((answer) => !answer.endsWith(' 400 Invalid id'))).toEqual([]);
    expect([await LedgerEntryModel.countDocuments(), await GiftApprovalModel.countDocuments()]).toEqual([entries, gifts]);
    expect(errors).toEqual([]);
  });

  it("keeps App Config's `current` and an unknown well-formed id apart from a malformed one", async () => {
    const api = consoleApi(app, (await createOperator(['*'])).token);
    expect((await api.get('/app-config/current')).status).toBe(200);
    expect((await api.get('/categories/0123456789abcdef01234567')).status).toBe(404);
    expect((await api.get('/app-config/nonsense')).status).toBe(400);
  });

  it("answer 400 on every players' procedure that takes an id", async () => {
    const player = await createPlayer();
    const caller = playerCaller(player) as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>;
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs: unknown[] } }>;
    const walked: string[] = [];
    for (const [name, procedure] of Object.entries(procedures)) {
      const input = procedure._def.inputs[0];
      if (!(input instanceof z.ZodObject)) continue;
      const idFields = Object.keys(input.shape as object).filter((field) => /Id$/.test(field) && field !== 'requestId');
      if (!idFields.length) continue;
      const [group, call] = name.split('.') as [string, string];
      for (const field of idFields) {
        walked.push(name);
        await expect(caller[group]![call]!({ [field]: 'not-an-id' })).rejects.toMatchObject({
          code: 'BAD_REQUEST',
          cause: { issues: expect.arrayContaining([expect.objectContaining({ path: [field], message: 'Invalid id' })]) },
        });
      }
    }
    expect(walked).toEqual(expect.arrayContaining(['missions.go', 'missions.claim', 'staking.stake']));
    // and over HTTP: 400, not 500
    const res = await request(app)
      .post('/trpc/missions.go')
      .set('Authorization', `Bearer ${signPlayerToken(String(player._id), testEnv().JWT_SECRET, new Date())}`)
      .send({ json: { missionId: 'not-an-id' } });
    expect(res.status).toBe(400);
    expect(errors).toEqual([]);
  });
});
