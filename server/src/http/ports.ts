import type { AuditAction, ErrorCode } from '@gift/shared';
import type { Env } from '../env';
import type { AppError } from '../lib/errors';
import type { Logger } from '../lib/logger';

/**
 * What the http/ kits need from the modules. The kits sit below the modules, which build their routes with them, so
 * they import none (lint checks it): a composition root hands these functions in once, as it is first imported.
 * rest/registry.ts configures the console's, trpc/root.ts the player API's. A kit used before then throws, naming the root.
 */

/** A signed-in operator, as the console's routes see them (`req.account`). */
export interface AdminPrincipal {
  id: string;
  username: string;
  permissions: string[];
  /** Two-step sign-in is on (set on the operator of a request): in production money moves only then. */
  totpEnabled?: boolean;
  /** The console session the request's token names (set on the operator of a request). */
  sessionId?: string;
}

/** One operator write through a resource route, as the audit log keeps it. */
interface AuditEntry {
  operator: AdminPrincipal;
  action: AuditAction;
  resource: string;
  record: string;
  /** The record as the console showed it before the write (null for a create) and after (null for a delete). */
  before: unknown;
  after: unknown;
}

/** What the console's kits (adminAuth.ts, resource.ts) need: from the accounts and audit modules. */
interface ConsolePorts {
  /** The enabled operator a console token names, at the token's version and with its session live; null refuses the token. */
  accountForToken: (subject: string, version: unknown, sessionId: unknown) => Promise<AdminPrincipal | null>;
  recordAudit: (entry: AuditEntry) => Promise<void>;
}

/**
 * The player of a procedure (`ctx.user`) is the users module's document: trpc/root.ts says so by declaration merging,
 * `declare module '../http/ports' { interface PlayerType { player: UserDocument } }`, so that the kits need not import it.
 * @public (used there, where knip does not look)
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by trpc/root.ts
export interface PlayerType {}
export type Player = PlayerType extends { player: infer P } ? P : { _id: unknown };

/** How many calls one subject may make in each fixed window; the rateLimits module counts them. */
export interface RateLimit {
  name: string;
  limit: number;
  windowSeconds: number;
  /** Counted in each instance's memory (no database write per call): a flood guard protecting neither money nor sign-in. */
  perInstance?: boolean;
}

/** What the player API's kits (context.ts, trpc.ts) need: from the users and rateLimits modules. */
interface PlayerApiPorts {
  /** The player of a request's Authorization header (none without one), or why the credential sent was refused. */
  authenticatePlayer: (
    header: string | undefined,
    env: Env,
    now: Date,
    logger?: Logger,
    ip?: string,
  ) => Promise<{ user: Player | null; error?: ErrorCode }>;
  /** Why the player may not call now (banned; frozen, for a money move), or null. */
  standingRefusal: (player: Player, options: { money: boolean }) => AppError | null;
  /** Counts one call of `subject`, refused (RATE_LIMITED) beyond the limit. */
  enforceRateLimit: (rule: RateLimit, subject: string, now: Date) => Promise<void>;
}

/** Ports that `root` sets once; reading them before is a wiring mistake, said plainly. */
function portsSetBy<T>(root: string) {
  let ports: T | undefined;
  const set = (given: T) => {
    ports = given;
  };
  const get = (): T => {
    if (!ports) throw new Error(`server/src/http/ used before ${root} configured it: import ${root} first`);
    return ports;
  };
  return { set, get };
}

const consoleSlot = portsSetBy<ConsolePorts>('rest/registry.ts');
export const configureConsole = consoleSlot.set;
export const consolePorts = consoleSlot.get;

const playerApiSlot = portsSetBy<PlayerApiPorts>('trpc/root.ts');
export const configurePlayerApi = playerApiSlot.set;
export const playerApiPorts = playerApiSlot.get;
