import { starOfferInput, type BoostKind } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { operatorContext } from '../../http/adminAuth';
import { orderedResource, type ResourceDefinition } from '../../http/resource';
import { changeRoutes } from '../accounts/changeDecisions.service';
import { createRequested, finishRequests, requestsOn, saveAsRead } from '../accounts/changeRequests.service';
import { withBrakeState, type ChangeDecision, type WaitingChange } from '../accounts/waitingChanges.service';
import { playerIdsMatching } from '../users/players.service';
import { playerLabels } from '../users/playerDays.service';
import { StarOfferModel, StarPurchaseModel } from './shop.models';
import { refundPurchase, starsRevenue } from './shop.service';
import { offerTermsToStore, starOfferChanges, termsOf } from './shopBrakes.service';

/** Stars offers as where a save holds terms for a second operator (accounts/changeRequests.service.ts). */
export const starOfferRequests = requestsOn(starOfferChanges, async (id) => {
  const offer = await StarOfferModel.findById(id);
  return offer && offer.toJSON();
});

/** An offer's terms as a save reads them, with the change that waits and the last decision. */
interface LiveOffer {
  kind: BoostKind;
  stars: number;
  multiplierPercent?: number | null;
  enabled?: boolean | null;
  waitingChange?: WaitingChange | null;
  lastChangeDecision?: ChangeDecision | null;
}

/** The live terms as a save read them, which it writes back when it holds others (a missing field read as none). */
const liveTerms = (live: LiveOffer) => ({
  kind: live.kind,
  stars: live.stars,
  multiplierPercent: live.multiplierPercent ?? null,
  enabled: live.enabled ?? null,
});

const offers = orderedResource('star-offers', StarOfferModel, starOfferInput, {
  search: ['title'],
  filters: { kind: 'equals' },
  sortable: ['stars'],
  remove: { refusal: 'purchases name it; switch it off instead' },
});

/**
 * The Stars shop's items: what each gives, its price in whole Stars, on sale or not. Purchases name them: switched off, not
 * deleted. Terms that let Stars buy more coins than the mining coin's threshold wait for a second operator (shopBrakes.service.ts).
 */
export const starOffersResource: ResourceDefinition<typeof starOfferInput> = {
  ...offers,
  record: { present: (doc) => withBrakeState((doc as { toJSON: () => Record<string, unknown> }).toJSON()) },
  create: {
    schema: starOfferInput,
    run: async (input, { operator, audited }) => {
      const terms = await offerTermsToStore(termsOf(input), null, operator);
      // an offer created with its terms held is a request of the money engine, which audits the creation once
      const request = { operator, held: terms.waitingChange };
      return createRequested(starOfferRequests, request, (_id) => StarOfferModel.create({ ...input, ...terms, _id }), audited);
    },
  },
  update: {
    schema: starOfferInput,
    run: async (id, input, { operator, audited, brakeState }) => {
      const live = await StarOfferModel.findById(id, {
        kind: 1,
        stars: 1,
        multiplierPercent: 1,
        enabled: 1,
        waitingChange: 1,
        lastChangeDecision: 1,
      }).lean<LiveOffer>();
      // the save that asked for the terms waiting now is audited first, should a crash have cut it off
      if (live?.waitingChange) await finishRequests(starOfferRequests, [live.waitingChange.id]);
      const terms = await offerTermsToStore(termsOf(input), live && termsOf(live), operator);
      // terms held for a second operator are a request of the money engine, which audits the edit once
      // only on the offer as read, and as the operator's form showed it: the same waiting terms and last decision, and the live
      // terms it writes back (409 if not)
      return saveAsRead(
        starOfferRequests,
        { id, read: live, held: terms.waitingChange, brakeState },
        { operator, update: { $set: { ...input, ...terms } }, live: live && terms.waitingChange ? liveTerms(live) : {} },
        audited,
      );
    },
  },
  extraRoutes: (router) => changeRoutes(router, starOfferChanges, (id) => StarOfferModel.findById(id)),
};

type PurchaseJson = Record<string, unknown> & { user: unknown };

/** Purchases as the console lists them: each player's name and @username beside the id, read for the page at once. */
async function withBuyers(records: unknown[]) {
  const rows = records as PurchaseJson[];
  const buyers = await playerLabels(rows.map((row) => String(row.user)));
  return rows.map((row) => ({
    ...row,
    userName: buyers.get(String(row.user))?.name ?? '',
    username: buyers.get(String(row.user))?.username ?? '',
  }));
}
const oneWithBuyer = async (doc: unknown) => (await withBuyers([(doc as { toJSON(): PurchaseJson }).toJSON()]))[0];

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
  record: { presentPage: withBuyers, show: oneWithBuyer },
  remove: { refusal: 'a purchase stays on record; refund it instead' },
  extraRoutes: (router) => {
    router.get('/revenue', async (_req, res) => {
      res.json(await starsRevenue(new Date()));
    });
    router.post('/:id/refund', async (req, res) => {
      const { operator, log } = operatorContext(req);
      if (!/^[0-9a-f]{24}$/.test(req.params.id)) throw new AppError('NOT_FOUND');
      res.json(await oneWithBuyer(await refundPurchase(req.params.id, operator, log)));
    });
  },
};
