import { jsonNestsDeeperThan } from './jsonBody';

describe('the JSON depth scan', () => {
  it('counts objects and arrays, and stops at the first level past the limit', () => {
    expect(jsonNestsDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":[{"b":[[1]]}]}', 4)).toBe(true);
    expect(jsonNestsDeeperThan(`${'['.repeat(20_000)}${']'.repeat(20_000)}`, 32)).toBe(true);
    expect(jsonNestsDeeperThan('[[],[],[],[],[],[]]', 2)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonNestsDeeperThan(JSON.stringify({ text: '[[[[[[{{{{{{' }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ text: 'say "[[[[" \\ [[[[' }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ text: 'a\\', list: [[1]] }), 2)).toBe(true);
  });
});
