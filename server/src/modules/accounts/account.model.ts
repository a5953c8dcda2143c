import { model, Schema } from 'mongoose';
import { applyConventions, ref, schemaOptions } from '../../db/schemaKit';

/** The form a username is unique in and signed in by: `SecAdmin` and `secadmin` are one name. */
export function usernameKeyOf(username: string): string {
  return username.trim().toLowerCase();
}

/** Who gave one of the account's permissions: the operator who asked and, for a money permission, the second one who approved. */
const grantSchema = new Schema(
  {
    permission: { type: String, required: true },
    grantedBy: ref('Account', { default: null }),
    approvedBy: ref('Account', { default: null }),
    grantedAt: { type: Date, required: true },
    /** The approved request (AccountGrant) that gave it, for a money permission: it is applied once, by this mark. */
    grant: ref('AccountGrant', { default: null }),
  },
  { _id: false },
);

/**
 * Money permissions asked for the account, waiting for a second operator (one request at a time). Written in the same
 * write as the account (or its change), so a request is never lost; its `_id` is the AccountGrant's the console decides.
 */
const pendingGrantSchema = new Schema(
  {
    permissions: { type: [String], required: true },
    requestedBy: ref('Account', { required: true }),
    requestedAt: { type: Date, required: true },
  },
  { _id: true },
);

/** An operator of the console. */
const accountSchema = applyConventions(
  new Schema(
    {
      username: { type: String, required: true, trim: true },
      usernameKey: { type: String, hidden: true },
      passwordHash: { type: String, required: true, select: false, hidden: true },
      /** '*' or '<resource>:read' / '<resource>:write'. */
      permissions: { type: [String], default: [] },
      enabled: { type: Boolean, default: true },
      /** The operator's own Telegram account: where a broadcast's test is sent. */
      telegramId: { type: Number, default: null },
      lastLoginAt: { type: Date, default: null },
      /** Raised by a password change, a disable, a rename or a permission change: tokens of an earlier version stop working. */
      tokenVersion: { type: Number, default: 0, hidden: true },
      passwordChangedAt: { type: Date, default: null },
      /** Who set the password last when it was not the account itself. */
      passwordChangedBy: ref('Account', { default: null }),
      /** The operator who created the account; null for the bootstrap super-admin and accounts older than the record. */
      createdBy: ref('Account', { default: null }),
      /** Who gave each permission it holds; a permission without an entry was given before the record (by no one known). */
      grants: { type: [grantSchema], default: [] },
      /** Money permissions waiting for a second operator's approval (AccountGrant). */
      pendingGrant: { type: pendingGrantSchema, default: null },
      /** Two-step sign-in (TOTP, RFC 6238) is on: sign-in asks for a code from the operator's app. */
      totpEnabled: { type: Boolean, default: false },
      /** The confirmed TOTP secret, encrypted (AES-256-GCM); never sent or logged. */
      totpSecret: { type: String, default: null, select: false, hidden: true },
      /** A secret offered at enrolment, encrypted, until a first code confirms it. */
      totpPendingSecret: { type: String, default: null, select: false, hidden: true },
      /** The last 30-second step a code was accepted for: a code of it or an earlier step is refused (used once). */
      totpLastStep: { type: Number, default: 0, hidden: true },
      /** SHA-256 of each unused recovery code; one is removed as it is used. */
      totpRecoveryCodes: { type: [String], default: [], select: false, hidden: true },
      totpEnabledAt: { type: Date, default: null },
    },
    schemaOptions,
  ),
);
accountSchema.pre('validate', function keepUsernameKey() {
  if (this.username) this.usernameKey = usernameKeyOf(this.username);
});
// real MongoDB enforces it; the service keeps names unique on engines that do not
accountSchema.index({ usernameKey: 1 }, { unique: true, partialFilterExpression: { usernameKey: { $type: 'string' } } });

export const AccountModel = model('Account', accountSchema);
