import mongoose, { isValidObjectId, Types } from 'mongoose';
import sharp from 'sharp';
import type { Readable } from 'node:stream';
import { AppError, badInput } from '../../lib/errors';
import type { Id } from '../../db/ids';

/**
 * Screenshots players attach to a Manual mission's claim, kept in MongoDB (GridFS bucket `proofs`), each with the player
 * who sent it. Only that player and operators read one back.
 */
const BUCKET = 'proofs';
/** The most a player may upload at once: a phone screenshot is well under it. */
export const PROOF_UPLOAD_LIMIT_BYTES = 8 * 1024 * 1024;
/** Stored at most this wide and high: an operator reads a screenshot, nothing larger is needed. */
const MAX_SIDE = 1600;
/**
 * Larger pictures are refused from their header, before decoding: a phone's screenshot is 3 to 4 megapixels and its
 * camera's photo 12; 16 bounds one decode to about 64 MB of memory (finding 13: six 40-megapixel PNGs took 443 MB).
 */
export const MAX_INPUT_PIXELS = 16_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);
/** Uploads waiting for the one picture this instance processes at a time; beyond them an upload is refused (503, try again). */
const MAX_WAITING_UPLOADS = 16;

/**
 * One picture decoded at a time on this instance, the others waiting their turn in order: a burst of uploads costs one
 * decode's memory and one core, and the server keeps answering everything else (`/healthz` among it) meanwhile.
 */
class ProcessingQueue {
  active = 0;
  /** The most processed at once since the start: 1, whatever arrives (the test reads it). */
  mostActive = 0;
  private readonly waiting: Array<() => void> = [];

  get waitingCount() {
    return this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active > 0) {
      if (this.waiting.length >= MAX_WAITING_UPLOADS) throw new AppError('UNAVAILABLE');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active++;
    this.mostActive = Math.max(this.mostActive, this.active);
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
export const proofProcessing = new ProcessingQueue();

/** Tests only: awaited inside each picture's turn, before it is decoded, to hold the turn open while others arrive. */
let turnHook: (() => Promise<void>) | null = null;
export function onProofTurn(hook: (() => Promise<void>) | null): void {
  turnHook = hook;
}

type ImageClaimCheck = (playerId: Id, now: Date) => Promise<boolean>;
let imageClaimCheck: ImageClaimCheck | null = null;

/** The missions module says whether a player has a started claim whose proof is a picture (registered at its load: no cycle). */
export function registerImageClaimCheck(check: ImageClaimCheck): void {
  imageClaimCheck = check;
}

/**
 * An upload is part of a claim: refused (409, "Start this mission first") unless the player has started a Manual mission that asks for a
 * screenshot and has not yet claimed it. Nobody stores pictures for nothing (finding 13).
 */
export async function requireImageClaim(playerId: Id, now: Date): Promise<void> {
  if (!imageClaimCheck) throw new Error('the missions module has not registered its image claim check');
  if (!(await imageClaimCheck(playerId, now))) throw new AppError('MISSION_NOT_STARTED');
}

function bucket() {
  const db = mongoose.connection.db;
  if (!db) throw new Error('the database is not connected');
  return new mongoose.mongo.GridFSBucket(db, { bucketName: BUCKET });
}

/** The picture checked, shrunk to fit 1600×1600 and made WebP without its metadata, in its turn of the queue. */
async function processed(upload: Buffer): Promise<Buffer> {
  return proofProcessing.run(async () => {
    await turnHook?.();
    let image: ReturnType<typeof sharp>;
    let pixels: number;
    try {
      // the header alone (its own limit off, to say what is wrong): the size is known before anything is decoded
      const { format, width = 0, height = 0 } = await sharp(upload, { limitInputPixels: false, animated: false }).metadata();
      image = sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS, animated: false });
      if (!format || !ACCEPTED_FORMATS.has(format)) throw new Error(`format ${format}`);
      pixels = width * height;
    } catch {
      throw badInput({ image: 'Send a JPEG, PNG, WebP or GIF picture' });
    }
    if (pixels > MAX_INPUT_PIXELS) throw badInput({ image: 'The picture is larger than 16 megapixels: send a screenshot' });
    try {
      return await image
        .rotate()
        .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
    } catch {
      throw badInput({ image: 'Send a JPEG, PNG, WebP or GIF picture' });
    }
  });
}

/**
 * Checks a picture, shrinks it to fit 1600×1600, and stores it as WebP without its metadata (a phone photo's location and
 * camera stay with the player). Refuses anything that is not a JPEG, PNG, WebP or GIF picture, or larger than 16 megapixels.
 */
export async function storeProofImage(playerId: Id, upload: Buffer, now: Date): Promise<string> {
  if (!upload.length) throw badInput({ image: 'Choose a picture' });
  if (upload.length > PROOF_UPLOAD_LIMIT_BYTES) throw badInput({ image: 'The picture is larger than 8 MB' });
  const webp = await processed(upload);
  const id = new Types.ObjectId();
  await new Promise<void>((resolve, reject) => {
    const stream = bucket().openUploadStreamWithId(id, `${String(id)}.webp`, {
      metadata: { user: new Types.ObjectId(String(playerId)), contentType: 'image/webp', uploadedAt: now },
    });
    stream.once('error', reject);
    stream.once('finish', () => resolve());
    stream.end(webp);
  });
  return String(id);
}

/** Whether this proof picture exists and was sent by this player. */
export async function isProofImageOf(imageId: string, playerId: Id): Promise<boolean> {
  if (!isValidObjectId(imageId)) return false;
  const [file] = await bucket()
    .find({ _id: new Types.ObjectId(imageId), 'metadata.user': new Types.ObjectId(String(playerId)) }, { limit: 1 })
    .toArray();
  return !!file;
}

/**
 * The picture's bytes, for its player (`playerId`) or for an operator (no player): null when it does not exist or is
 * another player's, which the caller answers alike (404), so nobody learns that someone else's picture exists.
 */
export async function openProofImage(imageId: string, playerId?: Id): Promise<{ stream: Readable; length: number } | null> {
  if (!isValidObjectId(imageId)) return null;
  const filter: Record<string, unknown> = { _id: new Types.ObjectId(imageId) };
  if (playerId !== undefined) filter['metadata.user'] = new Types.ObjectId(String(playerId));
  const [file] = await bucket().find(filter, { limit: 1 }).toArray();
  if (!file) return null;
  return { stream: bucket().openDownloadStream(file._id), length: file.length };
}

/** Pictures uploaded before `cutoff` (at most `limit`, oldest first): the candidates for removal once no claim carries them. */
export async function proofImagesUploadedBefore(cutoff: Date, limit: number): Promise<string[]> {
  const files = await bucket()
    .find({ uploadDate: { $lt: cutoff } }, { limit, sort: { uploadDate: 1 }, projection: { _id: 1 } })
    .toArray();
  return files.map((file) => String(file._id));
}

/** Removes pictures by id (one already gone is skipped). */
export async function removeProofImages(ids: string[]): Promise<number> {
  let removed = 0;
  for (const id of ids) {
    try {
      await bucket().delete(new Types.ObjectId(id));
      removed++;
    } catch {
      // already removed by another pass
    }
  }
  return removed;
}
