import { useEffect, useState } from 'react';
import { HttpError, useGetIdentity } from 'react-admin';
import type { ProgressRecord } from '@gift/server';
import { useConsoleCalls } from '../../dataProvider';

/** The reviewer's hold is renewed this often while the claim stays open (the server keeps one for five minutes). */
const RENEW_MS = 60_000;

/** Who holds a claim the reviewer cannot take, and until when (an ISO time). */
export interface ClaimHolder {
  name: string;
  until: string;
}

/** Whether another reviewer holds this claim now: it is theirs to decide, and the queue's keys and selection pass over it. */
export function heldByAnother(record: Pick<ProgressRecord, 'lockedBy' | 'lockedUntil'>, me: string | undefined, now = Date.now()) {
  return !!record.lockedBy && record.lockedBy !== me && !!record.lockedUntil && Date.parse(record.lockedUntil) > now;
}

/** The signed-in reviewer's id (undefined while it is read). */
export function useReviewerId(): string | undefined {
  const { identity } = useGetIdentity();
  return identity ? String(identity.id) : undefined;
}

/** The holder a 409 CLAIM_LOCKED names; null for any other answer. */
function holderOf(error: unknown): ClaimHolder | null {
  if (!(error instanceof HttpError)) return null;
  const body = error.body as { code?: string; params?: { name?: string; at?: string } } | undefined;
  return body?.code === 'CLAIM_LOCKED' ? { name: body.params?.name ?? '', until: body.params?.at ?? '' } : null;
}

/**
 * Opening a pending claim takes the reviewer's hold on it and renews it every minute while it stays open; leaving lets it go.
 * Answers who else holds it, if someone does (their approval or rejection alone is accepted until then).
 */
export function useClaimLock(id: string | undefined, pending: boolean): ClaimHolder | null {
  const calls = useConsoleCalls();
  // the holder answered for one claim: another claim opened has none until its own answer
  const [answer, setAnswer] = useState<{ id: string; holder: ClaimHolder | null } | null>(null);
  useEffect(() => {
    if (!id || !pending) return;
    let live = true;
    let held = false;
    const take = () =>
      calls.lockClaim(id).then(
        () => {
          held = true;
          if (live) setAnswer({ id, holder: null });
        },
        (error: unknown) => live && setAnswer({ id, holder: holderOf(error) }),
      );
    void take();
    const timer = setInterval(() => void take(), RENEW_MS);
    return () => {
      live = false;
      clearInterval(timer);
      if (held) void calls.releaseClaim(id).catch(() => undefined);
    };
  }, [calls, id, pending]);
  return answer && answer.id === id && pending ? answer.holder : null;
}
