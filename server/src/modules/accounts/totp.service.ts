import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { isMoneyPermission } from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import type { AdminPrincipal } from '../../http/ports';
import { recordAudit, type Operator } from '../audit/audit.service';
import { AccountModel } from './account.model';

/** The name an authenticator app shows above the operator's codes. */
const ISSUER = 'Gift Rewards console';
/** A code of the step before or after the server's clock is still taken: phones drift by some seconds. */
const CLOCK_TOLERANCE_SECONDS = 30;
const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: a recovery code is copied by hand from paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export const WRONG_CODE = 'This code is not valid or was already used';
const ALREADY_ON = 'Two-step sign-in is already on';
const START_FIRST = 'Start two-step sign-in again: no code is waiting to be confirmed';

/** AES-256-GCM under a key derived from the server's signing secret: a copy of the database alone does not give the secrets. */
function keyOf(serverSecret: string): Buffer {
  return createHash('sha256').update(`console-totp:${serverSecret}`).digest();
}

function seal(text: string, serverSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(serverSecret), iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join(':');
}

/** The secret, or null when it was sealed under another signing secret (the operator enrols again). */
function unseal(sealed: string, serverSecret: string): string | null {
  const [version, iv = '', tag = '', data = ''] = sealed.split(':');
  if (version !== 'v1') return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(serverSecret), Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The time step a 6-digit code belongs to, or null when it is not a code of the secret near `now`. */
async function stepOf(secret: string, code: string, now: Date, afterTimeStep?: number): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: CLOCK_TOLERANCE_SECONDS,
      ...(afterTimeStep ? { afterTimeStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    // a last step ahead of this clock (the server's clock went back): no code is taken until it catches up
    return null;
  }
}

const normalRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');
const hashRecoveryCode = (code: string) => createHash('sha256').update(normalRecoveryCode(code)).digest('hex');

function newRecoveryCode(): string {
  const letters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

/** Compares the code's hash with every stored one, whatever matches first, so the time taken says nothing. */
function matchingHash(hashes: readonly string[], code: string): string | null {
  const wanted = Buffer.from(hashRecoveryCode(code), 'hex');
  let found: string | null = null;
  for (const hash of hashes) {
    const stored = Buffer.from(hash, 'hex');
    if (stored.length === wanted.length && timingSafeEqual(stored, wanted)) found = hash;
  }
  return found;
}

function audit(operator: Operator, accountId: string, totpEnabled: { before: boolean; after: boolean }, note: string) {
  return recordAudit({
    operator: { id: operator.id, username: operator.username },
    action: 'update',
    resource: 'accounts',
    record: accountId,
    before: { totpEnabled: totpEnabled.before },
    after: { totpEnabled: totpEnabled.after },
    note,
  });
}

/**
 * Takes a second factor of an account with two-step sign-in on: a 6-digit code of its app, for a step later than the last one
 * taken (claimed by one conditional write, so a code is taken once however many requests race it), or one of its recovery codes
 * (removed by one conditional write). False for anything else.
 */
export async function useSecondFactor(accountId: string, code: string, serverSecret: string, now = new Date()): Promise<boolean> {
  const account = await AccountModel.findById(accountId).select('+totpSecret +totpRecoveryCodes');
  if (!account?.totpEnabled || !account.totpSecret) return false;
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const secret = unseal(account.totpSecret, serverSecret);
    const step = secret ? await stepOf(secret, trimmed, now, account.totpLastStep ?? 0) : null;
    if (step === null) return false;
    const claimed = await AccountModel.updateOne(
      { _id: account._id, totpEnabled: true, totpLastStep: { $lt: step } },
      { $set: { totpLastStep: step } },
    );
    return claimed.modifiedCount === 1;
  }
  const hash = matchingHash(account.totpRecoveryCodes, trimmed);
  if (!hash) return false;
  const used = await AccountModel.updateOne(
    { _id: account._id, totpEnabled: true, totpRecoveryCodes: hash },
    { $pull: { totpRecoveryCodes: hash } },
  );
  if (used.modifiedCount !== 1) return false;
  await audit({ id: accountId, username: account.username }, accountId, { before: true, after: true }, 'recovery code used to sign in');
  return true;
}

/** GET /accounts/me/totp: whether two-step sign-in is on, whether the account must turn it on, and the recovery codes left. */
export async function totpStatus(operator: AdminPrincipal, moneyNeedsTotp: boolean) {
  const account = await AccountModel.findById(operator.id).select('+totpRecoveryCodes');
  if (!account) throw new AppError('NOT_FOUND');
  return {
    enabled: account.totpEnabled,
    required: moneyNeedsTotp && !account.totpEnabled && account.permissions.some(isMoneyPermission),
    recoveryCodesLeft: account.totpEnabled ? account.totpRecoveryCodes.length : 0,
  };
}

/**
 * POST /accounts/me/totp: a new secret for the operator's app, kept (encrypted) as waiting until a first code confirms it; answered
 * this once, with its otpauth:// address and that address as a QR code.
 */
export async function startTotpEnrolment(operator: AdminPrincipal, serverSecret: string) {
  const secret = generateSecret();
  const started = await AccountModel.updateOne(
    { _id: operator.id, totpEnabled: { $ne: true } },
    { $set: { totpPendingSecret: seal(secret, serverSecret) } },
  );
  if (started.matchedCount !== 1) {
    if (!(await AccountModel.exists({ _id: operator.id }))) throw new AppError('NOT_FOUND');
    throw badInput({ totp: ALREADY_ON }, ALREADY_ON);
  }
  const otpauthUrl = generateURI({ issuer: ISSUER, label: operator.username, secret });
  const qrDataUrl = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 240 });
  await audit(operator, operator.id, { before: false, after: false }, 'two-step sign-in enrolment started');
  return { secret, otpauthUrl, qrDataUrl };
}

