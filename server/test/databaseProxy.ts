import { createConnection, createServer, type Socket } from 'node:net';
import { once } from 'node:events';

/**
 * A TCP proxy in front of the test database that can fail as a database or its network fails:
 * - `cut()`: every connection is reset and new ones are refused, as when the database is down or unreachable;
 * - `hang()`: connections stay open but nothing passes either way, as when the database or a link is stuck;
 * - `restore()`: forwarding again (what a hang held back is delivered on connections still open).
 */
export interface DatabaseProxy {
  /** The test database's `mongodb://` address with the proxy's port instead. */
  uri: string;
  cut: () => void;
  hang: () => void;
  restore: () => void;
  close: () => Promise<void>;
}

type Mode = 'forward' | 'cut' | 'hang';

interface Link {
  client: Socket;
  database: Socket;
  /** Bytes held while hung, each to be written to the other side. */
  held: Array<{ to: Socket; chunk: Buffer }>;
}

/** Starts a proxy on a random loopback port to the database of `uri` (a `mongodb://host:port/...` address). */
export async function startDatabaseProxy(uri: string): Promise<DatabaseProxy> {
  const match = /^mongodb:\/\/([^/:]+):(\d+)(\/.*)?$/.exec(uri);
  if (!match) throw new Error(`cannot proxy ${uri}: one host:port expected`);
  const [, host, port, rest = '/'] = match;
  let mode: Mode = 'forward';
  const links = new Set<Link>();

  const drop = (link: Link) => {
    links.delete(link);
    link.client.destroy();
    link.database.destroy();
  };

  const server = createServer((client) => {
    if (mode === 'cut') return void client.destroy();
    const database = createConnection({ host, port: Number(port) });
    const link: Link = { client, database, held: [] };
    links.add(link);
    const pass = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (mode === 'forward') to.write(chunk);
        else link.held.push({ to, chunk });
      });
    pass(client, database);
    pass(database, client);
    for (const socket of [client, database]) {
      socket.on('error', () => drop(link));
      socket.on('close', () => drop(link));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port: proxyPort } = server.address() as { port: number };

  return {
    uri: `mongodb://127.0.0.1:${proxyPort}${rest}`,
    cut: () => {
      mode = 'cut';
      for (const link of [...links]) drop(link);
    },
    hang: () => {
      mode = 'hang';
    },
    restore: () => {
      mode = 'forward';
      for (const link of links) for (const { to, chunk } of link.held.splice(0)) to.write(chunk);
    },
    close: async () => {
      for (const link of [...links]) drop(link);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
