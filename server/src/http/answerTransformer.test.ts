import superjson from 'superjson';
import { serializeAnswer } from './answerTransformer';

/** What reaches the client: the payload as JSON, as tRPC writes it. */
const wire = (payload: unknown) => JSON.stringify(payload);
const sameAsSuperjson = (value: unknown) => expect(wire(serializeAnswer(value))).toBe(wire(superjson.serialize(value)));

describe('the player API writes answers as superjson does', () => {
  it('writes plain data and Dates byte for byte as superjson, and reads back the same values', () => {
    const answer = {
      covers: [{ id: 'a', title: 'Welcome', link: '' }],
      categories: [{ id: 'c', missionsTotal: 3, missionsDone: 0 }],
      starMissions: [
        { id: 'm1', reward: '10.5', claimableAt: new Date('2026-11-27T10:00:00.123Z'), endsAt: null, proof: [], story: null },
        { id: 'm2', reward: '0', claimableAt: null, endsAt: new Date('2026-12-01T00:00:00Z'), full: false },
      ],
      'odd.key': { 'back\\slash': new Date(0) },
      streak: { days: 2, doneToday: true, next: { days: 7, amount: '100', symbol: 'GIFT' } },
      empty: {},
      nested: [[new Date(1)], []],
      nullPrototype: Object.assign(Object.create(null) as object, { at: new Date(2) }),
    };
    sameAsSuperjson(answer);
    expect(superjson.deserialize(JSON.parse(wire(serializeAnswer(answer))) as never)).toEqual(answer);
    // the Dates come back as Dates
    const back = superjson.deserialize<typeof answer>(JSON.parse(wire(serializeAnswer(answer))) as never);
    expect(back.starMissions[0]!.claimableAt).toBeInstanceOf(Date);
  });

  it('leaves to superjson what only it writes, so those answers are unchanged too', () => {
    const shared = { id: 'same' };
    const cases: unknown[] = [
      new Date(5),
      { missing: undefined },
      [1, undefined],
      { big: 10n },
      { n: Number.NaN },
      { n: Number.POSITIVE_INFINITY },
      { n: -0 },
      { map: new Map([['a', 1]]) },
      { set: new Set([1]) },
      { twice: [shared, shared] },
      { invalid: new Date(Number.NaN) },
      { url: new URL('https://t.me/x') },
      { error: new Error('boom') },
      {
        klass: new (class Point {
          x = 1;
        })(),
      },
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3],
    ];
    for (const value of cases) sameAsSuperjson(value);
  });

  it('refuses the keys superjson refuses', () => {
    const polluted = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    expect(() => serializeAnswer(polluted)).toThrow(/prototype pollution/);
  });

  it('agrees with superjson on many generated answers', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
    const leaf = () =>
      pick<() => unknown>([
        () => 'text.with.dots',
        () => Math.round(random() * 1000) / 10,
        () => random() > 0.5,
        () => null,
        () => new Date(Math.floor(random() * 2e12)),
        () => (random() > 0.9 ? undefined : 'x'),
      ])();
    const value = (depth: number): unknown => {
      if (depth > 3 || random() < 0.3) return leaf();
      if (random() < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, (_, i) => [pick(['a', 'b.c', 'd\\e', `k${i}`]), value(depth + 1)]),
      );
    };
    for (let i = 0; i < 500; i++) sameAsSuperjson(value(0));
  });
});
