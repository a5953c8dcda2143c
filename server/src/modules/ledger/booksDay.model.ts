import { model, Schema } from 'mongoose';
import { idOfKey } from '../../db/ids';
import { money, ref } from '../../db/schemaKit';

/**
 * One closed UTC day of the books, rolled up: the sum of the house accounts' postings of every operation posted that day
 * (by `postedAt`), per account and coin. Written once, under an id derived from the day (`booksDayId`), a while after the day
 * closed; the Books read these rows and only the operations posted since the last rolled-up day, so their cost does not
 * grow with the ledger's history. `npm run ledger:verify` recomputes each day from its operations.
 */
const booksDaySchema = new Schema(
  {
    /** The UTC day, `YYYY-MM-DD`. */
    day: { type: String, required: true },
    rows: {
      type: [
        new Schema(
          { account: { type: String, required: true }, coin: ref('GiftCoin', { required: true }), amount: money({ required: true }) },
          { _id: false },
        ),
      ],
      default: [],
    },
    /** How many operations were posted that day. */
    operations: { type: Number, default: 0 },
    rolledAt: { type: Date, required: true },
  },
  { versionKey: false },
);
booksDaySchema.index({ day: 1 });
/** A day's document's id: one per day on any database (the embedded one enforces no unique index but the id's). */
export const booksDayId = (day: string) => idOfKey('books-day', day);
export const BooksDayModel = model('BooksDay', booksDaySchema);
