import { model, Schema } from 'mongoose';

/** Who runs a job that must run on one instance at a time, and until when; a holder that dies lets its lease run out. */
const jobLeaseSchema = new Schema(
  {
    name: { type: String, required: true },
    /** A random token per acquisition; null when free. */
    holder: { type: String, default: null },
    heldUntil: { type: Date, required: true },
    /** When the last pass of the job that ended without an error started, on whichever instance ran it. */
    lastPassStartedAt: { type: Date, default: null },
  },
  { versionKey: false, timestamps: true },
);
jobLeaseSchema.index({ name: 1 }, { unique: true });

export const JobLeaseModel = model('JobLease', jobLeaseSchema);
