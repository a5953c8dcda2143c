/** Mining yields its amount at an even rate between start and end; these are its figures at a moment. */
export const HOUR_MS = 3_600_000;

export interface MiningWindow {
  startedAt: Date;
  endsAt: Date;
  /** Micro-units the whole session yields. */
  amount: bigint;
}

export interface MiningProgress {
  /** Micro-units mined so far, rounded down so the total is reached exactly at the end. */
  minedSoFar: bigint;
  /** Micro-units per hour, rounded down. */
  ratePerHour: bigint;
  remainingMs: number;
  finished: boolean;
}

export function miningProgress(session: MiningWindow, now: Date): MiningProgress {
  const duration = BigInt(Math.max(1, session.endsAt.getTime() - session.startedAt.getTime()));
  const elapsed = BigInt(Math.min(Math.max(0, now.getTime() - session.startedAt.getTime()), Number(duration)));
  return {
    minedSoFar: (session.amount * elapsed) / duration,
    ratePerHour: (session.amount * BigInt(HOUR_MS)) / duration,
    remainingMs: Math.max(0, session.endsAt.getTime() - now.getTime()),
    finished: now.getTime() >= session.endsAt.getTime(),
  };
}

/** A session started now lasts the earn duration of App Config. */
export function miningWindow(now: Date, earnDurationHours: number): { startedAt: Date; endsAt: Date } {
  return { startedAt: now, endsAt: new Date(now.getTime() + earnDurationHours * HOUR_MS) };
}
