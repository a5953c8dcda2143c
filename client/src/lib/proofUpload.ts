import { playerCredential } from './trpc';

/**
 * Why an upload failed: too large (bytes or pixels), not a picture, no started claim that asks for one, the day's quota
 * reached, or anything else (the connection, the server).
 */
export type UploadFailure = 'tooLarge' | 'tooManyPixels' | 'notPicture' | 'notStarted' | 'quota' | 'failed';

/** The failure a refused upload's answer says. */
function failureOf(status: number, body: { errors?: { image?: string } }): UploadFailure {
  if (status === 413) return 'tooLarge';
  if (status === 429) return 'quota';
  if (status === 409) return 'notStarted';
  if (status === 400) return body.errors?.image?.includes('megapixels') ? 'tooManyPixels' : 'notPicture';
  return 'failed';
}

export class UploadError extends Error {
  constructor(readonly reason: UploadFailure) {
    super(reason);
  }
}

/** The most the server takes (it refuses more with 413): checked here first, so nothing large is sent for nothing. */
const PROOF_IMAGE_LIMIT_BYTES = 8 * 1024 * 1024;

/** Sends a screenshot for a Manual mission's proof; the server shrinks and keeps it, and answers its id. */
export async function uploadProofImage(file: Blob): Promise<string> {
  if (file.size > PROOF_IMAGE_LIMIT_BYTES) throw new UploadError('tooLarge');
  let response: Response;
  try {
    response = await fetch('/api/proofs', {
      method: 'POST',
      headers: { Authorization: playerCredential().authorization, 'Content-Type': file.type || 'application/octet-stream' },
      body: file,
    });
  } catch {
    throw new UploadError('failed');
  }
  const body = (await response.json().catch(() => ({}))) as { imageId?: string; errors?: { image?: string } };
  if (response.ok && body.imageId) return body.imageId;
  throw new UploadError(failureOf(response.status, body));
}
