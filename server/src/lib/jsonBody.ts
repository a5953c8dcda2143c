import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { AppError, badInput } from './errors';

/** No input of the product nests deeper than a handful of levels; this leaves room and stops stack-deep bodies. */
const MAX_JSON_DEPTH = 32;

/** Whether JSON text nests objects and arrays deeper than `max`, found by one scan of the raw text without parsing it. */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      if (++depth > max) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
    }
  }
  return false;
}

export function tooDeep(): AppError {
  return badInput({ root: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` }, 'Request nested too deeply');
}

/** Refuses a JSON text (a body, or a query parameter such as tRPC's `input`) that nests too deep, before anything walks it. */
export function checkJsonDepth(text: string): void {
  if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) throw tooDeep();
}

/** body-parser's error types this module adds: the door answers them as 400 and 415 without logging. */
export const TOO_DEEP = 'entity.too.deep';
const NOT_JSON = 'content.type.unsupported';

/**
 * The JSON body parser of the APIs: a body must be uncompressed UTF-8 `application/json`
 * (anything else is 415), at most `limit` bytes (413) and at most MAX_JSON_DEPTH deep (400).
 */
export function jsonBody(limit: string): RequestHandler[] {
  const requireJson = (req: Request, _res: Response, next: NextFunction) => {
    // req.is is null without a body, false for a body of another type
    if (req.is('application/json') === false) return next(Object.assign(new Error('not JSON'), { status: 415, type: NOT_JSON }));
    next();
  };
  const parse = express.json({
    limit,
    inflate: false,
    verify: (_req, _res, buffer) => {
      if (jsonNestsDeeperThan(buffer.toString('utf8'), MAX_JSON_DEPTH))
        throw Object.assign(new Error('too deep'), { status: 400, type: TOO_DEEP });
    },
  });
  return [requireJson, parse];
}
