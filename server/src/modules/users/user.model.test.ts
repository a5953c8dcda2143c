import { Types } from 'mongoose';
import { createPlayer } from '../../../test/factories';
import { backfillSearchFields } from './players.service';
import { UserModel } from './user.model';

/** The console finds players by the start of a name, any word of it, or a username, in any case, through these fields. */
describe("a player's search fields", () => {
  it('follow the name and username on create, on insertMany and on every update that sets them', async () => {
    const created = await createPlayer({ name: 'Zahra Karimi', username: 'Zahra_K' });
    expect(await UserModel.findById(created._id, { nameWords: 1, usernameLower: 1 }).lean()).toMatchObject({
      nameWords: ['zahra karimi', 'zahra', 'karimi'],
      usernameLower: 'zahra_k',
    });

    const [inserted] = await UserModel.insertMany([
      { telegramId: 70_000_001, name: 'Ali Rezaei', username: 'ALI', referralCode: 'insert-many-1' },
    ]);
    expect(await UserModel.findById(inserted!._id, { nameWords: 1, usernameLower: 1 }).lean()).toMatchObject({
      nameWords: ['ali rezaei', 'ali', 'rezaei'],
      usernameLower: 'ali',
    });

    await UserModel.findOneAndUpdate({ _id: created._id }, { $set: { name: 'Sara', username: 'SaraB' } });
    expect(await UserModel.findById(created._id, { nameWords: 1, usernameLower: 1 }).lean()).toMatchObject({
      nameWords: ['sara'],
      usernameLower: 'sarab',
    });
  });

  it('are filled by the sweep for players saved before they existed', async () => {
    const _id = new Types.ObjectId();
    // as an older version wrote it: no nameWords
    await UserModel.collection.insertOne({
      _id,
      telegramId: 70_000_002,
      name: 'Old Timer',
      username: 'old',
      usernameLower: 'old',
      referralCode: 'old-player-1',
    });
    expect(await backfillSearchFields()).toBeGreaterThanOrEqual(1);
    expect(await UserModel.findById(_id, { nameWords: 1 }).lean()).toMatchObject({ nameWords: ['old timer', 'old', 'timer'] });
    expect(await backfillSearchFields()).toBe(0);
  });
});
