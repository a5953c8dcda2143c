import { Router, type Request } from 'express';
import { OBJECT_ID_PATTERN, playerNoteInput, timelineQuery } from '@gift/shared';
import { badInput } from '../../lib/errors';
import { operatorContext } from '../../http/adminAuth';
import { validate } from '../../http/resource';
import { addPlayerNote, playerTimeline } from './timeline.service';

/**
 * /api/admin/timeline (the `users` permission; app.ts checks it): a player's timeline (issue 34, item 6).
 * GET /:id?kind&before&limit answers `{ entries, next }`, newest first; POST /:id/notes adds an operator's internal note
 * (`users:write`), answered as its timeline entry (201). Notes are the console's alone: no player route reads them.
 */
export function timelineRouter(): Router {
  const router = Router();
  router.param('id', (_req, _res, next, value: string) => next(OBJECT_ID_PATTERN.test(value) ? undefined : badInput({ id: 'Invalid id' })));
  router.get('/:id', async (req: Request<{ id: string }>, res) => {
    res.json(await playerTimeline(req.params.id, validate(timelineQuery, req.query)));
  });
  router.post('/:id/notes', async (req: Request<{ id: string }>, res) => {
    const { text } = validate(playerNoteInput, req.body);
    res.status(201).json(await addPlayerNote(req.params.id, text, operatorContext(req).operator));
  });
  return router;
}
