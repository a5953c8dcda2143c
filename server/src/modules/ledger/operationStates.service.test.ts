import { onFault } from '../../lib/faults';
import { createCoin, createPlayer } from '../../../test/factories';
import { recoverPendingEntries } from './ledger.service';
import { registerOperationKind, runOperation, unregisterForTest } from './engine';
import { doneOperationKeys } from './operationStates.service';

describe('done operation keys', () => {
  it('names only the operations the engine will not run again: done, not one still recorded, nor an unknown key', async () => {
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
      expect(await doneOperationKeys(['os:done', 'os:recorded', 'os:unknown'])).toEqual(new Set(['os:done']));
      expect(await recoverPendingEntries(0)).toBe(1);
      expect(await doneOperationKeys(['os:done', 'os:recorded'])).toEqual(new Set(['os:done', 'os:recorded']));
      expect(await doneOperationKeys([])).toEqual(new Set());
    } finally {
      onFault(null);
      unregisterForTest('os-step');
    }
  });
});
