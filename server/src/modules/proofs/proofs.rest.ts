import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Env } from '../../env';
import { AppError, badInput, tooManyRequests } from '../../lib/errors';
import { OBJECT_ID_PATTERN } from '@gift/shared';
import { countAmount, countHit, hitsSoFar } from '../rateLimits/rateLimit.service';
import { authenticatePlayer } from '../users/playerAuth.service';
import { standingRefusal } from '../users/playerStatus.service';
import type { UserDocument } from '../users/players.service';
import { openProofImage, PROOF_UPLOAD_LIMIT_BYTES, requireImageClaim, storeProofImage } from './proofs.service';

const DAY_SECONDS = 86_400;
/** A player attaches a screenshot or two to a claim: twenty pictures a day is more than anyone sends by hand. */
export const PROOF_UPLOADS_PER_DAY = { name: 'proofs.uploads', limit: 20, windowSeconds: DAY_SECONDS };
/** And at most 40 MB of pictures a day, whatever their number (finding 13: one player stored 422 MB in an hour). */
export const PROOF_BYTES_PER_DAY = { name: 'proofs.bytes', limit: 40 * 1024 * 1024, windowSeconds: DAY_SECONDS };

/** 429 with the day's quota in words and the seconds until it renews. */
function quotaReached(resetAt: Date, now: Date) {
  const error = tooManyRequests(Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)));
  error.message = `At most ${PROOF_UPLOADS_PER_DAY.limit} pictures (${PROOF_BYTES_PER_DAY.limit / 1024 / 1024} MB) a day: send more tomorrow`;
  return error;
}

/** Every `:id` of the proofs' doors is a picture's id: anything else is the caller's mistake (400), never a query. */
function checkImageId(router: Router) {
  router.param('id', (_req, _res, next, value: string) => next(OBJECT_ID_PATTERN.test(value) ? undefined : badInput({ id: 'Invalid id' })));
}

type PlayerRequest = Request & { player?: UserDocument };

/** The signed-in player, by the same credential the app's calls carry; 401 without one. */
function requirePlayer(env: Env, now: () => Date) {
  return async (req: PlayerRequest, _res: Response, next: NextFunction) => {
    try {
      const auth = await authenticatePlayer(req.get('authorization'), env, now(), req.log, req.ip);
      if (!auth.user) throw new AppError(auth.error ?? 'UNAUTHORIZED');
      req.player = auth.user;
      next();
    } catch (error) {
      next(error);
    }
  };
}

function sendImage(res: Response, image: NonNullable<Awaited<ReturnType<typeof openProofImage>>>) {
  res.set({ 'Content-Type': 'image/webp', 'Content-Length': String(image.length), 'X-Content-Type-Options': 'nosniff' });
  image.stream.once('error', () => res.destroy());
  image.stream.pipe(res);
}

/**
 * /api/proofs: a player uploads a screenshot for a Manual mission's claim (the body is the picture itself) and gets its id;
 * they read back only their own pictures.
 */
export function playerProofsRouter(env: Env, now: () => Date = () => new Date()): Router {
  const router = Router();
  router.use(requirePlayer(env, now));
  checkImageId(router);
  router.post(
    '/',
    async (req: PlayerRequest, _res, next) => {
      try {
        // an upload is part of a claim: refused while the player cannot claim, or has no claim that asks for a picture,
        // or has sent the day's pictures, before the body is read
        const player = req.player!;
        const at = now();
        const refusal = standingRefusal(player, { money: true });
        if (refusal) throw refusal;
        await requireImageClaim(player._id, at);
        const uploads = await countHit(PROOF_UPLOADS_PER_DAY, String(player._id), at);
        if (!uploads.allowed) throw quotaReached(uploads.resetAt, at);
        const sent = await hitsSoFar(PROOF_BYTES_PER_DAY, String(player._id), at);
        const announced = Number(req.get('content-length') ?? 0);
        if (sent.count + (Number.isFinite(announced) ? announced : 0) > PROOF_BYTES_PER_DAY.limit) throw quotaReached(sent.resetAt, at);
        next();
      } catch (error) {
        next(error);
      }
    },
    express.raw({ type: () => true, limit: PROOF_UPLOAD_LIMIT_BYTES }),
    async (req: PlayerRequest, res, next) => {
      try {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        // the bytes as received (a body without its length announced is counted here too)
        const bytes = await countAmount(PROOF_BYTES_PER_DAY, String(req.player!._id), body.length, now());
        if (!bytes.allowed) throw quotaReached(bytes.resetAt, now());
        res.status(201).json({ imageId: await storeProofImage(req.player!._id, body, now()) });
      } catch (error) {
        next(error);
      }
    },
  );
  router.get('/:id', async (req: PlayerRequest, res, next) => {
    try {
      // a banned player reads nothing, their own pictures included (finding 15)
      const refusal = standingRefusal(req.player!, { money: false });
      if (refusal) throw refusal;
      const image = await openProofImage(String(req.params.id), req.player!._id);
      if (!image) throw new AppError('NOT_FOUND');
      sendImage(res, image);
    } catch (error) {
      next(error);
    }
  });
  return router;
}

/** /api/admin/proofs/:id: an operator who reviews missions reads any player's proof picture. */
export function operatorProofsRouter(): Router {
  const router = Router();
  checkImageId(router);
  router.get('/:id', async (req, res, next) => {
    try {
      const image = await openProofImage(String(req.params.id));
      if (!image) throw new AppError('NOT_FOUND');
      sendImage(res, image);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
