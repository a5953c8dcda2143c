import {
  changeApprovalInput,
  changeRejectionInput,
  fromMicros,
  microsToStored,
  missionInput,
  missionsEnabledInput,
  missionsReorderInput,
  missionUpdateInput,
  toMicros,
  type MissionInput,
} from '@gift/shared';
import { operatorContext } from '../../http/adminAuth';
import { recordAudit } from '../audit/audit.service';
import { AppError, badInput } from '../../lib/errors';
import { brakeStateOf } from '../accounts/waitingChanges.service';
import { validate, type ResourceDefinition } from '../../http/resource';
import {
  changesOf,
  createRequested,
  finishRequests,
  refuseUnseen,
  updateAsRead,
  writeRequested,
  type RequestTarget,
} from '../accounts/changeRequests.service';
import { requireGiftCoin } from '../coins/giftCoins.service';
import { categoryExists } from '../content/categories.service';
import { MissionModel } from './mission.models';
import { approveMissionReward, needsSecondOperator, rejectMissionReward, rewardFields, waitingReward } from './missionRewards';
import { deleteMission } from './missions.service';

type MissionDocument = {
  toJSON: () => Record<string, unknown>;
  secretCode?: string;
  waiting?: { id: string; reward: number; coin: unknown; requestedBy: unknown; requestedAt: Date } | null;
  lastDecision?: { id: string } | null;
};

/** A mission as the console reads it: whether a secret code is set, and a waiting reward as a decimal. */
function presentMission(doc: MissionDocument) {
  const { waiting, lastDecision } = doc;
  return {
    ...doc.toJSON(),
    secretCodeSet: !!doc.secretCode,
    brakeState: brakeStateOf([{ waiting, last: lastDecision }]),
    waiting: waiting
      ? {
          id: waiting.id,
          reward: fromMicros(waiting.reward),
          coin: String(waiting.coin),
          requestedBy: String(waiting.requestedBy),
          requestedAt: waiting.requestedAt,
        }
      : null,
  };
}

async function checkReferences(input: MissionInput) {
  if (!(await categoryExists(input.category))) throw badInput({ category: 'Choose an existing category' });
  await requireGiftCoin('coin', input.coin);
}

/** The fields as stored: the reward in micro-units, proof for a Manual mission only, and the secret code only when one was typed. */
function asStored({ secretCode, ...input }: MissionInput) {
  return {
    ...input,
    reward: microsToStored(toMicros(input.reward)),
    // only an operator's review reads proof: a mission changed from Manual to another type drops what it asked for
    proof: input.verifyType === 'manual' ? input.proof : [],
    ...(secretCode ? { secretCode } : {}),
  };
}

/** Sets fields of the one mission the filter finds (none when they are already set), audited as its update; true when it changed. */
async function changeAudited(
  operator: ReturnType<typeof operatorContext>['operator'],
  filter: Record<string, unknown> & { _id: string },
  fields: Record<string, unknown>,
): Promise<boolean> {
  const before = await MissionModel.findOneAndUpdate(filter, { $set: fields });
  if (!before) return false;
  await recordAudit({
    operator,
    action: 'update',
    resource: 'missions',
    record: filter._id,
    before: before.toJSON(),
    after: { ...before.toJSON(), ...fields },
  });
  return true;
}

/** Where a mission keeps its waiting reward change and its last decision. */
const MISSION_FIELDS = { waiting: 'waiting', last: 'lastDecision' };

/** Missions as where an edit holds a reward change for a second operator (accounts/changeRequests.service.ts). */
export const missionRequests: RequestTarget = {
  resource: 'missions',
  holds: async (record, [changeId]) =>
    !!(await MissionModel.exists({ _id: record, $or: [{ 'waiting.id': changeId }, { 'lastDecision.id': changeId }] })),
  shown: async (record) => {
    const mission = await MissionModel.findById(record).select('+secretCode');
    return mission && presentMission(mission);
  },
};

