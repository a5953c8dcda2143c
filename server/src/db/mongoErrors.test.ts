import { model, Schema, Types } from 'mongoose';
import { isDuplicateKey, upsertWithRetry } from './mongoErrors';

const Probe = model('MongoErrorsProbe', new Schema({ state: String, n: Number }, { versionKey: false }));

/** What the database answers to this write, or null when it takes it. */
const refusalOf = (write: () => Promise<unknown>) =>
  write().then(
    () => null,
    (error: unknown) => error,
  );

describe("the database's duplicate-key refusal", () => {
  it('is recognised however the write meets an _id that exists: an insert, or an upsert whose filter missed it', async () => {
    const _id = new Types.ObjectId();
    await Probe.create({ _id, state: 'first' });
    // an upsert filtered on more than the _id finds no document and inserts one with that _id, as an upsert that lost a race does
    const refusals = [
      await refusalOf(() => Probe.create({ _id, state: 'again' })),
      await refusalOf(() => Probe.insertMany([{ _id, state: 'again' }])),
      await refusalOf(() => Probe.updateOne({ _id, state: 'other' }, { $set: { n: 1 } }, { upsert: true })),
      await refusalOf(() => Probe.findOneAndUpdate({ _id, state: 'other' }, { $set: { n: 1 } }, { upsert: true })),
      await refusalOf(() =>
        Probe.bulkWrite([{ updateOne: { filter: { _id, state: 'other' }, update: { $set: { n: 1 } }, upsert: true } }]),
      ),
    ];
    // real MongoDB says 11000 each time; CongoDB says 11000 to an insert, and code 1 with its storage's words to an upsert
    expect(refusals.map((refusal) => refusal !== null && isDuplicateKey(refusal))).toEqual([true, true, true, true, true]);
    expect(await Probe.countDocuments({ _id })).toBe(1);
  });

  it('is not confused with another refusal, even one under the same code', async () => {
    const _id = new Types.ObjectId();
    await Probe.create({ _id, state: 'text' });
    // real MongoDB: TypeMismatch (14); CongoDB: code 1, as its duplicate key on an upsert
    const mismatch = await refusalOf(() => Probe.collection.updateOne({ _id }, { $inc: { state: 1 } }));
    expect(mismatch).not.toBeNull();
    expect(isDuplicateKey(mismatch)).toBe(false);
    for (const other of [
      { code: 1, message: 'Internal error' },
      { code: 2, message: 'Duplicate key error: _id 1' },
      new Error('E11000'),
      null,
      'E11000',
    ])
      expect(isDuplicateKey(other)).toBe(false);
  });
});

describe('upsertWithRetry', () => {
  it('tries an upsert once more after the duplicate-key refusal of a concurrent one, and updates the document it inserted', async () => {
    const _id = new Types.ObjectId();
    await Probe.create({ _id, state: 'inserted by the other' });
    let attempts = 0;
    // the first attempt is refused as the loser of a race is (its filter missed the document the other one inserted)
    const result = await upsertWithRetry(() =>
      Probe.updateOne(attempts++ ? { _id } : { _id, state: 'not there yet' }, { $set: { n: 7 } }, { upsert: true }),
    );
    expect([attempts, result.modifiedCount]).toEqual([2, 1]);
    expect(await Probe.findById(_id).lean()).toMatchObject({ state: 'inserted by the other', n: 7 });
  });

  it('passes any other refusal on at once, untried again', async () => {
    const _id = new Types.ObjectId();
    await Probe.create({ _id, state: 'text' });
    let attempts = 0;
    await expect(
      upsertWithRetry(() => {
        attempts++;
        return Probe.collection.updateOne({ _id }, { $inc: { state: 1 } }, { upsert: true });
      }),
    ).rejects.toBeDefined();
    expect(attempts).toBe(1);
  });
});
