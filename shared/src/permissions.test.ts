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

describe('reads implied by a permission (the lookups its forms need)', () => {
  it('lets a missions account look up categories and gift coins, but not read them from the menu nor write them', () => {
    expect(hasPermission(['missions:write'], 'categories', 'lookup')).toBe(true);
    expect(hasPermission(['missions:read'], 'gift-coins', 'lookup')).toBe(true);
    expect(hasPermission(['missions:write'], 'categories', 'read')).toBe(false);
    expect(hasPermission(['missions:write'], 'gift-coins', 'write')).toBe(false);
  });
  it('implies nothing beyond the list', () => {
    expect(hasPermission(['missions:write'], 'users', 'lookup')).toBe(false);
    expect(hasPermission(['gift-coins:write'], 'missions', 'lookup')).toBe(false);
    expect(hasPermission(['user-missions:read'], 'users', 'lookup')).toBe(true);
    expect(hasPermission(['withdraws:write'], 'accounts', 'lookup')).toBe(false);
  });
});
