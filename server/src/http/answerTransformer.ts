import superjson from 'superjson';

/**
 * The player API's transformer: superjson on the wire, with a faster way to write the common answer (issue 33).
 *
 * superjson's own serializer copies each value and allocates two arrays per node it visits, which cost a home call more
 * than all its other work in the server (about 12 times a `JSON.stringify` of the same answer). Most answers are plain
 * data: objects, arrays, strings, finite numbers, booleans, null, and Dates. For those this walks the value once, leaves
 * it as it is (`JSON.stringify` writes a Date as superjson does, through its `toISOString`) and notes each Date's path
 * exactly as superjson would: the same bytes reach the client, which reads them with superjson as before.
 * Anything else (undefined, a bigint, NaN, -0, a Map, a class instance, one object reached twice, a key superjson
 * refuses) is handed to superjson itself.
 */

/** A value the quick walk does not write; superjson does. */
const NOT_PLAIN = Symbol('not plain');

/** superjson's escaping of one path segment. */
const escapeKey = (key: string) => (key.includes('.') || key.includes('\\') ? key.replace(/\\/g, '\\\\').replace(/\./g, '\\.') : key);

/** Keys superjson refuses to write (a prototype pollution risk): left to it, so it refuses them as it always did. */
const REFUSED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** superjson's annotations of a value: its type, or its children's by escaped dotted path (none: nothing to note). */
type Annotations = [string] | Record<string, [string]> | undefined;

/** Adds a child's annotations under its key, flattened as superjson flattens them (in the same order, so in the same bytes). */
function noteChild(inner: Record<string, [string]> | undefined, key: string, child: Annotations) {
  if (!child) return inner;
  const notes = inner ?? {};
  if (Array.isArray(child)) notes[escapeKey(key)] = child;
  else for (const [path, type] of Object.entries(child)) notes[`${escapeKey(key)}.${path}`] = type;
  return notes;
}

/**
 * Walks `value` as superjson's walker does and answers its annotations, or NOT_PLAIN at the first thing only superjson
 * writes. `seen` holds every object visited: one reached twice is superjson's to write (it records the sharing).
 */
function walk(value: unknown, seen: Set<object>): Annotations | typeof NOT_PLAIN {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? undefined : NOT_PLAIN;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return undefined;
  if (seen.has(value)) return NOT_PLAIN;
  seen.add(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) || Object.getPrototypeOf(value) !== Date.prototype ? NOT_PLAIN : ['Date'];
  let inner: Record<string, [string]> | undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) return NOT_PLAIN;
      const child = walk(value[index], seen);
      if (child === NOT_PLAIN) return NOT_PLAIN;
      inner = noteChild(inner, String(index), child);
    }
    return inner;
  }
  if (!isPlainObject(value)) return NOT_PLAIN;
  for (const key of Object.keys(value)) {
    if (REFUSED_KEYS.has(key)) return NOT_PLAIN;
    const child = walk(value[key], seen);
    if (child === NOT_PLAIN) return NOT_PLAIN;
    inner = noteChild(inner, key, child);
  }
  return inner;
}

/** superjson's payload for `value`, the same as `superjson.serialize` writes once it is turned into JSON. */
export function serializeAnswer(value: unknown): ReturnType<typeof superjson.serialize> {
  const annotations = value instanceof Date ? NOT_PLAIN : walk(value, new Set());
  if (annotations === NOT_PLAIN) return superjson.serialize(value);
  // a plain answer is written as it is; JSON.stringify writes its Dates as superjson's ISO strings
  return annotations ? { json: value as never, meta: { values: annotations as never, v: 1 } } : { json: value as never };
}

export const answerTransformer = { serialize: serializeAnswer, deserialize: (payload: unknown) => superjson.deserialize(payload as never) };
