import { OperationModel } from './operation.model';

/**
 * Of these operation keys, the ones whose operation is done: the engine runs neither its admit nor its steps again, so a
 * record that remembers the key of an operation that changed it (a mission's place, taken once per operation) may forget it.
 */
export async function doneOperationKeys(keys: readonly string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const done = await OperationModel.find({ key: { $in: keys }, state: 'done' }, { key: 1 }).lean();
  return new Set(done.map((operation) => operation.key));
}
