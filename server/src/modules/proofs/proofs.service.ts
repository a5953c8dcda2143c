import mongoose, { isValidObjectId, Types } from 'mongoose';
import sharp from 'sharp';
import type { Readable } from 'node:stream';
import { badInput } from '../../lib/errors';
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
/** Larger pictures are refused before decoding, so no upload makes the server decode gigapixels. */
const MAX_INPUT_PIXELS = 40_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);

function bucket() {
  const db = mongoose.connection.db;
  if (!db) throw new Error('the database is not connected');
  return new mongoose.mongo.GridFSBucket(db, { bucketName: BUCKET });
}

/**
 * Checks a picture, shrinks it to fit 1600×1600, and stores it as WebP without its metadata (a phone photo's location and
 * camera stay with the player). Refuses anything that is not a JPEG, PNG, WebP or GIF picture.
 */
export async function storeProofImage(playerId: Id, upload: Buffer, now: Date): Promise<string> {
  if (!upload.length) throw badInput({ image: 'Choose a picture' });
  if (upload.length > PROOF_UPLOAD_LIMIT_BYTES) throw badInput({ image: 'The picture is larger than 8 MB' });
  let webp: Buffer;
  try {
    const image = sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS, animated: false });
    const { format } = await image.metadata();
    if (!format || !ACCEPTED_FORMATS.has(format)) throw new Error(`format ${format}`);
    webp = await image
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    throw badInput({ image: 'Send a JPEG, PNG, WebP or GIF picture' });
  }
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
