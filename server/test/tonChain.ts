import { randomBytes } from 'node:crypto';
import { keyPairFromSeed } from '@ton/crypto';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano, WalletContractV5R1, type MessageRelaxed } from '@ton/ton';
import { startTonStandIn, type StandIn } from '../devchain/standIn';
import { httpTonChain, type TonChain } from '../src/lib/ton/tonChain';
import { DEMO_PAYOUT_MNEMONIC, hotWalletFromMnemonic } from '../src/lib/ton/hotWallet';
import { configurePayouts } from '../src/modules/withdrawals/payouts.service';
import { findByInboundBody, jettonTransferBody } from '../src/modules/withdrawals/chainPayments';

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
  close(): Promise<void>;
}

/** Starts the stand-in and points the product's payouts at it through the production HTTP client. */
async function startTonTestChain({ automated = true }: { automated?: boolean } = {}): Promise<TonTestChain> {
  const standIn = await startTonStandIn();
  const chain = httpTonChain({ root: standIn.root });
  configurePayouts({ chain, hotWallet: automated ? await hotWalletFromMnemonic(DEMO_PAYOUT_MNEMONIC) : null, network: 'mainnet' });
  return {
    standIn,
    chain,
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
