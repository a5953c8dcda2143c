import { broadcastInput, broadcastUpdate, segmentCountInput } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { operatorContext } from '../../http/adminAuth';
import { validate, type ResourceDefinition } from '../../http/resource';
import { BroadcastModel } from './broadcast.model';
import {
  broadcastRate,
  buttonsOpenTheirPage,
  createBroadcast,
  failuresOf,
  presentBroadcast,
  requireBotToken,
  resendUnknown,
  sendTestBroadcast,
  updateBroadcast,
} from './broadcasts.service';
import { countSegment } from './segments';

/**
 * Broadcasts in the console (`broadcasts`, its own permission): a draft is written and edited, counted, tested on
 * the operator's own Telegram and started; then paused, resumed or cancelled with `PUT {status}`. Kept for the
 * record: a broadcast is cancelled, not deleted.
 */
export const broadcastsResource: ResourceDefinition<typeof broadcastInput, typeof broadcastUpdate> = {
  name: 'broadcasts',
  model: BroadcastModel,
  list: { searchFields: ['text'], substringSearch: true, filters: { status: 'equals' } },
  record: { present: (doc) => presentBroadcast(doc, broadcastRate()) },
  create: { schema: broadcastInput, run: (input, { operator }) => createBroadcast(input, operator) },
  update: {
    schema: broadcastUpdate,
    run: async (id, input, { operator, named }) => {
      // a start without a bot would wait for ever: said at once instead
      if (input.status === 'sending') await requireBotToken();
      return updateBroadcast(id, input, named, operator);
    },
  },
  remove: { refusal: 'a broadcast is kept as a record; cancel it instead' },
  extraRoutes: (router) => {
    // how many players a segment reaches now, before anything is saved (a POST: the segment is a body)
    router.post('/count', async (req, res) => {
      const { segment } = validate(segmentCountInput, req.body);
      res.json({ count: await countSegment(segment) });
    });
    // whether a button opens the page it names (the server has an https PUBLIC_URL), for the form to say what happens
    router.get('/button-target', (_req, res) => {
      res.json({ hasPublicUrl: buttonsOpenTheirPage() });
    });
    // the players it did not reach, with Telegram's reasons: the first hundred
    router.get('/:id/failures', async (req, res) => {
      if (!/^[0-9a-f]{24}$/.test(req.params.id)) throw new AppError('NOT_FOUND');
      res.json(await failuresOf(req.params.id));
    });
    router.post('/:id/test', async (req, res) => {
      const { operator } = operatorContext(req);
      if (!/^[0-9a-f]{24}$/.test(req.params.id)) throw new AppError('NOT_FOUND');
      res.json(await sendTestBroadcast(req.params.id, operator.id));
    });
    // the operator's confirmed choice to send again to the players whose outcome is unknown (some may get it twice)
    router.post('/:id/resend-unknown', async (req, res) => {
      const { operator } = operatorContext(req);
      await requireBotToken();
      const { broadcast, requeued } = await resendUnknown(req.params.id, operator);
      res.json({ ...presentBroadcast(broadcast, broadcastRate()), requeued });
    });
  },
};
