import { appConfigInput, changeApprovalInput, changeRejectionInput, fromMicros, toMicros } from '@gift/shared';
import { Types } from 'mongoose';
import { AppError, badInput } from '../../lib/errors';
import { operatorContext } from '../../http/adminAuth';
import { validate, type ResourceDefinition } from '../../http/resource';
import {
  asRead,
  changesOf,
  finishRequests,
  refuseUnseen,
  writeRequested,
  writtenAsRead,
  type RequestTarget,
} from '../accounts/changeRequests.service';
import { brakeStateOf } from '../accounts/waitingChanges.service';
import { requireGiftCoin } from '../coins/giftCoins.service';
import { AppConfigModel } from './appConfig.model';
import { presentRejectReasons } from './rejectReasons.service';
import {
  approveConfigReward,
  CONFIG_REWARDS,
  holdRewardChanges,
  presentWaiting,
  rejectConfigReward,
  type ConfigReward,
} from './configRewards.service';
import { botTokenSource, getAppConfig, telegramApiRoot } from './config.service';
import { BotApiError, interactiveApi, toBotApiError } from '../../lib/telegramBot';

/** The id the console edits App Config by, whatever the record's own id is. */
const CURRENT_CONFIG_ID = 'current';

type Milestone = { days: number; coin: unknown; amount: number };
type ConfigDocument = {
  toJSON: () => Record<string, unknown>;
  botToken?: string;
  streakMilestones?: Milestone[];
  rejectReasons?: Array<{ _id: unknown; en: string; fa: string }>;
};

/** Reward changes waiting for a second operator, as plain records (the document's JSON): amounts as decimals. */
function presentAllWaiting(waiting: unknown) {
  const kinds = (waiting ?? {}) as Partial<Record<ConfigReward, Record<string, unknown> | null>>;
  return Object.fromEntries(CONFIG_REWARDS.map((kind) => [kind, presentWaiting(kinds[kind])]));
}

/** The reward a decision is about, from the path: anything else is not one (404). */
function rewardKind(kind: string): ConfigReward {
  if (!(CONFIG_REWARDS as readonly string[]).includes(kind)) throw new AppError('NOT_FOUND');
  return kind as ConfigReward;
}

/** The streak milestones as the console edits them: the coin's id and the amount as a decimal. */
const presentMilestones = (milestones: Milestone[] = []) =>
  milestones.map((m) => ({ days: m.days, coin: String(m.coin), amount: fromMicros(BigInt(m.amount)) }));

/**
 * App Config: one record, read and edited, never created or deleted from the console.
 * The bot token is write-only: the console sees only whether one is saved, and a blank one keeps it.
 */
