import { randomBytes } from 'node:crypto';
import { keyPairFromSeed, mnemonicNew } from '@ton/crypto';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano, WalletContractV5R1, type MessageRelaxed } from '@ton/ton';
import { startTonStandIn, type StandIn } from '../devchain/standIn';
import { WithdrawalModel } from '../src/modules/withdrawals/withdrawal.model';
import { httpTonChain, type TonChain } from '../src/lib/ton/tonChain';
import { DEMO_PAYOUT_MNEMONIC, hotWalletFromMnemonic } from '../src/lib/ton/hotWallet';
import { configurePayouts } from '../src/modules/withdrawals/payouts.service';
import { findByInboundBody, jettonTransferBody, jettonWalletOf } from '../src/modules/withdrawals/chainPayments';

/** A wallet the test holds the keys of, deployed and funded on the stand-in: an operator's own payout wallet. */
export interface TestWallet {
  address: Address;
  /** Sends these messages in one signed external message, through the stand-in's HTTP API; returns the wallet transaction's hash (hex). */
  send(messages: MessageRelaxed[]): Promise<string>;
}

export interface TonTestChain {
  standIn: StandIn;
  chain: TonChain;
  wallet(tonToGive?: string): Promise<TestWallet>;
  /** Moves the stand-in's clock; drops or fails the next sends. */
  control(body: { advanceSeconds?: number; dropSends?: number; failSends?: number }): Promise<void>;
  /** How many times the product has listed the hot wallet's transactions: its look-ups for a batch's settlement. */
  settlementLookups(): number;
  close(): Promise<void>;
}

