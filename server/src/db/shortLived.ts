import { performance } from 'node:perf_hooks';
import type { Schema } from 'mongoose';

/**
 * A read kept in this instance's memory for `lifetimeMs`, shared by every caller meanwhile (simultaneous callers share one
 * query too). `forget()` drops it at once: the model's writes in this instance call it (`forgetOnWrite`). Another instance
 * keeps its own copy, so there a write shows at most `lifetimeMs` late: only for reads no money decision depends on.
 */
export function shortLived<T>(read: () => Promise<T>, lifetimeMs: number) {
  let kept: { value: Promise<T>; until: number } | null = null;
  const get = (): Promise<T> => {
    const now = performance.now();
    if (kept && kept.until > now) return kept.value;
    const value = Promise.resolve(read());
    const entry = { value, until: now + lifetimeMs };
    kept = entry;
    // a failed read is not kept: the next caller asks again
    value.catch(() => {
      if (kept === entry) kept = null;
    });
    return value;
  };
  // a read sent before the write may still answer with what was there: it is no longer kept, so later callers read again
  const forget = () => {
    kept = null;
  };
  return { get, forget };
}

const WRITES = [
  'save',
  'insertMany',
  'updateOne',
  'updateMany',
  'replaceOne',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
  'deleteOne',
  'deleteMany',
  'bulkWrite',
] as const;

/**
 * Hooks every write through this schema's model (call it before the model is compiled); returns how to be told of them, so that
 * a service keeping a `shortLived` read of the model forgets it after each write this instance makes.
 */
export function writesThrough(schema: Schema): (listener: () => void) => void {
  const listeners: Array<() => void> = [];
  for (const write of WRITES) schema.post(write as 'save', () => listeners.forEach((listener) => listener()));
  return (listener) => void listeners.push(listener);
}
