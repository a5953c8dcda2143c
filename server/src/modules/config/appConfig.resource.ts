import { appConfigInput } from '@gift/shared';
import type { ResourceDefinition } from '../../rest/resource';
import { requireGiftCoin } from '../coins/giftCoins.service';
import { AppConfigModel } from './appConfig.model';
import { getAppConfig } from './config.service';

/** The id the console edits App Config by, whatever the record's own id is. */
const CURRENT_CONFIG_ID = 'current';

type ConfigDocument = { toJSON: () => Record<string, unknown>; botToken?: string };

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
    present: (doc) => ({ ...(doc as ConfigDocument).toJSON(), botTokenSet: !!(doc as ConfigDocument).botToken }),
  },
  // the list always shows the one record, created with defaults on first sight
  extraRoutes: (router) => {
    router.get('/', async (_req, _res, next) => {
      await getAppConfig();
      next();
    });
  },
  update: {
    schema: appConfigInput,
    // an update changes only the fields the body names: the schema's defaults must not reset the others
    run: async (id, input, { named }) => {
      const referrerCoin = input.referrerCoin || null;
      const miningCoin = input.miningCoin || null;
      if (referrerCoin && named('referrerCoin')) await requireGiftCoin('referrerCoin', referrerCoin);
      if (miningCoin && named('miningCoin')) await requireGiftCoin('miningCoin', miningCoin);
      const { botToken, ...fields } = { ...input, referrerCoin, miningCoin };
      const changes = Object.fromEntries(Object.entries(fields).filter(([field]) => named(field)));
      return AppConfigModel.findByIdAndUpdate(
        id,
        { $set: { ...changes, ...(botToken ? { botToken } : {}) } },
        { returnDocument: 'after', runValidators: true },
      ).select('+botToken');
    },
  },
};
