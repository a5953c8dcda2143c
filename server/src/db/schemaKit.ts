import { Schema, type InferSchemaType, type SchemaTypeOptions, type Types } from 'mongoose';
import { fromMicros, toMicros } from '@gift/shared';

/** The fields of a new record of a model, typed by its schema (for the inserts the demo seed makes through each module). */
export type NewRecord<M extends { schema: unknown }> = Partial<InferSchemaType<M['schema']>>;

/** What JSON makes of a value: dates and ObjectIds arrive as strings. */
export type Json<T> = T extends Date | Types.ObjectId
  ? string
  : T extends (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

type Fields<M extends { schema: unknown }> = InferSchemaType<M['schema']>;

/**
 * A record of a model as the console's REST API answers it (the model's toJSON under applyConventions): `id` for `_id`, the
 * `Money` fields, stored as micro-units, as decimal strings, and the `Hidden` fields (marked `hidden`) left out.
 */
export type ConsoleRecord<
  M extends { schema: unknown },
  Money extends keyof Fields<M> = never,
  Hidden extends keyof Fields<M> = never,
> = Json<{ id: string; createdAt: Date; updatedAt: Date } & Omit<Fields<M>, Money | Hidden> & { [K in Money]: string }>;

/** Money is stored as integer micro-units; a decimal string assigned to it is converted exactly. */
export function money<const O extends Omit<SchemaTypeOptions<number>, 'type'>>(options: O = {} as O) {
  return {
    type: Number,
    default: 0,
    set: (value: unknown) => (typeof value === 'string' ? Number(toMicros(value)) : value),
    validate: { validator: (v: number) => Number.isSafeInteger(v), message: 'Amount out of range' },
    // a marker applyConventions reads, to turn the micro-units into a decimal string in JSON
    money: true,
    ...options,
  };
}

function getPath(target: Record<string, unknown>, path: string[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    target,
  );
}
function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  const parent = getPath(target, path.slice(0, -1));
  if (parent && typeof parent === 'object') (parent as Record<string, unknown>)[path[path.length - 1]!] = value;
}

/** The options of every schema: createdAt and updatedAt kept, no `__v`. */
export const schemaOptions = { timestamps: true, versionKey: false } as const;

/**
 * Every schema passes through here so JSON output is uniform: `id` instead of `_id`, fields marked `hidden`
 * (password hashes, secret codes) never serialised, money as decimal strings, ObjectId references as strings.
 */
export function applyConventions<S extends Schema>(schema: S): S {
  const moneyPaths: string[][] = [];
  const hiddenPaths: string[] = [];
  schema.eachPath((path, type) => {
    const opts = type.options as { money?: boolean; hidden?: boolean };
    if (opts.money) moneyPaths.push(path.split('.'));
    if (opts.hidden) hiddenPaths.push(path);
  });
  schema.set('toJSON', {
    virtuals: false,
    transform: (_doc, ret: Record<string, unknown>) => {
      ret.id = String(ret._id);
      delete ret._id;
      for (const path of hiddenPaths) delete ret[path];
      for (const path of moneyPaths) {
        const value = getPath(ret, path);
        if (typeof value === 'number') setPath(ret, path, fromMicros(BigInt(value)));
      }
      for (const [key, value] of Object.entries(ret)) {
        if (value && typeof value === 'object' && (value as { _bsontype?: string })._bsontype === 'ObjectId')
          ret[key] = (value as Types.ObjectId).toHexString();
      }
      return ret;
    },
  });
  return schema;
}

/** A reference to another collection's record by its ObjectId. */
export const ref = <const O extends { required?: boolean; default?: null }>(model: string, options: O = {} as O) => ({
  type: Schema.Types.ObjectId,
  ref: model,
  ...options,
});