/** Missions; a YouTube mission's secret code goes in but never comes out, and a blank one on edit keeps it. */
export const missionsResource: ResourceDefinition<typeof missionInput, typeof missionUpdateInput> = {
  name: 'missions',
  model: MissionModel,
  list: {
    searchFields: ['title', 'description'],
    substringSearch: true,
    filters: { category: 'objectId', coin: 'objectId', verifyType: 'equals', enabled: 'boolean', mustDone: 'boolean' },
    sortable: ['order', 'title', 'reward', 'category', 'verifyType', 'coin', 'mustDone', 'enabled', 'completions', 'startsAt', 'endsAt'],
  },
  record: {
    select: '+secretCode',
    // toJSON already leaves the code out (a hidden field)
    present: (doc) => presentMission(doc as MissionDocument),
  },
  create: {
    schema: missionInput,
    // a reward above its coin's threshold is saved disabled, waiting for a second operator to put it live
    run: async (input, { operator, audited }) => {
      await checkReferences(input);
      const stored = asStored(input);
      const reward = await rewardFields(stored, null, operator, new Date());
      // a mission created with its reward held is a request of the money engine, which audits the creation once
      const request = { operator, held: reward.waiting };
      return createRequested(missionRequests, request, (_id) => MissionModel.create({ ...stored, ...reward, _id }), audited);
    },
  },
  update: {
    schema: missionUpdateInput,
    // a reward going live above its coin's threshold waits for a second operator; the rest of the edit applies
    run: async (id, input, { operator, audited, brakeState }) => {
      await checkReferences(input);
      const saved = await MissionModel.findById(id).select('+secretCode');
      if (!saved) throw new AppError('NOT_FOUND');
      const read = { waiting: saved.waiting, last: saved.lastDecision };
      // a form opened before a reward change was held or decided saves nothing (409); the write below is filtered on this read
      refuseUnseen(brakeState, [read]);
      if (input.verifyType === 'youtube' && !input.secretCode && !saved.secretCode)
        throw badInput({ secretCode: 'A YouTube mission needs its secret code' });
      const stored = asStored(input);
      const reward = await rewardFields(stored, saved, operator, new Date());
      // the edit that asked for the change waiting now is audited first, should a crash have cut it off
      if (saved.waiting) await finishRequests(missionRequests, [saved.waiting.id]);
      // a reward change held for a second operator is a request of the money engine, which audits the edit once
      return writeRequested(
        missionRequests,
        { record: id, ...changesOf(saved.waiting, reward.waiting), operator, before: () => presentMission(saved) },
        // only on the mission as read: the same waiting reward and last decision, and the live reward it writes back (409 if not)
        () =>
          updateAsRead(
            MissionModel,
            id,
            read,
            { $set: { ...stored, ...reward } },
            {
              places: MISSION_FIELDS,
              live: reward.waiting ? { reward: saved.reward, coin: saved.coin, enabled: saved.enabled } : {},
              select: '+secretCode',
            },
          ),
        audited,
      );
    },
  },
  remove: { run: deleteMission },
  extraRoutes: (router) => {
    /**
     * Puts a category's missions in the order given (dragged in the console): the list must name every mission of the category,
     * so an order made on a stale list is refused rather than half applied. Each mission that moves is audited.
     */
    router.post('/reorder', async (req, res) => {
      const { category, ids } = validate(missionsReorderInput, req.body);
      const context = operatorContext(req);
      const current = await MissionModel.find({ category }, { _id: 1, order: 1 }).lean();
      const known = new Set(current.map((m) => String(m._id)));
      if (current.length !== ids.length || ids.some((id) => !known.has(id)))
        throw badInput({ ids: 'The missions of this category changed: reload the list and drag again' });
      const changed: string[] = [];
      for (const [index, id] of ids.entries())
        if (await changeAudited(context.operator, { _id: id, category, order: { $ne: index * 10 } }, { order: index * 10 }))
          changed.push(id);
      res.json({ changed });
    });
    /**
     * Enables or disables several missions (a campaign's start or end): each one that changes is audited as its own update. A
     * mission whose reward needs a second operator to go live is not enabled: its enabling waits (`waiting`, present when any),
     * written only on the mission as this call read it, as a save's (409 `RECORD_CHANGED` if another save or a decision landed
     * since, the missions before it switched already); a disabled one drops what waited. The call names no more than the
     * missions: an enabling replaces a change that waited when it read the mission, named by its audit.
     */
    router.post('/enabled', async (req, res) => {
      const { ids, enabled } = validate(missionsEnabledInput, req.body);
      const context = operatorContext(req);
      const changed: string[] = [];
      const waiting: string[] = [];
      for (const id of new Set(ids)) {
        const mission = await MissionModel.findOne({ _id: id, enabled: !enabled }).lean();
        // the save that asked for the change waiting now (replaced or dropped here) is audited first, should a crash have cut it off
        if (mission?.waiting) await finishRequests(missionRequests, [mission.waiting.id]);
        if (enabled && mission && (await needsSecondOperator(mission.reward, mission.coin, mission))) {
          // the enabling held for a second operator is a request of the money engine, which audits it once
          const change = waitingReward(mission.reward, mission.coin, context.operator, new Date());
          await writeRequested(
            missionRequests,
            { record: id, ...changesOf(mission.waiting, change), operator: context.operator, before: () => missionRequests.shown(id) },
            // only on the mission as read: the same waiting change (or none) and last decision, and the reward it asks to enable
            () =>
              updateAsRead(
                MissionModel,
                id,
                { waiting: mission.waiting, last: mission.lastDecision },
                { $set: { waiting: change } },
                { places: MISSION_FIELDS, live: { enabled: false, reward: mission.reward, coin: mission.coin } },
              ),
            () => undefined,
          );
          waiting.push(id);
          continue;
        }
        const fields = enabled ? { enabled } : { enabled, waiting: null };
        if (await changeAudited(context.operator, { _id: id, enabled: !enabled }, fields)) changed.push(id);
      }
      res.json({ changed, ...(waiting.length ? { waiting } : {}) });
    });
    /** A second, independent operator puts a waiting reward live (`id`: the change they saw). */
    router.post('/:id/reward/approve', async (req, res) => {
      const { id } = validate(changeApprovalInput, req.body);
      const approved = await approveMissionReward(req.params.id, id, operatorContext(req).operator, new Date());
      res.json(presentMission(approved));
    });
    /** Turns a waiting reward down, with the reason; the mission stays as it is. */
    router.post('/:id/reward/reject', async (req, res) => {
      const { id, rejectReason } = validate(changeRejectionInput, req.body);
      const rejected = await rejectMissionReward(req.params.id, id, rejectReason, operatorContext(req).operator, new Date());
      res.json(presentMission(rejected));
    });
  },
};
