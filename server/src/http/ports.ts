import type { AuditAction } from '@gift/shared';

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
  /** The enabled operator a console token names, at the token's version; null refuses the token. */
  accountForToken: (subject: string, version: unknown) => Promise<AdminPrincipal | null>;
  recordAudit: (entry: AuditEntry) => Promise<void>;
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
