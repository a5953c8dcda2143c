import {
  microsToStored,
  missionInput,
  missionsEnabledInput,
  missionsReorderInput,
  missionUpdateInput,
  toMicros,
  type MissionInput,
} from '@gift/shared';
import { operatorContext } from '../../rest/adminAuth';
import { recordAudit } from '../audit/audit.service';
import { AppError, badInput } from '../../lib/errors';
import { validate, type ResourceDefinition } from '../../rest/resource';
import { requireGiftCoin } from '../coins/giftCoins.service';
import { categoryExists } from '../content/categories.service';
import { MissionModel } from './mission.models';
import { deleteMission } from './missions.service';

type MissionDocument = { toJSON: () => Record<string, unknown>; secretCode?: string };

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
    present: (doc) => ({ ...(doc as MissionDocument).toJSON(), secretCodeSet: !!(doc as MissionDocument).secretCode }),
  },
  create: {
    schema: missionInput,
    run: async (input) => {
      await checkReferences(input);
      return MissionModel.create(asStored(input));
    },
  },
  update: {
    schema: missionUpdateInput,
    run: async (id, input) => {
      await checkReferences(input);
      const saved = await MissionModel.findById(id).select('+secretCode');
      if (!saved) throw new AppError('NOT_FOUND');
      if (input.verifyType === 'youtube' && !input.secretCode && !saved.secretCode)
        throw badInput({ secretCode: 'A YouTube mission needs its secret code' });
      return MissionModel.findByIdAndUpdate(id, { $set: asStored(input) }, { returnDocument: 'after', runValidators: true }).select(
        '+secretCode',
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
    /** Enables or disables several missions (a campaign's start or end): each one that changes is audited as its own update. */
    router.post('/enabled', async (req, res) => {
      const { ids, enabled } = validate(missionsEnabledInput, req.body);
      const context = operatorContext(req);
      const changed: string[] = [];
      for (const id of new Set(ids))
        if (await changeAudited(context.operator, { _id: id, enabled: !enabled }, { enabled })) changed.push(id);
      res.json({ changed });
    });
  },
};
