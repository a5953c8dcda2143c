import { randomBytes } from 'node:crypto';
import { upsertWithRetry } from '../../db/mongoErrors';
import { DEV_JWT_SECRET, type Env } from '../../env';
import type { Logger } from '../../lib/logger';
import { SigningSecretModel } from './signingSecret.model';

const SECRET_NAME = 'jwt';

/** Where the secret that signs tokens came from, as the start-up log says it. */
export type SigningSecretSource = 'JWT_SECRET' | 'generated and stored in the database' | 'development constant (embedded demo database)';

/** The database's own secret: created once, by whichever instance comes first, and read by all of them after. */
async function storedSecret(): Promise<string> {
  const stored = await upsertWithRetry(() =>
    SigningSecretModel.findOneAndUpdate(
      { name: SECRET_NAME },
      { $setOnInsert: { name: SECRET_NAME, secret: randomBytes(48).toString('base64url'), createdAt: new Date() } },
      { upsert: true, returnDocument: 'after', lean: true },
    ),
  );
  return stored!.secret;
}

/**
 * The secret tokens are signed with. JWT_SECRET when set (other than the development constant, which is
 * in the source for anyone to read); on the embedded demo database the development constant; on any other
 * database (MONGO_URL, with or without NODE_ENV=production) a random secret generated once and kept in
 * the database, so every instance signs alike and a token forged with the constant opens nothing.
 */
export async function chooseSigningSecret(
  env: Env,
  database: { embedded: boolean },
  logger: Logger,
): Promise<{ env: Env; source: SigningSecretSource }> {
  let source: SigningSecretSource;
  let secret = env.JWT_SECRET;
  if (env.JWT_SECRET !== DEV_JWT_SECRET) source = 'JWT_SECRET';
  else if (database.embedded) source = 'development constant (embedded demo database)';
  else {
    secret = await storedSecret();
    source = 'generated and stored in the database';
  }
  if (source === 'generated and stored in the database')
    logger.warn({ signingSecret: source }, 'JWT_SECRET is not set: tokens are signed with a secret generated and stored in the database');
  else logger.info({ signingSecret: source }, `tokens are signed with the ${source}`);
  return { env: { ...env, JWT_SECRET: secret }, source };
}
