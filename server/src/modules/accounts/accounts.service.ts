import bcrypt from 'bcryptjs';
import type { Types } from 'mongoose';
import type { z } from 'zod';
import { OBJECT_ID_PATTERN, type accountCreateInput, type accountUpdateInput } from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import { objectId } from '../../db/ids';
import type { AdminPrincipal } from '../../http/ports';
import type { Logger } from '../../lib/logger';
import { isDuplicateKey } from '../../db/mongoErrors';
import type { ConsoleRecord } from '../../db/schemaKit';
import { AccountModel, usernameKeyOf } from './account.model';
import { askGrant, dropGrantsOf, finishAsk, newPendingGrant, type PendingGrant } from './accountGrants.service';
import { checkMayManage, holds, splitByMoney } from './holds';
import { useSecondFactor } from './totp.service';
import type { SignInOutcome } from './operatorSecurity.models';
import { consoleToken, sessionIsLive, type SignInClient } from './operatorSecurity.service';
import { checkPasswordPolicy } from './passwordPolicy';

/** bcrypt cost: slow enough to make guessing expensive, about a second per try on a small server. */
/** GET /api/admin/accounts: an operator's account as the console lists it, without its password hash. */
export type AccountRecord = ConsoleRecord<
  typeof AccountModel,
  never,
  'usernameKey' | 'passwordHash' | 'tokenVersion' | 'totpSecret' | 'totpPendingSecret' | 'totpLastStep' | 'totpRecoveryCodes'
>;

export const PASSWORD_HASH_COST = 12;
/** A cost-12 hash of a random string nobody knows: unknown usernames are checked against it so they take as long. */
const DUMMY_HASH = '$2b$12$OgLAUtU38P2YtU8kezWggeNPbXljZx4IlTbIEGEw9xqcHjr8wwbam';

function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, PASSWORD_HASH_COST);
}

/** Creates the super-admin from ADMIN_USERNAME / ADMIN_PASSWORD, or gives it back full access and this password. */
export async function bootstrapSuperAdmin(username: string, password: string) {
  const existing = await AccountModel.findOne({ usernameKey: usernameKeyOf(username) }).select('+passwordHash');
  if (existing) {
    const samePassword = await bcrypt.compare(password, existing.passwordHash);
    const restored = existing.enabled && existing.permissions.includes('*') && existing.permissions.length === 1;
    existing.set({
      permissions: ['*'],
      // full access given by whoever holds the server's settings, not by an operator
      grants: [],
      enabled: true,
      ...(samePassword ? {} : { passwordHash: await hashPassword(password), passwordChangedAt: new Date(), passwordChangedBy: null }),
    });
    // a new password or restored access ends the sessions opened before it
    if (!samePassword || !restored) existing.tokenVersion += 1;
    await existing.save();
    return existing;
  }
  return AccountModel.create({ username, passwordHash: await hashPassword(password), permissions: ['*'], enabled: true });
}

/** Accounts stored before usernames had a case-free key get one, so they sign in and stay unique. */
export async function backfillUsernameKeys() {
  const missing = await AccountModel.find({ usernameKey: { $exists: false } }, { username: 1 }).lean();
  for (const account of missing)
    await AccountModel.updateOne({ _id: account._id }, { $set: { usernameKey: usernameKeyOf(account.username) } });
}

/** An operator's username, for records written on their behalf (the recovery sweep's audit of a gift). */
export async function accountUsername(id: string): Promise<string | null> {
  return (await AccountModel.findById(id, { username: 1 }).lean())?.username ?? null;
}

/** The operator's own Telegram id, where tests of broadcasts go; null when the account has none. */
export async function operatorTelegramId(id: string): Promise<number | null> {
  const account = await AccountModel.findById(id, { telegramId: 1 }).lean();
  return account?.telegramId ?? null;
}

/**
 * The signed-in operator a console token names: an enabled account still at the token's version, whose session (the token's `sid`)
 * is live. The account and the session are read at once, each by its id.
 */
export async function accountForToken(subject: string, version: unknown, sessionId: unknown): Promise<AdminPrincipal | null> {
  if (!OBJECT_ID_PATTERN.test(subject)) return null;
  const [account, live] = await Promise.all([AccountModel.findById(subject).lean(), sessionIsLive(sessionId, subject, new Date())]);
  if (!account || !live || !account.enabled || version !== (account.tokenVersion ?? 0)) return null;
  return { ...tokenPrincipalOf(account), sessionId: sessionId as string };
}

/** The operator's identity as the console needs it. */
function principalOf(account: { _id: unknown; username: string; permissions: string[] }): AdminPrincipal {
  return { id: String(account._id), username: account.username, permissions: [...account.permissions] };
}

