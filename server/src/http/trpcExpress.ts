import type { AnyTRPCRouter } from '@trpc/server';
import { createURL, internal_exceptionHandler } from '@trpc/server/adapters/node-http';
import type { CreateExpressContextOptions } from '@trpc/server/adapters/express';
import { resolveResponse, type HTTPBaseHandlerOptions } from '@trpc/server/http';
import type { Request as ExpressRequest, RequestHandler } from 'express';

export interface TrpcExpressOptions<TRouter extends AnyTRPCRouter> extends HTTPBaseHandlerOptions<TRouter, ExpressRequest> {
  createContext: (opts: CreateExpressContextOptions) => Promise<unknown>;
}

/** The request's headers as a Fetch `Headers`, HTTP/2 pseudo-headers left out (as tRPC's Node adapter builds them). */
function fetchHeaders(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (key.startsWith(':') || value == null) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else headers.append(key, value);
  }
  return headers;
}

/**
 * tRPC mounted in Express, as `@trpc/server/adapters/express` mounts it (the same `resolveResponse`, context, errors,
 * batching and answers), with less work per call: the request's abort signal fires only when the client leaves before
 * the answer is written (tRPC's adapter aborts it on every request's close, building an abort error each time), and
 * the answer, one JSON text, is written with one `end` instead of through a web stream. The body was parsed by the
 * JSON body parser mounted before (`jsonBody`), as with tRPC's adapter.
 */
export function trpcExpressHandler<TRouter extends AnyTRPCRouter>(opts: TrpcExpressOptions<TRouter>): RequestHandler {
  return (req, res) => {
    const path = req.path.slice(req.path.lastIndexOf('/') + 1);
    const failed = internal_exceptionHandler({ ...opts, req, res, path });
    const run = async () => {
      const leaving = new AbortController();
      const onClose = () => {
        if (!res.writableFinished) leaving.abort();
      };
      res.once('close', onClose);
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.body !== undefined;
      const request = new Request(createURL(req), {
        method: req.method,
        headers: fetchHeaders(req),
        signal: leaving.signal,
        ...(hasBody ? { body: typeof req.body === 'string' ? req.body : JSON.stringify(req.body) } : {}),
      });
      const response = await resolveResponse({
        ...opts,
        req: request,
        path,
        error: null,
        createContext: (inner) => opts.createContext({ ...inner, req, res }),
        onError: (o) => opts.onError?.({ ...o, req }),
      });
      if (res.statusCode === 200) res.statusCode = response.status;
      response.headers.forEach((value, key) => {
        if (key.toLowerCase() !== 'set-cookie') res.setHeader(key, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length) res.setHeader('set-cookie', cookies);
      // the product's answers are JSON texts, never streams (no subscription, no streaming link): written at once
      const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
      res.off('close', onClose);
      // its length said, as Express's res.json says it: compression writes the head before the body, and an answer
      // whose length is unknown by then goes out chunked (more bytes, more writes, the client decoding the chunks)
      if (body) res.setHeader('Content-Length', body.length);
      res.end(body);
    };
    run().catch(failed);
  };
}
