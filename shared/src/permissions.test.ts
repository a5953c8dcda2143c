import { hasPermission } from './permissions';

describe('hasPermission', () => {
  it("grants everything to '*'", () => {
    expect(hasPermission(['*'], 'accounts', 'write')).toBe(true);
  });
  it('lets write imply read, but not read imply write', () => {
    expect(hasPermission(['users:write'], 'users', 'read')).toBe(true);
    expect(hasPermission(['users:read'], 'users', 'read')).toBe(true);
    expect(hasPermission(['users:read'], 'users', 'write')).toBe(false);
  });
  it('grants nothing on another resource', () => {
    expect(hasPermission(['users:write'], 'withdraws', 'read')).toBe(false);
    expect(hasPermission([], 'users', 'read')).toBe(false);
  });
});
