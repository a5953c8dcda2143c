import bcrypt from 'bcryptjs';
import type { z } from 'zod';
import { ADMIN_RESOURCES, hasPermission, type accountCreateInput, type accountUpdateInput, type AdminResource } from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import { signAdminToken, type AdminPrincipal } from '../../rest/adminAuth';
import { AccountModel } from './account.model';

/** bcrypt cost: slow enough to make guessing expensive, about a second per try on a small server. */
export const PASSWORD_HASH_COST = 12;
/** A cost-12 hash of a random string nobody knows: unknown usernames are checked against it so they take as long. */
const DUMMY_HASH = '$2b$12$OgLAUtU38P2YtU8kezWggeNPbXljZx4IlTbIEGEw9xqcHjr8wwbam';

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, PASSWORD_HASH_COST);
}

/** Creates the super-admin from ADMIN_USERNAME / ADMIN_PASSWORD, or gives it back full access and this password. */
export async function bootstrapSuperAdmin(username: string, password: string) {
  const existing = await AccountModel.findOne({ username }).select('+passwordHash');
  if (existing) {
    const samePassword = await bcrypt.compare(password, existing.passwordHash);
    existing.set({ permissions: ['*'], enabled: true, ...(samePassword ? {} : { passwordHash: await hashPassword(password) }) });
    await existing.save();
    return existing;
  }
  return AccountModel.create({ username, passwordHash: await hashPassword(password), permissions: ['*'], enabled: true });
}

/** The operator's identity as the console needs it. */
export function principalOf(account: { _id: unknown; username: string; permissions: string[] }): AdminPrincipal {
  return { id: String(account._id), username: account.username, permissions: [...account.permissions] };
}

/** A token for the right password of an enabled account; every other case answers the same, after the same work. */
export async function login(username: string, password: string, secret: string, now = new Date()) {
  const account = await AccountModel.findOne({ username }).select('+passwordHash');
  const matches = await bcrypt.compare(password, account?.passwordHash ?? DUMMY_HASH);
  if (!account || !matches || !account.enabled) throw new AppError('INVALID_CREDENTIALS');
  await AccountModel.updateOne({ _id: account._id }, { $set: { lastLoginAt: now } });
  const principal = principalOf(account);
  return { token: signAdminToken(principal, secret), account: principal };
}

/** An operator may hand out only access they hold themselves; '*' only a full-access operator may give. */
function mayGrant(actor: AdminPrincipal, permission: string): boolean {
  if (actor.permissions.includes('*')) return true;
  const [resource, access] = permission.split(':') as [AdminResource, 'read' | 'write'];
  return ADMIN_RESOURCES.includes(resource) && hasPermission(actor.permissions, resource, access);
}

function checkGrants(actor: AdminPrincipal, wanted: readonly string[], already: readonly string[]) {
  const refused = wanted.filter((p) => !already.includes(p) && !mayGrant(actor, p));
  if (refused.length) throw badInput({ permissions: `You can only give access you have yourself (not ${refused.join(', ')})` });
}

async function checkUsernameFree(username: string, exceptId?: string) {
  const taken = await AccountModel.exists({ username, ...(exceptId ? { _id: { $ne: exceptId } } : {}) });
  if (taken) throw badInput({ username: 'This username is already taken' });
}

function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: number }).code === 11000;
}

export async function createAccount(input: z.infer<typeof accountCreateInput>, actor: AdminPrincipal) {
  checkGrants(actor, input.permissions, []);
  await checkUsernameFree(input.username);
  try {
    return await AccountModel.create({
      username: input.username,
      passwordHash: await hashPassword(input.password),
      permissions: input.permissions,
      enabled: input.enabled,
    });
  } catch (error) {
    if (isDuplicateKey(error)) throw badInput({ username: 'This username is already taken' });
    throw error;
  }
}

/** A full-access account is changed only by another full-access operator, so access cannot be taken over from below. */
function checkMayManage(actor: AdminPrincipal, target: { permissions: string[] }) {
  if (target.permissions.includes('*') && !actor.permissions.includes('*')) throw new AppError('FORBIDDEN');
}

export async function updateAccount(id: string, input: z.infer<typeof accountUpdateInput>, actor: AdminPrincipal) {
  const target = await AccountModel.findById(id);
  if (!target) throw new AppError('NOT_FOUND');
  checkMayManage(actor, target);
  if (actor.id === id) {
    if (!input.enabled) throw badInput({ enabled: 'You cannot disable your own account' }, 'You cannot disable your own account');
    if (target.permissions.includes('*') && !input.permissions.includes('*'))
      throw badInput({ permissions: 'You cannot remove your own full access' }, 'You cannot remove your own full access');
  }
  checkGrants(actor, input.permissions, target.permissions);
  if (input.username !== target.username) await checkUsernameFree(input.username, id);
  const changes: Record<string, unknown> = { username: input.username, permissions: input.permissions, enabled: input.enabled };
  if (input.password) changes.passwordHash = await hashPassword(input.password);
  try {
    return await AccountModel.findByIdAndUpdate(id, { $set: changes }, { returnDocument: 'after', runValidators: true });
  } catch (error) {
    if (isDuplicateKey(error)) throw badInput({ username: 'This username is already taken' });
    throw error;
  }
}

export async function deleteAccount(id: string, actor: AdminPrincipal) {
  if (actor.id === id) throw badInput({}, 'You cannot delete your own account');
  const target = await AccountModel.findById(id);
  if (!target) throw new AppError('NOT_FOUND');
  checkMayManage(actor, target);
  await AccountModel.deleteOne({ _id: target._id });
}
