import { starOfferInput } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { operatorContext } from '../../http/adminAuth';
import { orderedResource, type ResourceDefinition } from '../../http/resource';
import { playerIdsMatching } from '../users/players.service';
import { StarOfferModel, StarPurchaseModel } from './shop.models';
import { refundPurchase, starsRevenue } from './shop.service';

/** The Stars shop's items: what each gives, its price in whole Stars, on sale or not. Purchases name them: switched off, not deleted. */
export const starOffersResource = orderedResource('star-offers', StarOfferModel, starOfferInput, {
  search: ['title'],
  filters: { kind: 'equals' },
  sortable: ['stars'],
  remove: { refusal: 'purchases name it; switch it off instead' },
});

interface NamedPurchase {
  toJSON(): Record<string, unknown>;
}

/** A purchase as the console lists it: the player's id with their name beside it. */
function presentPurchase(doc: unknown) {
  const json = (doc as NamedPurchase).toJSON();
  const user = json.user as { id?: string; _id?: unknown; name?: string; username?: string } | null;
  return {
    ...json,
    user: user && typeof user === 'object' ? String(user.id ?? user._id) : user,
    userName: user?.name ?? '',
    username: user?.username ?? '',
  };
}

/** Stars payments: the list, Stars revenue, and Refund (Telegram returns the Stars; the boost is taken back). */
export const starPurchasesResource: ResourceDefinition = {
  name: 'star-purchases',
  model: StarPurchaseModel,
  list: {
    searchFields: ['chargeId'],
    searchReferences: { user: playerIdsMatching },
    filters: { status: 'equals', user: 'objectId' },
    sortable: ['stars', 'paidAt', 'refundedAt'],
  },
  record: { populate: [{ path: 'user', select: 'name username' }], present: presentPurchase },
  remove: { refusal: 'a purchase stays on record; refund it instead' },
  extraRoutes: (router) => {
    router.get('/revenue', async (_req, res) => {
      res.json(await starsRevenue(new Date()));
    });
    router.post('/:id/refund', async (req, res) => {
      const { operator, log } = operatorContext(req);
      if (!/^[0-9a-f]{24}$/.test(req.params.id)) throw new AppError('NOT_FOUND');
      const refunded = await refundPurchase(req.params.id, operator, log);
      res.json(presentPurchase(await refunded.populate({ path: 'user', select: 'name username' })));
    });
  },
};
