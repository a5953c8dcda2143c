import { mnemonicToPrivateKey, mnemonicValidate } from '@ton/crypto';
import { WalletContractV5R1 } from '@ton/ton';

/**
 * The demo hot wallet's mnemonic. It is in the source, so it pays only on a development chain: a production
 * server refuses it (env.ts), and a development server without PAYOUT_WALLET_MNEMONIC pays from it.
 */
export const DEMO_PAYOUT_MNEMONIC =
  'merge oyster false need original search furnace hidden truck drastic text lion margin search art diesel process response arrive boss pond face alarm favorite';

export interface HotWallet {
  contract: WalletContractV5R1;
  secretKey: Buffer;
}

/** The W5 (v5r1) wallet of a mnemonic, on the basechain, with the wallet id of the network it pays on. */
export async function hotWalletFromMnemonic(mnemonic: string, network: 'mainnet' | 'testnet' = 'mainnet'): Promise<HotWallet> {
  const words = mnemonic.trim().split(/\s+/);
  if (!(await mnemonicValidate(words))) throw new Error('PAYOUT_WALLET_MNEMONIC is not a valid TON mnemonic');
  const keys = await mnemonicToPrivateKey(words);
  const contract = WalletContractV5R1.create({
    publicKey: keys.publicKey,
    walletId: { networkGlobalId: network === 'testnet' ? -3 : -239, context: { workchain: 0, subwalletNumber: 0, walletVersion: 'v5r1' } },
  });
  return { contract, secretKey: keys.secretKey };
}
