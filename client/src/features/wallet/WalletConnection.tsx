import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/translator';
import type { TonProofItemReplySuccess } from '@tonconnect/sdk';
import { THEME, TonConnectUIProvider, useTonConnectUI, type TonConnectUiOptions, type Wallet } from '@tonconnect/ui-react';
import { appErrorOf, trpc } from '../../lib/trpc';
import { PALETTE, useTheme } from '../../ui/theme';
import { shortAddress } from './address';
import './locales';

/** Renew the ton_proof payload this long before the server lets it expire. */
const PAYLOAD_RENEWAL_MARGIN_MS = 60_000;

type Refusal = 'taken' | 'stale' | 'unsupported' | 'testnet' | 'noProof' | 'invalid';

/** What the server's refusal means to a player (reasons from server/src/lib/tonProof.ts and wallet.service.ts). */
function refusalOf(error: unknown): Refusal {
  const appError = appErrorOf(error);
  if (appError?.code === 'WALLET_TAKEN') return 'taken';
  const reason = appError?.params.reason;
  if (reason === 'expired' || reason === 'payload_expired' || reason === 'payload_used' || reason === 'from_the_future') return 'stale';
  if (reason === 'unknown_wallet') return 'unsupported';
  if (reason === 'testnet_not_allowed') return 'testnet';
  return 'invalid';
}

type LinkOutcome = { kind: 'linking' } | { kind: 'linked'; address: string } | { kind: 'refused'; refusal: Refusal };

interface WalletConnectionState {
  outcome: LinkOutcome | null;
  /** Opens TON Connect's own modal for a new wallet, with a fresh proof request. */
  connect: () => Promise<void>;
}

const WalletConnectionContext = createContext<WalletConnectionState | null>(null);

export function useWalletConnection(): WalletConnectionState {
  const state = useContext(WalletConnectionContext);
  if (!state) throw new Error('useWalletConnection needs <WalletConnection>');
  return state;
}

/** The proof a wallet sent on this connection, or why there is none; a restored session carries none. */
function proofOf(wallet: Wallet): TonProofItemReplySuccess['proof'] | 'error' | null {
  const item = wallet.connectItems?.tonProof;
  if (!item) return null;
  return 'proof' in item ? item.proof : 'error';
}

/**
 * Keeps a fresh ton_proof payload in TON Connect's connect request while no wallet is connected, and
 * links a wallet that connects with a proof; a refused one is disconnected again.
 */