/** Starts the stand-in and points the product's payouts at it through the production HTTP client. */
async function startTonTestChain({ automated = true }: { automated?: boolean } = {}): Promise<TonTestChain> {
  const standIn = await startTonStandIn();
  const chain = httpTonChain({ root: standIn.root });
  const hotWallet = automated ? await hotWalletFromMnemonic(DEMO_PAYOUT_MNEMONIC) : null;
  // the product's chain counts its listings of the hot wallet; the test's own reads (`chain`) are not counted
  let lookups = 0;
  const counted: TonChain = {
    ...chain,
    transactions(address, options) {
      if (hotWallet && address.equals(hotWallet.contract.address)) lookups++;
      return chain.transactions(address, options);
    },
  };
  configurePayouts({ chain: counted, hotWallet, network: 'mainnet' });
  return {
    standIn,
    chain,
    settlementLookups: () => lookups,
    async wallet(tonToGive = '1000') {
      const keys = keyPairFromSeed(randomBytes(32));
      const contract = WalletContractV5R1.create({ publicKey: keys.publicKey, walletId: { networkGlobalId: -239 } });
      await standIn.faucet.send({ to: contract.address, value: toNano(tonToGive), bounce: false, init: contract.init });
      let seqno = 0;
      return {
        address: contract.address,
        async send(messages) {
          const body = contract.createTransfer({
            seqno,
            secretKey: keys.secretKey,
            messages,
            sendMode: SendMode.PAY_GAS_SEPARATELY,
            timeout: standIn.now() + 60,
          });
          const message = beginCell()
            .store(storeMessage(external({ to: contract.address, init: seqno === 0 ? contract.init : undefined, body })))
            .endCell();
          await chain.sendExternal(message);
          seqno++;
          // the newest transaction may be a later one (a jetton transfer's excess coming back): find this message's
          const tx = await findByInboundBody(chain, contract.address, body.hash().toString('hex'));
          return tx!.hash().toString('hex');
        },
      };
    },
    async control(body) {
      const res = await fetch(`${standIn.root}/sandbox/control`, { method: 'POST', body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`control failed: ${res.status}`);
    },
    async close() {
      configurePayouts(null);
      await standIn.close();
    },
  };
}

/**
 * For a test file: the chain started before its tests and closed after them (with the product's payouts pointed at it
 * meanwhile). Read its fields inside the tests, once it has started.
 */
export function useTonTestChain(options?: { automated?: boolean }): TonTestChain {
  const ton = {} as TonTestChain;
  beforeAll(async () => Object.assign(ton, await startTonTestChain(options)), 60_000);
  afterAll(() => ton.close());
  return ton;
}

/**
 * The engine's points in an automated payout's life where the product can be killed, reached by the payouts job (not by a
 * request): its batch's operation recorded, then after each of its steps (claimed, signed and recorded, sent), and a payment
 * the chain shows arrived, its decision recorded but not taken.
 */
export const PAYOUT_FAULT_POINTS = [
  'ledger:after-record:payout-batch',
  'ledger:after-step:payout-batch:claim',
  'ledger:after-step:payout-batch:sign',
  'ledger:after-step:payout-batch:send',
  'ledger:after-record:withdrawal-decision',
] as const;

/**
 * For tests of the product as processes of their own: the stand-in with a fresh hot wallet, whose words go into the
 * product's environment (`productEnv`), and this process's payouts pointed at it to read the chain as the product does.
 */
export async function startHotWalletChain() {
  const mnemonic = (await mnemonicNew(24)).join(' ');
  const standIn = await startTonStandIn({ mnemonic });
  const chain = httpTonChain({ root: standIn.root });
  configurePayouts({ chain, hotWallet: await hotWalletFromMnemonic(mnemonic), network: 'mainnet' });
  /** How many times the hot wallet sent each of these withdrawals' payout message (by id; 0 for one it never paid). */
  const timesSent = async (ids: string[]): Promise<Map<string, number>> => {
    const sent = standIn
      .transactionsOf(Address.parse(standIn.hotWallet))
      .flatMap((tx) => [...tx.outMessages.values()])
      .map((message) => message.body.hash().toString('hex'));
    const withdrawals = await WithdrawalModel.find({ _id: { $in: ids } }, { payout: 1 }).lean();
    return new Map(
      withdrawals.map((w) => [String(w._id), w.payout?.bodyHash ? sent.filter((hash) => hash === w.payout?.bodyHash).length : 0]),
    );
  };
  return {
    standIn,
    chain,
    productEnv: { TON_API_ROOT: standIn.root, PAYOUT_WALLET_MNEMONIC: mnemonic },
    /** What `address` holds of `coin`: TON, or the coin's jetton in its jetton wallet. */
    async received(coin: { network: string; jettonMaster: string }, address: Address): Promise<bigint> {
      if (coin.network === 'ton') return (await chain.account(address)).balance;
      return chain.jettonBalance(await jettonWalletOf(chain, Address.parse(coin.jettonMaster), address));
    },
    timesSent,
    /** The hot wallet sent each of these withdrawals' payout message once, whatever was re-sent or restarted. */
    async expectEachSentOnce(ids: string[]) {
      const times = await timesSent(ids);
      expect(times.size).toBe(ids.length);
      for (const id of ids) expect([id, times.get(id)]).toEqual([id, 1]);
    },
    async close() {
      configurePayouts(null);
      await standIn.close();
    },
  };
}

/** A TON payment of `nanotons` to `to` with a comment. */
export const tonPayment = (to: string | Address, nanotons: bigint) =>
  internal({ to: typeof to === 'string' ? Address.parse(to) : to, value: nanotons, bounce: false, body: 'Paid by hand' });

/** A jetton transfer of `units` to `to`, sent to the payer's own jetton wallet `jettonWallet`. */
export const jettonPayment = (jettonWallet: Address, to: string | Address, units: bigint, responseTo: Address) =>
  internal({
    to: jettonWallet,
    value: toNano('0.1'),
    bounce: true,
    body: jettonTransferBody({
      queryId: 7n,
      amount: units,
      destination: typeof to === 'string' ? Address.parse(to) : to,
      responseTo,
      text: 'Paid by hand',
    }),
  });
