import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import { enforceRateLimit } from '../rateLimits/rateLimit.service';
import { authenticatePlayer } from '../users/playerAuth.service';
import { standingRefusal } from '../users/playerStatus.service';
import type { UserDocument } from '../users/players.service';
import { openProofImage, PROOF_UPLOAD_LIMIT_BYTES, storeProofImage } from './proofs.service';

/** A player attaches a few screenshots to a claim; a hundred an hour is more than anyone sends by hand. */
const PROOF_UPLOADS_PER_PLAYER = { name: 'proofs.upload', limit: 100, windowSeconds: 3600 };

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
  router.post(
    '/',
    async (req: PlayerRequest, _res, next) => {
      try {
        // an upload is part of a claim: refused while the player cannot claim, before the body is read
        const refusal = standingRefusal(req.player!, { money: true });
        if (refusal) throw refusal;
        await enforceRateLimit(PROOF_UPLOADS_PER_PLAYER, String(req.player!._id), now());
        next();
      } catch (error) {
        next(error);
      }
    },
    express.raw({ type: () => true, limit: PROOF_UPLOAD_LIMIT_BYTES }),
    async (req: PlayerRequest, res, next) => {
      try {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        res.status(201).json({ imageId: await storeProofImage(req.player!._id, body, now()) });
      } catch (error) {
        next(error);
      }
    },
  );
  router.get('/:id', async (req: PlayerRequest, res, next) => {
    try {
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
