import { blockedByStarMissions, claimableAt, codeMatches, decideClaim, type ClaimSituation } from './missionRules';

const GO = new Date('2025-03-01T10:00:00Z');
const minutesAfterGo = (minutes: number) => new Date(GO.getTime() + minutes * 60_000);

function situation(overrides: Partial<ClaimSituation>): ClaimSituation {
  return {
    verifyType: 'auto',
    verifyDuration: 0,
    mustDone: false,
    status: 'started',
    startedAt: GO,
    unfinishedStarMissions: 0,
    now: minutesAfterGo(1),
    ...overrides,
  };
}

describe('star gate', () => {
  it('holds back other missions while a star mission is unfinished, never the star missions themselves', () => {
    expect(blockedByStarMissions({ mustDone: false }, 1)).toBe(true);
    expect(blockedByStarMissions({ mustDone: true }, 3)).toBe(false);
    expect(blockedByStarMissions({ mustDone: false }, 0)).toBe(false);
  });

  it('refuses a claim with the star message before checking anything about the mission itself', () => {
    expect(decideClaim(situation({ status: 'not_started', verifyType: 'youtube', unfinishedStarMissions: 2 }))).toEqual({
      refuse: 'STAR_MISSIONS_FIRST',
    });
  });

  it('still says a mission is already done or waiting rather than blaming the star missions', () => {
    expect(decideClaim(situation({ status: 'done', unfinishedStarMissions: 1 }))).toEqual({ refuse: 'ALREADY_DONE' });
    expect(decideClaim(situation({ status: 'pending', unfinishedStarMissions: 1 }))).toEqual({ refuse: 'ALREADY_PENDING' });
  });
});

describe('claim readiness by verify type', () => {
  it('lets Auto be claimed without Go, starting it on the way', () => {
    expect(decideClaim(situation({ status: 'not_started', startedAt: null }))).toEqual({ step: 'complete', startFirst: true });
    expect(decideClaim(situation({ status: 'started' }))).toEqual({ step: 'complete', startFirst: false });
  });

  it.each(['time', 'telegram', 'youtube', 'instagram', 'manual'] as const)('asks for Go first on a %s mission', (verifyType) => {
    expect(decideClaim(situation({ verifyType, verifyDuration: 5, status: 'not_started', startedAt: null }))).toEqual({
      refuse: 'MISSION_NOT_STARTED',
    });
    // a rejected one is tried again from Go
    expect(decideClaim(situation({ verifyType, verifyDuration: 5, status: 'rejected' }))).toEqual({ refuse: 'MISSION_NOT_STARTED' });
  });

  it.each(['time', 'instagram'] as const)('makes %s wait its verify duration from Go, to the second', (verifyType) => {
    const early = decideClaim(situation({ verifyType, verifyDuration: 10, now: new Date(minutesAfterGo(10).getTime() - 1000) }));
    expect(early).toEqual({ refuse: 'TOO_EARLY', params: { claimableAt: minutesAfterGo(10).toISOString() } });
    expect(decideClaim(situation({ verifyType, verifyDuration: 10, now: minutesAfterGo(10) }))).toEqual({
      step: 'complete',
      startFirst: false,
    });
  });

  it('sends Telegram to the membership check, YouTube to the code check and Manual to review', () => {
    expect(decideClaim(situation({ verifyType: 'telegram' }))).toMatchObject({ step: 'checkMembership' });
    expect(decideClaim(situation({ verifyType: 'youtube' }))).toMatchObject({ step: 'checkCode' });
    expect(decideClaim(situation({ verifyType: 'manual' }))).toMatchObject({ step: 'review' });
  });

  it('gives a claim time only to missions verified by time', () => {
    expect(claimableAt('time', 15, GO)).toEqual(minutesAfterGo(15));
    expect(claimableAt('instagram', 1, GO)).toEqual(minutesAfterGo(1));
    expect(claimableAt('auto', 15, GO)).toBeNull();
    expect(claimableAt('time', 15, null)).toBeNull();
  });
});

describe('YouTube code', () => {
  it('matches ignoring case and surrounding spaces', () => {
    expect(codeMatches('Gift2025', '  gIFT2025 ')).toBe(true);
    expect(codeMatches('Gift2025', 'gift2024')).toBe(false);
    expect(codeMatches('Gift2025', undefined)).toBe(false);
  });

  it('never matches an empty secret, even an empty answer', () => {
    expect(codeMatches('', '')).toBe(false);
    expect(codeMatches(undefined, '')).toBe(false);
  });
});
