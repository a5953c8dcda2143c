/**
 * A TON Center-compatible stand-in on `@ton/sandbox`: a real TVM emulator running the real W5 wallet and the
 * standard jetton minter and wallet, behind the parts of TON Center's v2 API the product uses
 * (`/api/v2/jsonRPC`, and the same methods as GET `/api/v2/<method>?…`). The product's own HTTP client talks to
 * it exactly as it talks to TON Center.
 *
 * At start it deploys the demo hot wallet and funds it with TON and with each demo jetton, whose masters are
 * deterministic (same code, admin and content every time), so the demo's coins always point at them.
 *
 * Two test controls, never part of TON Center: POST /sandbox/control `{ "advanceSeconds": n }` moves the
 * chain's clock, `{ "dropSends": n }` accepts the next n messages and loses them (a message lost in the
 * network), `{ "failSends": n }` answers the next n sends with an error.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Blockchain, type BlockchainTransaction, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { Address, beginCell, Cell, loadMessage, toNano, type Message, type Transaction, type TupleItem } from '@ton/core';
import { JettonMinter } from '@ton-community/assets-sdk/dist/jetton/JettonMinter';
import { DEMO_PAYOUT_MNEMONIC, hotWalletFromMnemonic } from '../src/lib/ton/hotWallet';

/** The demo jettons the stand-in deploys, by symbol; each one's master address never changes. */
const DEMO_JETTONS = ['GIFT', 'STAR'] as const;

export interface StandIn {
  /** TON_API_ROOT for the product. */
  root: string;
  hotWallet: string;
  jettons: Record<string, string>;
  blockchain: Blockchain;
  /** A funded account that tests can send from. */
  faucet: SandboxContract<TreasuryContract>;
  /** Every transaction of an address, oldest first. */
  transactionsOf(address: Address): Transaction[];
  /** The chain's clock, unix seconds. */
  now(): number;
  close(): Promise<void>;
}

interface Options {
  port?: number;
  host?: string;
  mnemonic?: string;
  /** TON to give the hot wallet, in whole TON. */
  fundTon?: string;
  /** Jettons to give the hot wallet, in whole jettons (9 decimals). */
  fundJettons?: string;
}

type Json = Record<string, string | number | boolean | undefined | unknown[]>;

