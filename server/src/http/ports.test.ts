import { consolePorts, playerApiPorts } from './ports';

// this file imports no composition root: the kits' ports are as a wiring mistake would leave them
describe('the ports of the http/ kits, before a composition root configured them', () => {
  it('refuse to be used, naming the root that configures them', () => {
    expect(() => consolePorts()).toThrow('server/src/http/ used before rest/registry.ts configured it');
    expect(() => playerApiPorts()).toThrow('server/src/http/ used before trpc/root.ts configured it');
  });
});
