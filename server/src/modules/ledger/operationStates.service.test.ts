import { onFault } from '../../lib/faults';
import { createCoin, createPlayer } from '../../../test/factories';
import { recoverPendingEntries } from './ledger.service';
import { registerOperationKind, runOperation, unregisterForTest } from './engine';
import { operationStates } from './operationStates.service';

describe('operation states', () => {
  it('tells a done operation (run no more) from one still recorded, and names no unknown key', async () => {
    const [player, coin] = await Promise.all([createPlayer(), createCoin()]);
    registerOperationKind({ kind: 'os-step', steps: [{ name: 'follow-up', run: async () => undefined }] });
    const credit = (key: string) => ({
      kind: 'os-step',
      key,
      players: [{ user: player._id, coin: coin._id, amount: 1n, reason: 'gift' as const }],
      house: [{ account: 'gifts' as const, coin: coin._id, amount: -1n }],
    });
    try {
      await runOperation(credit('os:done'));
      onFault((point) => {
        if (point === 'ledger:after-record') throw new Error('crash after recording');
      });
      await expect(runOperation(credit('os:recorded'))).rejects.toThrow('crash');
      onFault(null);
      expect(await operationStates(['os:done', 'os:recorded', 'os:unknown'])).toEqual(
        new Map([
          ['os:done', 'done'],
          ['os:recorded', 'recorded'],
        ]),
      );
      expect(await recoverPendingEntries(0)).toBe(1);
      expect(await operationStates(['os:recorded'])).toEqual(new Map([['os:recorded', 'done']]));
      expect(await operationStates([])).toEqual(new Map());
    } finally {
      onFault(null);
      unregisterForTest('os-step');
    }
  });
});
