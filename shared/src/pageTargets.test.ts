import { randomBytes } from 'node:crypto';
import { isPageTarget, PAGE_TARGETS, pageTargetParam, readPageTarget } from './pageTargets';

it('names each page in a start parameter Telegram accepts, and reads it back', () => {
  for (const page of PAGE_TARGETS) {
    const param = pageTargetParam(page);
    expect(param).toMatch(/^[A-Za-z0-9_-]{9,64}$/);
    expect(readPageTarget(param)).toEqual({ page });
  }
  const stakeId = '65a1b2c3d4e5f60718293a4b';
  expect(pageTargetParam('stakes', stakeId)).toBe(`go-stakes-${stakeId}`);
  expect(readPageTarget(`go-stakes-${stakeId}`)).toEqual({ page: 'stakes', id: stakeId });
  // an id that would not survive the link is left out: the page still opens
  expect(pageTargetParam('stakes', 'not/an id')).toBe('go-stakes');
});

it('never takes a referral code for a page target, even one starting with go-', () => {
  // referral codes are 8 characters of base64url (users.service newReferralCode)
  for (const code of [
    'go-abcde',
    'go-minin',
    'go------',
    'Ab3_x-9Z',
    ...Array.from({ length: 200 }, () => randomBytes(6).toString('base64url')),
  ]) {
    expect([code, isPageTarget(code), readPageTarget(code)]).toEqual([code, false, null]);
  }
});

it('opens no page for a page target this version does not know or a malformed one', () => {
  expect(isPageTarget('go-treasure')).toBe(true);
  for (const param of ['go-treasure', 'go-leagues-', 'go-stakes-a-b', 'go-Mining', 'go-mining_x', `go-stakes-${'a'.repeat(41)}`, '', null])
    expect([param, readPageTarget(param)]).toEqual([param, null]);
});
