import { Address, beginCell, Cell, TonClient, type TupleItem, type Transaction } from '@ton/ton';

/** What the product needs from the TON chain, and nothing more. */
export interface TonChain {
  /** An account's state, balance and the chain's time (unix seconds) at the block it was read from. */
  account(address: Address): Promise<AccountState>;
  /** An account's transactions, newest first; `before` continues a listing from an earlier page's last one. */
  transactions(address: Address, options: { limit: number; before?: { lt: string; hash: string } }): Promise<Transaction[]>;
  /** The jetton wallet of `owner` for the jetton of `master`. */
  jettonWallet(master: Address, owner: Address): Promise<Address>;
  /** A jetton wallet's balance in the jetton's smallest units (0 before it is deployed). */
  jettonBalance(jettonWallet: Address): Promise<bigint>;
  /** Sends a signed external message (a serialized Message cell). */
  sendExternal(message: Cell): Promise<void>;
  /** Runs a get-method; throws on a non-zero exit code. */
  runGetMethod(address: Address, method: string, stack?: TupleItem[]): Promise<TupleItem[]>;
}

interface AccountState {
  state: 'active' | 'uninitialized' | 'frozen';
  balance: bigint;
  /** The chain's time of the block the state was read from. */
  chainTime: number;
  lastTransaction: { lt: string; hash: string } | null;
}

/** The chain could not be reached or answered nonsense: the caller keeps its work pending and says so. */
export class ChainUnavailable extends Error {
  constructor(cause: unknown, method = '') {
    super(
      `the TON API could not be reached${method ? ` (${method})` : ''}: ${cause instanceof Error ? cause.message.slice(0, 200) : String(cause).slice(0, 200)}`,
    );
    this.name = 'ChainUnavailable';
  }
}

export const TONCENTER_MAINNET = 'https://toncenter.com';
export const TONCENTER_TESTNET = 'https://testnet.toncenter.com';

/**
 * The production client: TON Center's v2 HTTP API (`<root>/api/v2/jsonRPC`) through `@ton/ton`'s TonClient,
 * or any server answering the same API (the local stand-in). Every failure becomes ChainUnavailable.
 */
export function httpTonChain({ root, apiKey, timeoutMs = 10_000 }: { root: string; apiKey?: string; timeoutMs?: number }): TonChain {
  const client = new TonClient({ endpoint: `${root.replace(/\/+$/, '')}/api/v2/jsonRPC`, apiKey, timeout: timeoutMs });
  const call = async <T>(method: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw new ChainUnavailable(error, method);
    }
  };
  const runGetMethod = (address: Address, method: string, stack: TupleItem[] = []) =>
    call('runGetMethod', async () => {
      const result = await client.runMethod(address, method, stack);
      const items: TupleItem[] = [];
      while (result.stack.remaining > 0) items.push(result.stack.pop());
      return items;
    });
  return {
    account: (address) =>
      call('getAddressInformation', async () => {
        const state = await client.getContractState(address);
        return { state: state.state, balance: state.balance, chainTime: state.timestampt, lastTransaction: state.lastTransaction };
      }),
    transactions: (address, { limit, before }) =>
      call('getTransactions', async () => {
        const page = await client.getTransactions(address, { limit, lt: before?.lt, hash: before?.hash, archival: true });
        return page;
      }),
    jettonWallet: async (master, owner) => {
      const [item] = await runGetMethod(master, 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }]);
      if (item?.type !== 'slice' && item?.type !== 'cell') throw new ChainUnavailable('get_wallet_address returned no address');
      return item.cell.beginParse().loadAddress();
    },
    jettonBalance: async (jettonWallet) => {
      const account = await call('getAddressInformation', () => client.getContractState(jettonWallet));
      if (account.state !== 'active') return 0n;
      const [balance] = await runGetMethod(jettonWallet, 'get_wallet_data');
      return balance?.type === 'int' ? balance.value : 0n;
    },
    sendExternal: (message) => call('sendBoc', () => client.sendFile(message.toBoc())),
    runGetMethod,
  };
}

/** A transaction hash as an operator may paste it (hex, base64 or base64url), as 64 lower-case hex digits; null when it is none. */
export function normaliseTxHash(text: string): string | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return trimmed.toLowerCase();
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes.toString('hex');
  }
  return null;
}
