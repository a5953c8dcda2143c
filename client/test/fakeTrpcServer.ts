import superjson from 'superjson';
import type { AnyProcedure } from '@trpc/server';
import type { AppRouter, RouterInputs, RouterOutputs } from '@gift/server';

/** Every procedure's path ('user.me', 'missions.claim', ...), read from the server's router. */
type ProcedurePaths<Record_, Prefix extends string = ''> = {
  [Key in keyof Record_ & string]: Record_[Key] extends AnyProcedure ? `${Prefix}${Key}` : ProcedurePaths<Record_[Key], `${Prefix}${Key}.`>;
}[keyof Record_ & string];
export type ProcedurePath = ProcedurePaths<AppRouter['_def']['record']>;

/** The type at a dotted path of the router's nested input or output types. */
type At<Tree, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? Head extends keyof Tree
    ? At<Tree[Head], Rest>
    : never
  : Path extends keyof Tree
    ? Tree[Path]
    : never;
export type InputOf<Path extends ProcedurePath> = At<RouterInputs, Path>;
export type OutputOf<Path extends ProcedurePath> = At<RouterOutputs, Path>;

/** A refusal the stand-in answers with, shaped like the real server's (server/src/http/trpc.ts errorFormatter). */
export class Refusal extends Error {
  constructor(
    readonly appCode: string,
    readonly httpStatus: number,
    message = appCode,
    readonly params: Record<string, string | number> | null = null,
  ) {
    super(message);
  }
}

const TRPC_CODES: Record<number, { name: string; json: number }> = {
  400: { name: 'BAD_REQUEST', json: -32600 },
  401: { name: 'UNAUTHORIZED', json: -32001 },
  403: { name: 'FORBIDDEN', json: -32003 },
  404: { name: 'NOT_FOUND', json: -32004 },
  500: { name: 'INTERNAL_SERVER_ERROR', json: -32603 },
};

/** A stand-in procedure: what the real one takes, and what it answers (or a Refusal thrown). */
export type Handler<Path extends ProcedurePath> = (input: InputOf<Path>) => OutputOf<Path> | Promise<OutputOf<Path>>;
/** The procedures a test's server answers, typed by the real router: a renamed procedure or a changed answer fails typecheck. */
export type Handlers = { [Path in ProcedurePath]?: Handler<Path> };

/**
 * A stand-in for the server's /trpc endpoint speaking httpBatchLink's wire format with superjson,
 * recording every call with the credential it carried.
 */
export function fakeTrpcServer(handlers: Handlers) {
  const calls: Array<{ path: string; input: unknown; authorization: string | null }> = [];

  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const requested = new URL(url instanceof Request ? url.url : String(url), 'http://app.test');
    const paths = decodeURIComponent(requested.pathname.replace(/^\/trpc\//, '')).split(',');
    const raw =
      init?.method === 'POST'
        ? JSON.parse(String((init.body as string | undefined) ?? '{}'))
        : JSON.parse(requested.searchParams.get('input') ?? '{}');
    const authorization = new Headers(init?.headers).get('authorization');
    const results = await Promise.all(
      paths.map(async (path, index) => {
        const encoded = (raw as Record<string, unknown>)[String(index)];
        const input = encoded === undefined ? undefined : superjson.deserialize(encoded as never);
        calls.push({ path, input, authorization });
        try {
          const handler = handlers[path as ProcedurePath] as ((input: unknown) => unknown) | undefined;
          if (!handler) throw new Refusal('NOT_FOUND', 404, `No procedure ${path}`);
          return { result: { data: superjson.serialize(await handler(input)) } };
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          const code = TRPC_CODES[error.httpStatus] ?? TRPC_CODES[500]!;
          return {
            error: superjson.serialize({
              message: error.message,
              code: code.json,
              data: { code: code.name, httpStatus: error.httpStatus, path, appCode: error.appCode, params: error.params, zodError: null },
            }),
          };
        }
      }),
    );
    return new Response(JSON.stringify(results), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }) as typeof globalThis.fetch;

  return { fetch, calls };
}
