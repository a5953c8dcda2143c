/**
 * The benchmark's baseline: the same database work as the product's calls, written straight against
 * mongoose in plain Express routes, without tRPC, input validation, Telegram signature checks or tokens.
 */
import { Router } from 'express';
import { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { GiftCoinModel } from '../src/modules/coins/giftCoin.model';
import { CategoryModel, CoverModel, PartnerModel } from '../src/modules/content/content.models';
import { BalanceModel, LedgerEntryModel } from '../src/modules/ledger/ledger.models';
import { MissionModel, UserMissionModel } from '../src/modules/missions/mission.models';
import { UserModel } from '../src/modules/users/user.model';

export function bareRoutes(): Router {
  const router = Router();

  router.get('/bare/home', async (req, res) => {
    const user = await UserModel.findOne({ telegramId: Number(req.get('x-telegram-id')) });
    if (!user) return void res.status(401).end();
    const enabled = (kind: string) => [{ $match: { enabled: true } }, { $addFields: { kind } }];
    const [content, missions, progress] = await Promise.all([
      CoverModel.aggregate<{ _id: Types.ObjectId; kind: string }>([
        ...enabled('cover'),
        { $unionWith: { coll: PartnerModel.collection.name, pipeline: enabled('partner') } },
        { $unionWith: { coll: CategoryModel.collection.name, pipeline: enabled('category') } },
        { $sort: { order: 1, _id: 1 } },
        { $project: { kind: 1, title: 1, name: 1, description: 1, image: 1, link: 1 } },
      ]),
      MissionModel.aggregate<{ _id: Types.ObjectId; category: Types.ObjectId; mustDone: boolean; title: string; reward: number }>([
        { $match: { enabled: true } },
        { $sort: { order: 1, _id: 1 } },
        { $project: { secretCode: 0 } },
        { $lookup: { from: GiftCoinModel.collection.name, localField: 'coin', foreignField: '_id', as: 'coinDocs' } },
      ]),
      UserMissionModel.find({ user: user._id }, { mission: 1, status: 1, startedAt: 1, rejectReason: 1 }).lean(),
    ]);
    const done = new Set(progress.filter((p) => p.status === 'done').map((p) => String(p.mission)));
    res.json({
      covers: content.filter((row) => row.kind === 'cover'),
      partners: content.filter((row) => row.kind === 'partner'),
      categories: content
        .filter((row) => row.kind === 'category')
        .map((row) => {
          const mine = missions.filter((m) => String(m.category) === String(row._id));
          return { ...row, missionsTotal: mine.length, missionsDone: mine.filter((m) => done.has(String(m._id))).length };
        }),
      starMissions: missions
        .filter((m) => m.mustDone && !done.has(String(m._id)))
        .map((m) => ({ id: String(m._id), title: m.title, reward: fromMicros(m.reward) })),
    });
  });

  router.post('/bare/claim', async (req, res) => {
    const user = await UserModel.findOne({ telegramId: Number(req.get('x-telegram-id')) });
    if (!user) return void res.status(401).end();
    const missionId = new Types.ObjectId(String((req.body as { missionId?: string }).missionId));
    const [mission, stars, progress] = await Promise.all([
      MissionModel.findOne({ _id: missionId, enabled: true }).select('+secretCode').lean(),
      MissionModel.find({ mustDone: true, enabled: true }, { _id: 1 }).lean(),
      UserMissionModel.find({ user: user._id }, { mission: 1, status: 1, startedAt: 1, rejectReason: 1 }).lean(),
    ]);
    if (!mission) return void res.status(404).end();
    const done = new Set(progress.filter((p) => p.status === 'done').map((p) => String(p.mission)));
    if (done.has(String(mission._id))) return void res.status(409).end();
    if (!mission.mustDone && stars.some((s) => !done.has(String(s._id)))) return void res.status(403).end();

    const started = await UserMissionModel.findOneAndUpdate(
      { user: user._id, mission: mission._id },
      {
        $setOnInsert: {
          user: user._id,
          mission: mission._id,
          category: mission.category,
          coin: mission.coin,
          reward: mission.reward,
          status: 'started',
          startedAt: new Date(),
        },
      },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true, setDefaultsOnInsert: true },
    );
    const userMission = started.value!;
    await UserModel.updateOne({ _id: user._id }, { $inc: { missionsCount: 1 } });

    const key = `mission:${userMission._id}`;
    const entry = await LedgerEntryModel.findOneAndUpdate(
      { idempotencyKey: key },
      {
        $setOnInsert: {
          user: user._id,
          coin: mission.coin,
          amount: mission.reward,
          reason: 'mission',
          refType: 'UserMission',
          refId: String(userMission._id),
          idempotencyKey: key,
          state: 'pending',
        },
      },
      { upsert: true, returnDocument: 'after', setDefaultsOnInsert: true },
    );
    await BalanceModel.updateOne({ user: user._id, coin: mission.coin }, { $setOnInsert: { amount: 0 } }, { upsert: true });
    await BalanceModel.updateOne(
      { user: user._id, coin: mission.coin, appliedKeys: { $ne: key } },
      { $inc: { amount: mission.reward }, $push: { appliedKeys: { $each: [key], $slice: -64 } } },
    );
    await LedgerEntryModel.updateOne({ _id: entry._id, state: 'pending' }, { $set: { state: 'posted' } });
    await UserMissionModel.findOneAndUpdate(
      { _id: userMission._id, status: 'started' },
      { $set: { status: 'done', claimedAt: new Date(), doneAt: new Date() } },
    );
    await UserModel.updateOne({ _id: user._id }, { $inc: { doneMissionsCount: 1 } });
    res.json({ status: 'done', reward: fromMicros(mission.reward), coinId: String(mission.coin) });
  });

  router.get('/bare/users', async (req, res) => {
    const skip = Number(req.query.skip ?? 0);
    const limit = Number(req.query.limit ?? 25);
    const [rows, total] = await Promise.all([
      UserModel.find({}).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit),
      UserModel.countDocuments({}),
    ]);
    res.set('Content-Range', `users ${skip}-${skip + rows.length - 1}/${total}`);
    res.json(rows.map((row) => row.toJSON()));
  });

  return router;
}
