import superjson from 'superjson';

/** A refusal the stand-in answers with, shaped like the real server's (trpc/trpc.ts errorFormatter). */
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

export type Handlers = Record<string, (input: unknown) => unknown>;

/**
 * A stand-in for the server's /trpc endpoint speaking httpBatchLink's wire format with superjson,
 * recording every call with the credential it carried.
 */
export function fakeTrpcServer(handlers: Handlers) {
  const calls: Array<{ path: string; input: unknown; authorization: string | null }> = [];

  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const requested = new URL(url instanceof Request ? url.url : String(url), 'http://app.test');
    const paths = decodeURIComponent(requested.pathname.replace(/^\/trpc\//, '')).split(',');
    const raw = init?.method === 'POST' ? JSON.parse(String((init.body as string | undefined) ?? '{}')) : JSON.parse(requested.searchParams.get('input') ?? '{}');
    const authorization = new Headers(init?.headers).get('authorization');
    const results = await Promise.all(
      paths.map(async (path, index) => {
        const encoded = (raw as Record<string, unknown>)[String(index)];
        const input = encoded === undefined ? undefined : superjson.deserialize(encoded as never);
        calls.push({ path, input, authorization });
        try {
          const handler = handlers[path];
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