export const appConfigResource: ResourceDefinition<typeof appConfigInput> = {
  name: 'app-config',
  model: AppConfigModel,
  record: {
    select: '+botToken',
    resolveId: async (id) => (id === CURRENT_CONFIG_ID ? String((await getAppConfig())._id) : id),
    // toJSON already leaves the token out (a hidden field)
    present: (doc) => ({
      ...(doc as ConfigDocument).toJSON(),
      botTokenSet: !!(doc as ConfigDocument).botToken,
      botTokenSource: botTokenSource(!!(doc as ConfigDocument).botToken),
      streakMilestones: presentMilestones((doc as ConfigDocument).streakMilestones),
      rejectReasons: presentRejectReasons((doc as ConfigDocument).rejectReasons),
      waitingRewards: presentAllWaiting((doc as ConfigDocument).toJSON().waitingRewards),
      brakeState: brakeStateOf(rewardReads(readRewards((doc as ConfigDocument).toJSON()))),
    }),
  },
  // the list always shows the one record, created with defaults on first sight
  extraRoutes: (router) => {
    router.get('/', async (_req, _res, next) => {
      await getAppConfig();
      next();
    });
    /** A second, independent operator puts a waiting reward live (`id`: the change they saw). */
    router.post('/current/rewards/:kind/approve', async (req, res) => {
      const { id } = validate(changeApprovalInput, req.body);
      await approveConfigReward(rewardKind(req.params.kind), id, operatorContext(req).operator, new Date());
      res.json(appConfigResource.record!.present!(await AppConfigModel.findOne({ key: 'app' }).select('+botToken')));
    });
    /** Turns a waiting reward down with the reason; the live one stays. */
    router.post('/current/rewards/:kind/reject', async (req, res) => {
      const { id, rejectReason } = validate(changeRejectionInput, req.body);
      await rejectConfigReward(rewardKind(req.params.kind), id, rejectReason, operatorContext(req).operator, new Date());
      res.json(appConfigResource.record!.present!(await AppConfigModel.findOne({ key: 'app' }).select('+botToken')));
    });
  },
  update: {
    schema: appConfigInput,
    // an update changes only the fields the body names: the schema's defaults must not reset the others
    run: async (id, input, { named, operator, audited, brakeState }) => {
      const referrerCoin = input.referrerCoin || null;
      const miningCoin = input.miningCoin || null;
      if (referrerCoin && named('referrerCoin')) await requireGiftCoin('referrerCoin', referrerCoin);
      if (miningCoin && named('miningCoin')) await requireGiftCoin('miningCoin', miningCoin);
      if (named('streakMilestones'))
        for (const [index, milestone] of input.streakMilestones.entries())
          await requireGiftCoin(`streakMilestones.${index}.coin`, milestone.coin);
      const streakMilestones = input.streakMilestones.map((m) => ({ ...m, amount: Number(toMicros(m.amount)) }));
      // a saved reason keeps its id (a reviewer's pick names it); a new one is given its own
      const rejectReasons = input.rejectReasons.map(({ id: reasonId, en, fa }) => ({ _id: reasonId ?? new Types.ObjectId(), en, fa }));
      const { botToken, clearBotToken, ...fields } = { ...input, referrerCoin, miningCoin, streakMilestones, rejectReasons };
      const changes = Object.fromEntries(Object.entries(fields).filter(([field]) => named(field)));
      await refuseZeroRewards(id, changes);
      // a reward set above its coin's threshold waits for a second operator; the rest of the save applies
      const live = await AppConfigModel.findById(id, {
        referrerCoin: 1,
        referrerCoinAmount: 1,
        streakMilestones: 1,
        referralQualification: 1,
        miningCoin: 1,
        earnAmount: 1,
        earnDurationHours: 1,
        waitingRewards: 1,
        rewardDecisions: 1,
      }).lean();
      const read = readRewards(live);
      // a form opened before a reward change was held or decided saves nothing (409); the write below is filtered on this read
      if (live) refuseUnseen(brakeState, rewardReads(read));
      // the saves that asked for the rewards waiting now are audited first, should a crash have cut one off
      await finishRequests(
        configRequests,
        CONFIG_REWARDS.flatMap((kind) => (read[kind].waiting ? [read[kind].waiting.id] : [])),
      );
      const held = await holdRewardChanges(changes, (live ?? {}) as Parameters<typeof holdRewardChanges>[1], operator, new Date());
      // a new token is Telegram's to accept, and names the bot: its username is not typed by hand
      if (botToken) changes.botUsername = await botUsernameOf(botToken);
      // rewards held for a second operator are a request of the money engine, which audits the save once, naming those it replaced
      const asked = CONFIG_REWARDS.map((kind) => changesOf(read[kind].waiting, held[`waitingRewards.${kind}`]));
      // a premium percent held with the referral reward is written back as it was read
      const premiumKept = !!held['waitingRewards.referral'] && 'referralQualification' in changes;
      return writeRequested(
        configRequests,
        {
          record: id,
          changes: asked.flatMap((one) => one.changes),
          replaces: asked.flatMap((one) => one.replaces),
          operator,
          before: () => configShown(id),
        },
        // only on App Config as read: each reward's same waiting change and last decision, and what it writes back (409 if not)
        async () =>
          writtenAsRead(
            AppConfigModel,
            id,
            await AppConfigModel.findOneAndUpdate(
              {
                _id: id,
                ...Object.fromEntries(CONFIG_REWARDS.flatMap((kind) => Object.entries(asRead(read[kind], rewardPlaces(kind))))),
                ...(premiumKept ? { 'referralQualification.premiumRewardPercent': read.premium } : {}),
              },
              {
                $set: { ...changes, ...held, ...(botToken ? { botToken } : {}) },
                ...(clearBotToken && !botToken ? { $unset: { botToken: 1 } } : {}),
              },
              { returnDocument: 'after', runValidators: true },
            ).select('+botToken'),
          ),
        audited,
      );
    },
  },
};

/** Where App Config keeps a reward's waiting change and its last decision. */
const rewardPlaces = (kind: ConfigReward) => ({ waiting: `waitingRewards.${kind}`, last: `rewardDecisions.${kind}` });

