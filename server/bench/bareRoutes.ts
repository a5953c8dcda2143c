/**
 * The benchmark's baseline: plain Express routes doing the work the product's calls must do, without what the product
 * adds around it (issue 33 asks the twins to do "the same necessary work"). Each player route:
 * - signs the caller in as the product does (`authenticatePlayer`): the `tma` Authorization header, Telegram's HMAC
 *   signature of the launch verified for this bot (a launch verified before only has its age checked again, as in the
 *   product), the launch refused past 24 hours, the player read by Telegram id and refreshed from the launch at most once
 *   a minute;
 * - refuses a banned player (and a frozen one's claim) and counts the call against the player's budget in memory (`standingRefusal`,
 *   `enforceRateLimit` with the product's CALLS_PER_PLAYER), as every player procedure does;
 * - home: the product's home service itself (`homeFor`: the same queries and the same answer, in the player's language),
 *   written with `res.json`;
 * - claim: the first claim's database work written straight against mongoose.
 * Two twins mount these routes (bench.ts runs both). The bare twin (`bareApp`) skips everything the product does around
 * the work: tRPC (its request and response objects, batching, input parsing), superjson, helmet's headers, compression,
 * the request log and id, the metrics, the body and depth limits. The layered twin (`layeredTwinApp`) adds the layers
 * every production answer passes through whatever its framework, the product's own `answerLayers` (helmet's headers,
 * compression, the metrics, the request log and id): it skips only tRPC, superjson and the body and depth limits.
 */
import express, { Router, type Express, type Request } from 'express';
import { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { answerLayers } from '../src/app';
import type { Env } from '../src/env';
import type { Logger } from '../src/lib/logger';
import { CALLS_PER_PLAYER } from '../src/http/trpc';
import { homeFor } from '../src/modules/home/home.service';
import { BalanceModel, LedgerEntryModel } from '../src/modules/ledger/ledger.models';
import { MissionModel, UserMissionModel } from '../src/modules/missions/mission.models';
import { enforceRateLimit } from '../src/modules/rateLimits/rateLimit.service';
import { authenticatePlayer } from '../src/modules/users/playerAuth.service';
import { standingRefusal } from '../src/modules/users/playerStatus.service';
import { UserModel } from '../src/modules/users/user.model';

/** The caller as the product's player procedures see it, or null (answered 401, or 403 when banned). */
async function signedInPlayer(req: Request, env: Env, now: Date, money = false) {
  const { user } = await authenticatePlayer(req.get('authorization'), env, now);
  if (!user || standingRefusal(user, { money })) return null;
  await enforceRateLimit(CALLS_PER_PLAYER, String(user._id), now);
  return user;
}

export function bareRoutes(env: Env): Router {
  const router = Router();

  router.get('/bare/home', async (req, res) => {
    const now = new Date();
    const user = await signedInPlayer(req, env, now);
    if (!user) return void res.status(401).end();
    res.json(await homeFor(user, now));
  });

  router.post('/bare/claim', async (req, res) => {
    const user = await signedInPlayer(req, env, new Date(), true);
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

/** The bare twin: the routes above behind Express's JSON body parser, and nothing else. */
export function bareApp(env: Env): Express {
  const app = express();
  app.use(express.json());
  app.use(bareRoutes(env));
  return app;
}

/**
 * The twin with the layers every production answer passes through whatever the framework: the product's own
 * `answerLayers` (security headers, compression, the request's metrics and its log line), the same instances' code and
 * configuration, then the bare routes. What it still skips is the product's framework: tRPC and superjson.
 */
export function layeredTwinApp(env: Env, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(answerLayers(logger));
  app.use(express.json());
  app.use(bareRoutes(env));
  return app;
}
