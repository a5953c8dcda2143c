/**
 * When a Telegram account was made, estimated from its id: Telegram hands out user ids in a rising sequence, so a
 * few known (id, month) points, interpolated, date any id to within a few months. The points are public estimates
 * (accounts whose creation is known); past the last one the last rate goes on. An estimate, never proof: the score
 * gives it a small weight.
 */
const ANCHORS: Array<[id: number, date: string]> = [
  [1, '2013-08-14'],
  [100_000_000, '2014-11-01'],
  [250_000_000, '2016-06-01'],
  [400_000_000, '2017-07-01'],
  [600_000_000, '2018-05-01'],
  [1_000_000_000, '2019-10-01'],
  [1_500_000_000, '2020-12-01'],
  [2_000_000_000, '2021-09-01'],
  [5_000_000_000, '2022-02-01'],
  [5_500_000_000, '2022-08-01'],
  [6_000_000_000, '2023-03-01'],
  [6_500_000_000, '2023-10-01'],
  [7_000_000_000, '2024-05-01'],
  [7_500_000_000, '2024-12-01'],
  [8_000_000_000, '2025-06-01'],
  [8_500_000_000, '2026-01-01'],
];
const POINTS = ANCHORS.map(([id, date]) => [id, Date.parse(`${date}T00:00:00Z`)] as const);

export function estimatedTelegramSignUp(telegramId: number): Date | null {
  if (!Number.isSafeInteger(telegramId) || telegramId <= 0) return null;
  let index = POINTS.findIndex(([id]) => id > telegramId);
  // past the last point, the last stretch's rate goes on
  if (index === -1) index = POINTS.length - 1;
  if (index === 0) index = 1;
  const [id0, time0] = POINTS[index - 1]!;
  const [id1, time1] = POINTS[index]!;
  return new Date(time0 + ((telegramId - id0) / (id1 - id0)) * (time1 - time0));
}
