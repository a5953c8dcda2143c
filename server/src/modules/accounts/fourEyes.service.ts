import type { Types } from 'mongoose';
import { isMoneyPermission, OBJECT_ID_PATTERN } from '@gift/shared';
import { forbidden } from '../../lib/errors';
import { AccountModel } from './account.model';

type Ref = Types.ObjectId | string | null | undefined;

interface Lineage {
  createdBy?: Ref;
  passwordChangedBy?: Ref;
  passwordChangedAt?: Date | null;
  grants?: { permission: string; grantedBy?: Ref; approvedBy?: Ref }[];
}

const LINEAGE = { createdBy: 1, passwordChangedBy: 1, passwordChangedAt: 1, grants: 1 } as const;

async function lineageOf(id: string): Promise<Lineage | null> {
  if (!OBJECT_ID_PATTERN.test(id)) return null;
  return AccountModel.findById(id, LINEAGE).lean<Lineage>();
}

const same = (a: Ref, b: string) => a != null && String(a) === b;

/** Who may sign in as the account: whoever set its current password when it was not the account itself. */
function passwordSetBy(account: Lineage): string | null {
  if (account.passwordChangedBy) return String(account.passwordChangedBy);
  // never changed since creation: its creator chose it
  if (!account.passwordChangedAt && account.createdBy) return String(account.createdBy);
  return null;
}

/** Why `approver` is not a second person beside `requester`, or null when it is. */
function dependenceOf(requester: Lineage | null, approver: Lineage | null, requesterId: string, approverId: string): string | null {
  if (requesterId === approverId) return 'you asked for it';
  if (approver) {
    if (same(approver.createdBy, requesterId)) return 'your account was created by the operator who asked';
    const given = (approver.grants ?? []).find(
      (grant) => isMoneyPermission(grant.permission) && (same(grant.grantedBy, requesterId) || same(grant.approvedBy, requesterId)),
    );
    if (given) return `the operator who asked gave your account ${given.permission}`;
    if (passwordSetBy(approver) === requesterId) return 'the operator who asked set your password';
  }
  if (requester) {
    const setter = passwordSetBy(requester);
    if (setter === approverId) return 'you set the password of the operator who asked';
    // one operator who chose both passwords could sign in as either
    if (setter && approver && passwordSetBy(approver) === setter) return 'one operator set both your passwords';
  }
  return null;
}

/**
 * Refuses (403) a second approval that does not come from a second person: the approver is the requester, or
 * the approver's account was created by the requester, or any of its money permissions was given or approved by
 * the requester, or its password was set by the requester; or the approver set the requester's password, or one
 * operator set both passwords (either could be signed in as by them). A password set at creation and never changed
 * since was set by the creator. Accounts without that record (the bootstrap super-admin, older data) are
 * independent of everyone. `what` names what is approved, for the message ("this gift").
 */
export async function assertIndependentApprover(requestedBy: string, approverId: string, what: string): Promise<void> {
  const requester = String(requestedBy);
  const approver = String(approverId);
  const reason =
    requester === approver
      ? dependenceOf(null, null, requester, approver)
      : dependenceOf(await lineageOf(requester), await lineageOf(approver), requester, approver);
  if (reason) throw forbidden(`A second operator must approve ${what}: ${reason}`);
}