/** The token's operator, with whether two-step sign-in is on (the money gate reads it). */
function tokenPrincipalOf(account: { _id: unknown; username: string; permissions: string[]; totpEnabled?: boolean }): AdminPrincipal {
  return { ...principalOf(account), totpEnabled: account.totpEnabled ?? false };
}

/** The account a username names (in any case), for recording a sign-in refused before its password was looked at. */
export async function accountIdByUsername(username: string): Promise<Types.ObjectId | null> {
  return (await AccountModel.findOne({ usernameKey: usernameKeyOf(username) }, { _id: 1 }).lean())?._id ?? null;
}

/**
 * What a sign-in's password (and, with two-step sign-in on, its code) come to, and the account they name (null for an unknown
 * username, after the same work as a known one). The caller answers every failure alike.
 */
export async function checkSignIn(
  username: string,
  password: string,
  secret: string,
  { totp, now = new Date() }: { totp?: string; now?: Date } = {},
) {
  const account = await AccountModel.findOne({ usernameKey: usernameKeyOf(username) }).select('+passwordHash');
  const matches = await bcrypt.compare(password, account?.passwordHash ?? DUMMY_HASH);
  const outcome = ((): SignInOutcome | 'unknown-account' => {
    if (!account) return 'unknown-account';
    if (!matches) return 'wrong-password';
    if (!account.enabled) return 'disabled';
    // two-step sign-in: the right password alone answers that a code is needed, and signs nothing
    return account.totpEnabled && !totp ? 'code-required' : 'success';
  })();
  if (outcome === 'success' && account?.totpEnabled && !(await useSecondFactor(String(account._id), totp ?? '', secret, now)))
    return { account, outcome: 'wrong-code' as const };
  return { account, outcome };
}

/** Signs the account in: a new session from this client, and a token naming it. */
export async function login(
  account: { _id: Types.ObjectId; username: string; permissions: string[]; tokenVersion?: number },
  client: SignInClient,
  secret: string,
  now = new Date(),
): Promise<{ token: string; account: AdminPrincipal }> {
  const token = await consoleToken(account, secret, client, now);
  await AccountModel.updateOne({ _id: account._id }, { $set: { lastLoginAt: now } });
  return { token, account: principalOf(account) };
}

/** An operator may hand out only access they hold themselves. */
function checkGrants(actor: AdminPrincipal, wanted: readonly string[]) {
  const refused = wanted.filter((p) => !holds(actor.permissions, p));
  if (refused.length) throw badInput({ permissions: `You can only give access you have yourself (not ${refused.join(', ')})` });
}

const TAKEN = { username: 'This username is already taken' };

/** Who gave each permission given at once: the operator who gave it, now. */
function grantsGiven(permissions: string[], actor: AdminPrincipal, now: Date) {
  return permissions.map((permission) => ({ permission, grantedBy: objectId(actor.id), approvedBy: null, grantedAt: now, grant: null }));
}

/**
 * Creates the account in one upsert on its case-free username, so of simultaneous creations of one name exactly one wins.
 * Its permissions that move money are not given at once: the same write records them as asked for (pendingGrant), for a
 * second, independent operator to approve; the rest it holds at once. The account records who created it and gave each.
 */
export async function createAccount(input: z.infer<typeof accountCreateInput>, actor: AdminPrincipal) {
  checkGrants(actor, input.permissions);
  const usernameKey = usernameKeyOf(input.username);
  // a name plainly taken is refused before the slow hash; the upsert below settles a race
  if (await AccountModel.exists({ usernameKey })) throw badInput(TAKEN);
  checkPasswordPolicy(input.password, input.username);
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  const { atOnce, waiting } = splitByMoney(input.permissions);
  const pendingGrant = waiting.length ? newPendingGrant(waiting, actor.id, now) : null;
  // the request is an operation of the money engine, recorded before the write that carries it and finished after it
  const asked = pendingGrant ? await askGrant(pendingGrant) : null;
  let created;
  try {
    const result = await AccountModel.findOneAndUpdate(
      { usernameKey },
      {
        $setOnInsert: {
          username: input.username,
          usernameKey,
          passwordHash,
          permissions: atOnce,
          enabled: input.enabled,
          telegramId: input.telegramId,
          lastLoginAt: null,
          tokenVersion: 0,
          passwordChangedAt: null,
          passwordChangedBy: null,
          createdBy: objectId(actor.id),
          grants: grantsGiven(atOnce, actor, now),
          pendingGrant,
          createdAt: now,
          updatedAt: now,
        },
      },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true, timestamps: false },
    );
    if (result.lastErrorObject?.updatedExisting !== false) throw badInput(TAKEN);
    created = result.value!;
  } catch (error) {
    await asked?.(false);
    if (isDuplicateKey(error)) throw badInput(TAKEN);
    throw error;
  }
  await asked?.(true);
  return created;
}

