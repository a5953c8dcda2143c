import { model, Schema } from 'mongoose';
import { applyConventions, schemaOptions, ref } from '../../db/schemaKit';

/**
 * A risk cluster banned and its earnings taken back in one confirmed action: the plan the operator saw in the preview (its key
 * is the plan's hash), written once however many operators confirm it by the first step of its `cluster-cleanup` operation
 * (clusterCleanUp.kinds.ts), whose later steps carry it out and mark it done.
 */
const cleanUpSchema = applyConventions(
  new Schema(
    {
      /** The hash of the cluster, its players and the credits to take back: one action per plan. */
      key: { type: String, required: true },
      cluster: { type: Schema.Types.Mixed, required: true },
      /** How many players the cluster had (some may have been banned before). */
      players: { type: Number, default: 0 },
      /** The players to ban, with the status each had when the plan was made. */
      ban: { type: [new Schema({ user: String, status: String }, { _id: false })], default: [] },
      /** The credits to take back: the players' own (`member`) and their referrers' rewards for them (`referrer`). */
      credits: {
        type: [new Schema({ entry: String, user: String, coin: String, amount: Number, side: String }, { _id: false })],
        default: [],
      },
      statusReason: { type: String, required: true },
      fa: { statusReason: { type: String, default: '' } },
      createdBy: ref('Account', { required: true }),
      status: { type: String, enum: ['running', 'done'], default: 'running' },
      doneAt: { type: Date, default: null },
    },
    schemaOptions,
  ),
);
cleanUpSchema.index({ key: 1 }, { unique: true });
export const ClusterCleanUpModel = model('ClusterCleanUp', cleanUpSchema);