/**
 * PUT /accounts/me/totp: a first code of the waiting secret turns two-step sign-in on (that code is then used) and answers ten
 * recovery codes, this once; only their hashes are kept.
 */
export async function confirmTotpEnrolment(operator: AdminPrincipal, code: string, serverSecret: string, now = new Date()) {
  const account = await AccountModel.findById(operator.id).select('+totpPendingSecret');
  if (!account) throw new AppError('NOT_FOUND');
  if (account.totpEnabled) throw badInput({ totp: ALREADY_ON }, ALREADY_ON);
  const pending = account.totpPendingSecret;
  const secret = pending ? unseal(pending, serverSecret) : null;
  if (!pending || !secret) throw badInput({ totp: START_FIRST }, START_FIRST);
  const step = await stepOf(secret, code.trim(), now);
  if (step === null) throw badInput({ totp: WRONG_CODE }, WRONG_CODE);
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const confirmed = await AccountModel.updateOne(
    { _id: account._id, totpEnabled: { $ne: true }, totpPendingSecret: pending },
    {
      $set: {
        totpEnabled: true,
        totpSecret: pending,
        totpPendingSecret: null,
        totpLastStep: step,
        totpRecoveryCodes: recoveryCodes.map(hashRecoveryCode),
        totpEnabledAt: now,
      },
    },
  );
  // another enrolment or confirmation landed in between
  if (confirmed.modifiedCount !== 1) throw badInput({ totp: START_FIRST }, START_FIRST);
  await audit(operator, operator.id, { before: false, after: true }, 'two-step sign-in turned on');
  return { enabled: true, recoveryCodes };
}

/** DELETE /accounts/me/totp: a current code (or a recovery code) turns two-step sign-in off and forgets its secret. */
export async function disableTotp(operator: AdminPrincipal, code: string, serverSecret: string, now = new Date()) {
  if (!(await useSecondFactor(operator.id, code, serverSecret, now))) throw badInput({ totp: WRONG_CODE }, WRONG_CODE);
  await AccountModel.updateOne(
    { _id: operator.id },
    { $set: { totpEnabled: false, totpSecret: null, totpPendingSecret: null, totpRecoveryCodes: [], totpEnabledAt: null } },
  );
  await audit(operator, operator.id, { before: true, after: false }, 'two-step sign-in turned off');
  return { enabled: false };
}