export interface AccountChangeContext {
  actor: AdminPrincipal;
  logger?: Logger;
  now?: Date;
}

const ALREADY_WAITING = 'Access already waits for approval on this account: approve or reject it first';

/**
 * Changes an account. Permissions taken away go at once; new ones that move money wait for a second operator (recorded
 * on the account in the same write), the others are given at once. The write is conditional on the request the account
 * carried when read, so an approval landing in between is never overwritten: the change is worked out again.
 */
export async function updateAccount(
  id: string,
  input: z.infer<typeof accountUpdateInput>,
  { actor, logger, now = new Date() }: AccountChangeContext,
) {
  for (let attempt = 1; ; attempt++) {
    const target = await AccountModel.findById(id);
    if (!target) throw new AppError('NOT_FOUND');
    checkMayManage(actor, target, input.password ? 'set the password of' : 'change');
    if (actor.id === id) {
      if (!input.enabled) throw badInput({ enabled: 'You cannot disable your own account' }, 'You cannot disable your own account');
      if (target.permissions.includes('*') && !input.permissions.includes('*'))
        throw badInput({ permissions: 'You cannot remove your own full access' }, 'You cannot remove your own full access');
    }
    checkGrants(actor, input.permissions);
    const usernameKey = usernameKeyOf(input.username);
    if (usernameKey !== target.usernameKey && (await AccountModel.exists({ usernameKey, _id: { $ne: target._id } }))) throw badInput(TAKEN);

    const waitingBefore = (target.pendingGrant as PendingGrant | null) ?? null;
    // a request a crash left unlisted is listed first: the operator saving again finishes it
    if (waitingBefore && attempt === 1) await finishAsk(waitingBefore);
    const added = input.permissions.filter((permission) => !target.permissions.includes(permission));
    const { atOnce, waiting } = splitByMoney(added);
    const newlyAsked = waiting.filter((permission) => !waitingBefore?.permissions.includes(permission));
    if (newlyAsked.length && waitingBefore) throw badInput({ permissions: ALREADY_WAITING }, ALREADY_WAITING);
    const pendingGrant = newlyAsked.length ? newPendingGrant(waiting, actor.id, now) : null;
    const permissions: string[] = input.permissions.filter(
      (permission) => target.permissions.includes(permission) || atOnce.includes(permission),
    );
    const changes: Record<string, unknown> = {
      username: input.username,
      usernameKey,
      permissions,
      grants: [...target.grants.filter((grant) => permissions.includes(grant.permission)), ...grantsGiven(atOnce, actor, now)],
      enabled: input.enabled,
      telegramId: input.telegramId,
      ...(pendingGrant ? { pendingGrant } : {}),
    };
    if (input.password) {
      checkPasswordPolicy(input.password, input.username);
      changes.passwordHash = await hashPassword(input.password);
      changes.passwordChangedAt = now;
      changes.passwordChangedBy = actor.id === id ? null : actor.id;
    }
    const samePermissions = permissions.length === target.permissions.length && permissions.every((p) => target.permissions.includes(p));
    const endsSessions = !!input.password || !input.enabled || input.username !== target.username || !samePermissions;
    const asked = pendingGrant ? await askGrant(pendingGrant) : null;
    let updated;
    try {
      updated = await AccountModel.findOneAndUpdate(
        { _id: target._id, ...(waitingBefore ? { 'pendingGrant._id': waitingBefore._id } : { pendingGrant: null }) },
        { $set: changes, ...(endsSessions ? { $inc: { tokenVersion: 1 } } : {}) },
        { returnDocument: 'after', runValidators: true },
      );
    } catch (error) {
      await asked?.(false);
      if (isDuplicateKey(error)) throw badInput(TAKEN);
      throw error;
    }
    await asked?.(!!updated);
    // the request it carried was decided meanwhile: work the change out again on what it holds now
    if (!updated) {
      if (attempt < 3) continue;
      throw new AppError('UNAVAILABLE');
    }
    if (input.password && actor.id !== id)
      logger?.warn(
        { accountId: id, username: target.username, by: actor.id, byUsername: actor.username },
        'operator password set by another operator',
      );
    return updated;
  }
}

export async function deleteAccount(id: string, actor: AdminPrincipal) {
  if (actor.id === id) throw badInput({}, 'You cannot delete your own account');
  const target = await AccountModel.findById(id);
  if (!target) throw new AppError('NOT_FOUND');
  checkMayManage(actor, target, 'delete');
  await AccountModel.deleteOne({ _id: target._id });
  // nothing is left to give: a request for access it carried ends
  await dropGrantsOf(target._id, actor, new Date());
}