type Change = { id: string } | null;

/** Each reward's waiting change and last decision as a save read them, and the Premium friend's percent (null: none). */
function readRewards(live: Record<string, unknown> | null) {
  const { waitingRewards, rewardDecisions, referralQualification } = (live ?? {}) as {
    waitingRewards?: Partial<Record<ConfigReward, Change>>;
    rewardDecisions?: Partial<Record<ConfigReward, Change>>;
    referralQualification?: { premiumRewardPercent?: number | null };
  };
  const kinds = CONFIG_REWARDS.map((kind) => [kind, { waiting: waitingRewards?.[kind] ?? null, last: rewardDecisions?.[kind] ?? null }]);
  return {
    ...(Object.fromEntries(kinds) as Record<ConfigReward, { waiting: Change; last: Change }>),
    premium: referralQualification?.premiumRewardPercent ?? null,
  };
}

/** Each reward's waiting change and last decision, in the order of CONFIG_REWARDS: App Config's brake state. */
const rewardReads = (read: ReturnType<typeof readRewards>) =>
  CONFIG_REWARDS.map((kind) => ({ waiting: read[kind].waiting, last: read[kind].last }));

/** App Config as the console shows it (null when there is none). */
async function configShown(id: string) {
  const config = await AppConfigModel.findById(id).select('+botToken');
  return config && appConfigResource.record!.present!(config);
}

/** App Config as where a save holds reward changes for a second operator (accounts/changeRequests.service.ts). */
export const configRequests: RequestTarget = {
  resource: 'app-config',
  holds: async (record, changeIds) => {
    const config = await AppConfigModel.findById(record, { waitingRewards: 1, rewardDecisions: 1 }).lean<{
      waitingRewards?: Record<string, { id?: string } | null>;
      rewardDecisions?: Record<string, { id?: string } | null>;
    }>();
    const held = [...Object.values(config?.waitingRewards ?? {}), ...Object.values(config?.rewardDecisions ?? {})];
    return held.some((change) => !!change?.id && changeIds.includes(change.id));
  },
  shown: configShown,
};

/**
 * A coin chosen for mining or for the referral reward pays a positive amount: a 0 with a coin is a mistake that looks set
 * (mining sessions that pay nothing). The check reads the record as it will be, named fields over saved ones.
 */
async function refuseZeroRewards(id: string, changes: Record<string, unknown>): Promise<void> {
  const saved = await AppConfigModel.findById(id, { miningCoin: 1, earnAmount: 1, referrerCoin: 1, referrerCoinAmount: 1 }).lean<{
    miningCoin?: unknown;
    earnAmount?: number;
    referrerCoin?: unknown;
    referrerCoinAmount?: number;
  }>();
  const chosen = (field: 'miningCoin' | 'referrerCoin') => Boolean(field in changes ? changes[field] : saved?.[field]);
  // a named amount is the decimal the operator typed; a saved one is micro-units
  const paysSomething = (field: 'earnAmount' | 'referrerCoinAmount') => {
    const named = changes[field];
    if (!(field in changes)) return (saved?.[field] ?? 0) > 0;
    try {
      return typeof named === 'string' && toMicros(named) > 0n;
    } catch {
      return false;
    }
  };
  const errors: Record<string, string> = {};
  if (chosen('miningCoin') && !paysSomething('earnAmount'))
    errors.earnAmount = 'Mining pays a positive amount per session: set it, or choose no mining coin';
  if (chosen('referrerCoin') && !paysSomething('referrerCoinAmount'))
    errors.referrerCoinAmount = 'The referral reward is a positive amount: set it, or choose no referrer coin';
  if (Object.keys(errors).length) throw badInput(errors);
}

/** Asks Telegram who a token belongs to (getMe); a token it refuses, or no answer, is the field's error and saves nothing. */
async function botUsernameOf(token: string): Promise<string> {
  try {
    const me = await interactiveApi({ apiRoot: telegramApiRoot(), token }).getMe();
    return me.username;
  } catch (error) {
    const refusal = toBotApiError(error, 'getMe');
    if (refusal instanceof BotApiError && refusal.status > 0)
      throw badInput({ botToken: `Telegram did not accept this token (${refusal.description}): copy it again from BotFather` });
    throw badInput({ botToken: 'Telegram could not be reached to check this token: nothing was saved, try again' });
  }
}
