import { EnvError, loadEnv } from '../env';
import { armFaultPoints } from './faults';
import { planted } from './mutations';

/** A mutation run plants one known bug for the crash test to catch; production never plants one. */
describe('mutations', () => {
  afterEach(() => armFaultPoints({ NODE_ENV: 'test' }));

  it('plants the mutation the environment names, outside production only', () => {
    armFaultPoints(loadEnv({ NODE_ENV: 'test', GIFT_MUTATION: 'refund-twice' }));
    expect(planted('refund-twice')).toBe(true);
    expect(planted('key-guard-off')).toBe(false);

    armFaultPoints(
      loadEnv({ NODE_ENV: 'production', MONGO_URL: 'mongodb://db:27017/gift', JWT_SECRET: 'x'.repeat(40), GIFT_MUTATION: 'refund-twice' }),
    );
    expect(planted('refund-twice')).toBe(false);
  });

  it('refuses a name that is not a mutation, listing the ones there are', () => {
    expect(() => loadEnv({ GIFT_MUTATION: 'everything-off' })).toThrow(EnvError);
    expect(() => loadEnv({ GIFT_MUTATION: 'everything-off' })).toThrow(
      /sweep-skips-refund, key-guard-off, refund-twice, postings-outside-engine/,
    );
  });
});
