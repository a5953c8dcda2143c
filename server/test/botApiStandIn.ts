import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Telegram Bot API: answers getChatMember from a membership table
 * and records sendMessage calls. Refuses any token but the expected one, as Telegram does.
 */
export interface BotApiStandIn {
  apiRoot: string;
  /** chat ("@channel") -> user id -> member record */
  members: Map<string, Map<number, { status: string; is_member?: boolean }>>;
  sent: Array<{ chat_id: number; text: string; [key: string]: unknown }>;
  calls: Array<{ method: string; params: Record<string, unknown> }>;
  close: () => Promise<void>;
}

export async function startBotApiStandIn(token: string): Promise<BotApiStandIn> {
  const members: BotApiStandIn['members'] = new Map();
  const sent: BotApiStandIn['sent'] = [];
  const calls: BotApiStandIn['calls'] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      if (!match || match[1] !== token) return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const method = match[2]!;
      const params = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      calls.push({ method, params });
      if (method === 'getChatMember') {
        const chat = members.get(String(params.chat_id));
        if (!chat) return reply(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
        const member = chat.get(Number(params.user_id)) ?? { status: 'left' };
        return reply(200, { ok: true, result: { user: { id: Number(params.user_id) }, ...member } });
      }
      if (method === 'sendMessage') {
        sent.push(params as BotApiStandIn['sent'][number]);
        return reply(200, { ok: true, result: { message_id: sent.length } });
      }
      reply(404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    members,
    sent,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