function WalletLinking({ children }: { children: ReactNode }) {
  const [tonConnectUI, setOptions] = useTonConnectUI();
  const { resolved } = useTheme();
  const utils = trpc.useUtils();
  const settings = trpc.wallet.connectSettings.useQuery(undefined, { staleTime: Infinity });
  const [connected, setConnected] = useState(() => tonConnectUI.connected);
  const [outcome, setOutcome] = useState<LinkOutcome | null>(null);
  const renewal = useRef<ReturnType<typeof setTimeout>>(undefined);

  const twaReturnUrl = settings.data?.twaReturnUrl as `${string}://${string}` | undefined;
  useEffect(() => {
    // uiOptions replaces the action settings as a whole: always give them all
    const options: TonConnectUiOptions = {
      uiPreferences: {
        theme: resolved === 'dark' ? THEME.DARK : THEME.LIGHT,
        colorsSet: { [THEME.DARK]: { accent: PALETTE.primary }, [THEME.LIGHT]: { accent: PALETTE.primary } },
      },
      actionsConfiguration: { returnStrategy: 'back', ...(twaReturnUrl ? { twaReturnUrl } : {}) },
      enableAndroidBackHandler: true,
      language: 'en',
    };
    setOptions(options);
  }, [resolved, twaReturnUrl, setOptions]);

  const pendingPayload = useRef<Promise<void> | null>(null);
  // the renewal timer calls the current preparePayload, which cannot name itself while it is being declared
  const renew = useRef<() => void>(() => undefined);
  // one request at a time: a disconnect and a refusal may both ask for a new payload
  const preparePayload = useCallback((): Promise<void> => {
    if (pendingPayload.current) return pendingPayload.current;
    clearTimeout(renewal.current);
    tonConnectUI.setConnectRequestParameters({ state: 'loading' });
    pendingPayload.current = utils.client.wallet.proofPayload
      .mutate()
      .then(({ payload, expiresAt }) => {
        tonConnectUI.setConnectRequestParameters({ state: 'ready', value: { tonProof: payload } });
        const renewIn = Math.max(new Date(expiresAt).getTime() - Date.now() - PAYLOAD_RENEWAL_MARGIN_MS, 5_000);
        renewal.current = setTimeout(() => renew.current(), renewIn);
      })
      .catch(() => {
        // without a payload the modal still opens; the server then links nothing
        tonConnectUI.setConnectRequestParameters(null);
      })
      .finally(() => {
        pendingPayload.current = null;
      });
    return pendingPayload.current;
  }, [tonConnectUI, utils]);

  useEffect(() => {
    renew.current = () => void preparePayload();
  }, [preparePayload]);

  useEffect(() => {
    if (!connected) void preparePayload();
    return () => clearTimeout(renewal.current);
  }, [connected, preparePayload]);

  useEffect(() => {
    const linkWallet = async (wallet: Wallet | null) => {
      setConnected(!!wallet);
      if (!wallet) return;
      const proof = proofOf(wallet);
      if (!proof) return;
      if (proof === 'error') {
        setOutcome({ kind: 'refused', refusal: 'noProof' });
        await tonConnectUI.disconnect();
        void preparePayload();
        return;
      }
      setOutcome({ kind: 'linking' });
      try {
        const linked = await utils.client.wallet.link.mutate({
          address: wallet.account.address,
          network: wallet.account.chain === '-3' ? '-3' : '-239',
          ...(wallet.account.publicKey ? { publicKey: wallet.account.publicKey } : {}),
          proof: { ...proof, stateInit: wallet.account.walletStateInit },
        });
        setOutcome({ kind: 'linked', address: linked.address });
        await Promise.all([utils.wallet.list.invalidate(), utils.withdrawals.coins.invalidate()]);
      } catch (error) {
        setOutcome({ kind: 'refused', refusal: refusalOf(error) });
        await tonConnectUI.disconnect();
        // the payload is spent: the next try needs a new one
        void preparePayload();
      }
    };
    return tonConnectUI.onStatusChange((wallet) => void linkWallet(wallet));
  }, [tonConnectUI, utils, preparePayload]);

  const connect = useCallback(async () => {
    setOutcome(null);
    // a wallet already connected (a restored session) carries no fresh proof: start a new connection with a new payload
    if (tonConnectUI.connected) {
      await tonConnectUI.disconnect();
      void preparePayload();
    }
    await tonConnectUI.openModal();
  }, [tonConnectUI, preparePayload]);

  const value = useMemo(() => ({ outcome, connect }), [outcome, connect]);
  return <WalletConnectionContext.Provider value={value}>{children}</WalletConnectionContext.Provider>;
}

/** TON Connect, mounted only by the wallet screens so its code loads with them. */
export function WalletConnection({ children }: { children: ReactNode }) {
  return (
    <TonConnectUIProvider manifestUrl={`${window.location.origin}/tonconnect-manifest.json`} analytics={{ mode: 'off' }}>
      <WalletLinking>{children}</WalletLinking>
    </TonConnectUIProvider>
  );
}

/** The outcome of the last connection, in words, where the player is looking. */
export function LinkOutcomeMessage() {
  const { t } = useTranslation();
  const { outcome } = useWalletConnection();
  if (!outcome) return null;
  if (outcome.kind === 'linking')
    return (
      <p className="notice" role="status">
        {t('wallet.linking')}
      </p>
    );
  if (outcome.kind === 'linked')
    return (
      <p className="notice" role="status">
        {t('wallet.linked', { address: shortAddress(outcome.address) })}
      </p>
    );
  return (
    <p className="error-text" role="alert">
      {t(`wallet.refusal.${outcome.refusal}`)}
    </p>
  );
}
