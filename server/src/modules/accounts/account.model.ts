import { model, Schema } from 'mongoose';
import { applyConventions, ref, schemaOptions } from '../../db/schemaKit';

/** The form a username is unique in and signed in by: `SecAdmin` and `secadmin` are one name. */
export function usernameKeyOf(username: string): string {
  return username.trim().toLowerCase();
}

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