export async function startTonStandIn({
  port = 0,
  host = '127.0.0.1',
  mnemonic = DEMO_PAYOUT_MNEMONIC,
  fundTon = '100000',
  fundJettons = '1000000000',
}: Options = {}): Promise<StandIn> {
  const blockchain = await Blockchain.create();
  let clockOffset = 0;
  const now = () => Math.floor(Date.now() / 1000) + clockOffset;
  const byAccount = new Map<string, Transaction[]>();
  const byHash = new Map<string, { tx: Transaction; account: Address }>();
  let block = 1;

  const record = (transactions: BlockchainTransaction[]) => {
    for (const tx of transactions) {
      const account = Address.parseRaw(`0:${tx.address.toString(16).padStart(64, '0')}`);
      const key = account.toRawString();
      byAccount.set(key, [...(byAccount.get(key) ?? []), tx]);
      byHash.set(tx.hash().toString('hex'), { tx, account });
    }
    block++;
  };
  const send = async (message: Message | Cell) => {
    blockchain.now = now();
    const result = await blockchain.sendMessage(message);
    record(result.transactions);
    return result;
  };

  const faucet = await blockchain.treasury('gift-devchain-faucet', { balance: toNano('10000000000') });
  const hot = await hotWalletFromMnemonic(mnemonic);
  const hotAddress = hot.contract.address;
  // deploy the W5 hot wallet with its first TON
  await send({
    info: {
      type: 'internal',
      src: faucet.address,
      dest: hotAddress,
      value: { coins: toNano(fundTon) },
      bounce: false,
      bounced: false,
      ihrDisabled: true,
      ihrFee: 0n,
      forwardFee: 0n,
      createdAt: now(),
      createdLt: 0n,
    },
    init: hot.contract.init,
    body: beginCell().endCell(),
  });

  const jettons: Record<string, string> = {};
  for (const symbol of DEMO_JETTONS) {
    const minter = blockchain.openContract(
      JettonMinter.createFromConfig({
        admin: faucet.address,
        content: beginCell().storeUint(1, 8).storeStringTail(`https://gift.example/jettons/${symbol}.json`).endCell(),
      }),
    );
    blockchain.now = now();
    record((await minter.sendDeploy(faucet.getSender(), toNano('1'))).transactions);
    record((await minter.sendMint(faucet.getSender(), hotAddress, toNano(fundJettons), { value: toNano('1') })).transactions);
    jettons[symbol] = minter.address.toString({ bounceable: true, testOnly: false });
  }

  const controls = { dropSends: 0, failSends: 0 };

  const accountInformation = async (address: Address) => {
    const contract = await blockchain.getContract(address);
    const state = contract.accountState;
    const active = state?.type === 'active' ? state.state : null;
    const lt = contract.lastTransactionLt;
    return {
      '@type': 'raw.fullAccountState',
      balance: contract.balance.toString(),
      state: state?.type === 'active' ? 'active' : state?.type === 'frozen' ? 'frozen' : 'uninitialized',
      code: active?.code ? active.code.toBoc().toString('base64') : '',
      data: active?.data ? active.data.toBoc().toString('base64') : '',
      last_transaction_id: {
        '@type': 'internal.transactionId',
        lt: lt.toString(),
        hash: Buffer.from(contract.lastTransactionHash.toString(16).padStart(64, '0'), 'hex').toString('base64'),
      },
      block_id: blockId(block),
      sync_utime: now(),
    };
  };

  const methods: Record<string, (params: Json) => Promise<unknown>> = {
    getAddressInformation: async (params) => accountInformation(Address.parse(String(params.address))),
    getTransactions: (params) => {
      const address = Address.parse(String(params.address));
      const limit = Math.min(Number(params.limit ?? 10), 100);
      const all = [...(byAccount.get(address.toRawString()) ?? [])].reverse();
      let start = 0;
      if (params.lt && params.hash) {
        const given = String(params.hash);
        const hash = given.length === 64 ? given.toLowerCase() : Buffer.from(given, 'base64').toString('hex');
        start = all.findIndex((tx) => tx.lt.toString() === String(params.lt) && tx.hash().toString('hex') === hash);
        if (start < 0) return Promise.resolve([]);
      }
      return Promise.resolve(all.slice(start, start + limit).map(presentTransaction));
    },
    runGetMethod: async (params) => {
      const result = await blockchain.runGetMethod(Address.parse(String(params.address)), String(params.method), parseStack(params.stack));
      return {
        '@type': 'smc.runResult',
        gas_used: Number(result.gasUsed),
        exit_code: result.exitCode,
        stack: result.stack.map(presentStackItem),
      };
    },
    sendBoc: async (params) => {
      const cell = Cell.fromBoc(Buffer.from(String(params.boc), 'base64'))[0]!;
      if (controls.failSends > 0) {
        controls.failSends--;
        throw new Error('LITE_SERVER_UNKNOWN: timeout (stand-in control failSends)');
      }
      if (controls.dropSends > 0) {
        controls.dropSends--;
        return { '@type': 'ok' };
      }
      await send(loadMessage(cell.beginParse()));
      return { '@type': 'ok' };
    },
    getMasterchainInfo: () =>
      Promise.resolve({ '@type': 'blocks.masterchainInfo', last: blockId(block), init: blockId(0), state_root_hash: '' }),
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) =>
      answer(res, 500, { ok: false, error: String(error instanceof Error ? error.message : error), code: 500 }),
    );
  });
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.method === 'POST' && url.pathname === '/sandbox/control') {
      const body = (await readJson(req)) as { advanceSeconds?: number; dropSends?: number; failSends?: number };
      if (body.advanceSeconds) clockOffset += body.advanceSeconds;
      if (body.dropSends !== undefined) controls.dropSends = body.dropSends;
      if (body.failSends !== undefined) controls.failSends = body.failSends;
      return answer(res, 200, { ok: true, now: now(), ...controls });
    }
    if (url.pathname === '/sandbox/info') return answer(res, 200, { ok: true, hotWallet: hotAddress.toString(), jettons, now: now() });
    let method: string;
    let params: Json;
    if (req.method === 'POST' && url.pathname === '/api/v2/jsonRPC') {
      const body = (await readJson(req)) as { id?: unknown; method?: string; params?: Json };
      method = String(body.method);
      params = body.params ?? {};
    } else if (url.pathname.startsWith('/api/v2/')) {
      method = url.pathname.slice('/api/v2/'.length);
      params = req.method === 'POST' ? ((await readJson(req)) as Json) : Object.fromEntries(url.searchParams);
    } else return answer(res, 404, { ok: false, error: 'Not Found', code: 404 });
    const run = methods[method];
    if (!run) return answer(res, 404, { ok: false, error: `method ${method} is not served by the stand-in`, code: 404 });
    try {
      return answer(res, 200, { ok: true, result: await run(params), jsonrpc: '2.0', id: '1' });
    } catch (error) {
      return answer(res, 500, { ok: false, error: error instanceof Error ? error.message : String(error), code: 500 });
    }
  }
  server.listen(port, host);
  await new Promise((resolve) => server.once('listening', resolve));
  const { port: boundPort } = server.address() as AddressInfo;

  return {
    root: `http://${host}:${boundPort}`,
    hotWallet: hotAddress.toString({ bounceable: false }),
    jettons,
    blockchain,
    faucet,
    transactionsOf: (address) => byAccount.get(address.toRawString()) ?? [],
    now,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function blockId(seqno: number) {
  return { '@type': 'ton.blockIdExt', workchain: -1, shard: '-9223372036854775808', seqno, root_hash: '', file_hash: '' };
}

function presentMessage(message: Message) {
  const info = message.info;
  const body = message.body;
  const comment = body.bits.length >= 32 && body.beginParse().preloadUint(32) === 0 ? body.beginParse().skip(32).loadStringTail() : null;
  return {
    '@type': 'raw.message',
    source: info.type === 'external-in' ? '' : info.src.toString(),
    destination: info.type === 'external-out' ? '' : info.dest.toString(),
    value: info.type === 'internal' ? info.value.coins.toString() : '0',
    fwd_fee: info.type === 'internal' ? info.forwardFee.toString() : '0',
    ihr_fee: info.type === 'internal' ? info.ihrFee.toString() : '0',
    created_lt: info.type === 'external-in' ? '0' : info.createdLt.toString(),
    body_hash: body.hash().toString('base64'),
    msg_data:
      comment !== null
        ? { '@type': 'msg.dataText', text: Buffer.from(comment).toString('base64') }
        : { '@type': 'msg.dataRaw', body: body.toBoc().toString('base64') },
  };
}

function presentTransaction(tx: Transaction) {
  return {
    '@type': 'raw.transaction',
    utime: tx.now,
    data: tx.raw.toBoc().toString('base64'),
    transaction_id: { '@type': 'internal.transactionId', lt: tx.lt.toString(), hash: tx.hash().toString('base64') },
    fee: tx.totalFees.coins.toString(),
    storage_fee: '0',
    other_fee: '0',
    in_msg: tx.inMessage ? presentMessage(tx.inMessage) : undefined,
    out_msgs: [...tx.outMessages.values()].map(presentMessage),
  };
}

/** TON Center's stack encoding (`["num", "0x…"]`, `["tvm.Slice", base64]`, …) into the emulator's. */
function parseStack(stack: unknown): TupleItem[] {
  if (!Array.isArray(stack)) return [];
  return stack.map((entry) => {
    const [kind, value] = entry as [string, string];
    if (kind === 'num') return { type: 'int', value: BigInt(value) };
    const cell = Cell.fromBoc(Buffer.from(value, 'base64'))[0]!;
    if (kind === 'tvm.Slice') return { type: 'slice', cell };
    if (kind === 'tvm.Builder') return { type: 'builder', cell };
    return { type: 'cell', cell };
  });
}

function presentStackItem(item: TupleItem): unknown {
  switch (item.type) {
    case 'int':
      return ['num', `${item.value < 0n ? '-' : ''}0x${(item.value < 0n ? -item.value : item.value).toString(16)}`];
    case 'cell':
      return ['cell', { bytes: item.cell.toBoc().toString('base64') }];
    case 'slice':
      return ['slice', { bytes: item.cell.toBoc().toString('base64') }];
    case 'builder':
      return ['builder', { bytes: item.cell.toBoc().toString('base64') }];
    case 'null':
      return ['null'];
    default:
      return ['list', { elements: [] }];
  }
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {});
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
