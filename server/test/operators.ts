import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { Express } from 'express';
import request from 'supertest';
import { AccountModel } from '../src/modules/accounts/account.model';
import { consoleToken } from '../src/modules/accounts/operatorSecurity.service';
import { testEnv } from './helpers';

export const OPERATOR_PASSWORD = 'correct horse battery';
// a cheap hash keeps test set-up fast; sign-in compares it like any other
const cheapHash = bcrypt.hashSync(OPERATOR_PASSWORD, 4);

/** A console account with these permissions ('*' for everything), and a token of a new session of it, signed with the test secret. */
export async function createOperator(permissions: string[] = ['*'], fields: Record<string, unknown> = {}) {
  const account = await AccountModel.create({
    username: `operator_${randomBytes(4).toString('hex')}`,
    passwordHash: cheapHash,
    permissions,
    ...fields,
  });
  return {
    account,
    id: String(account._id),
    token: await consoleToken(account, testEnv().JWT_SECRET),
  };
}

/** supertest calls to the console API carrying an operator's token (or the one `token()` gives at each call). */
export function consoleApi(app: Express, token: string | (() => string)) {
  const auth = (test: request.Test) => test.set('Authorization', `Bearer ${typeof token === 'string' ? token : token()}`);
  return {
    get: (path: string, query: Record<string, unknown> = {}) =>
      auth(request(app).get(`/api/admin${path}`)).query(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, JSON.stringify(v)]))),
    post: (path: string, body: unknown = {}) => auth(request(app).post(`/api/admin${path}`)).send(body as object),
    put: (path: string, body: unknown = {}) => auth(request(app).put(`/api/admin${path}`)).send(body as object),
    delete: (path: string) => auth(request(app).delete(`/api/admin${path}`)),
  };
}

/** For a file or describe block: the console API as one operator holding `permissions`, created before its tests. */
export function operatorConsole(app: Express, permissions: string[] = ['*']) {
  let token = '';
  beforeAll(async () => {
    token = (await createOperator(permissions)).token;
  });
  return consoleApi(app, () => token);
}
