import { OperationModel } from './operation.model';

/**
 * The state of each of these operations that exists ('recorded', 'posted' or 'done'; a key not named has none). One done is
 * run no more, neither its admit nor its steps, so a record that remembers the key of an operation that changed it (a
 * mission's place, taken once per operation) may forget it then.
 */
export async function operationStates(keys: readonly string[]): Promise<Map<string, string>> {
  if (!keys.length) return new Map();
  const found = await OperationModel.find({ key: { $in: keys } }, { key: 1, state: 1 }).lean();
  return new Map(found.map((operation) => [operation.key, operation.state]));
}
