import { useState } from 'react';
import { useTranslation } from '../../lib/translator';
import { canOpenInvoice, openInvoice, type InvoiceOutcome } from '../../lib/telegramInvoice';
import { useFormat } from '../../lib/format';
import { trpc, type RouterOutputs } from '../../lib/trpc';
import { ErrorMessage, errorText } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { Skeleton } from '../../ui/Skeleton';
import { useSingleFlight } from '../../ui/useSingleFlight';
import { useToast } from '../../ui/toast';
import './locales';

type Offer = RouterOutputs['shop']['offers'][number];

/** How long the page keeps asking for the boost after Telegram said paid: the bot grants it when Telegram tells it. */
const GRANT_WAIT_MS = 20_000;

/** What an item gives, in the player's words: ×1.5 on the next session, one extra session, one streak freeze. */
function useGives() {
  const { t } = useTranslation();
  const format = useFormat();
  return (offer: Pick<Offer, 'kind' | 'multiplierPercent'>) =>
    offer.kind === 'multiplier'
      ? t('shop.gives.multiplier', { factor: format.amount(String((offer.multiplierPercent ?? 100) / 100)) })
      : t(`shop.gives.${offer.kind}`);
}

/** The boosts the player holds: multipliers waiting for the next session, and streak freezes. */
function MyBoosts({ waiting }: { waiting: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const boosts = trpc.shop.boosts.useQuery(undefined, { refetchInterval: waiting ? 1500 : false });
  if (!boosts.data) return null;
  const { multipliers, streakFreezes } = boosts.data;
  return (
    <section className="card" aria-labelledby="my-boosts" data-testid="my-boosts">
      <h2 id="my-boosts">{t('shop.mine')}</h2>
      {multipliers.length === 0 && streakFreezes === 0 && <p className="muted">{t('shop.none')}</p>}
      {multipliers.map((percent, i) => (
        <p key={i} data-testid="waiting-multiplier">
          {t('shop.waitingMultiplier', { factor: format.amount(String(percent / 100)) })}
        </p>
      ))}
      {streakFreezes > 0 && <p data-testid="freezes">{t('shop.freezes', { count: streakFreezes })}</p>}
    </section>
  );
}

/** The Stars shop: boosts bought with Telegram Stars, paid in Telegram's own payment sheet. */
export function ShopPage() {
  const offers = trpc.shop.offers.useQuery();
  const invoice = trpc.shop.invoice.useMutation();
  const utils = trpc.useUtils();
  const [waiting, setWaiting] = useState(false);
  const flight = useSingleFlight();
  const inTelegram = canOpenInvoice();
  const { t } = useTranslation();
  const { number } = useFormat();
  const gives = useGives();
  const toast = useToast();

  /** After Telegram's answer: the boost is on its way (paid), or the player is told why not. */
  const closed = async (outcome: InvoiceOutcome) => {
    if (outcome === 'cancelled') return toast(t('shop.cancelled'), 'info');
    if (outcome === 'failed') return toast(t('shop.failed'), 'error');
    toast(t(outcome === 'paid' ? 'shop.paid' : 'shop.pending'), 'success');
    setWaiting(true);
    setTimeout(() => setWaiting(false), GRANT_WAIT_MS);
    await utils.shop.boosts.invalidate();
  };
  // one invoice at a time: a double tap asks one
  const buy = (offer: Offer) =>
    flight.run((done) =>
      invoice.mutate(
        { offerId: offer.id },
        {
          onSuccess: ({ invoiceLink }) => void openInvoice(invoiceLink).then(closed),
          onError: (error) => toast(errorText(t, error), 'error'),
          onSettled: done,
        },
      ),
    );

  return (
    <section className="page shop">
      <PageHeader title={t('shop.title')} backTo="/" />
      <p className="muted">{t('shop.intro')}</p>
      {!inTelegram && (
        <p className="notice" role="note" data-testid="needs-telegram">
          {t('shop.needsTelegram')}
        </p>
      )}
      <MyBoosts waiting={waiting} />
      {offers.isPending && <Skeleton shape="card" />}
      {offers.error && <ErrorMessage error={offers.error} />}
      {offers.data?.length === 0 && <p className="muted">{t('shop.empty')}</p>}
      {offers.data?.map((offer) => (
        <article key={offer.id} className="card shop-offer" data-testid="shop-offer">
          <div className="shop-offer-text">
            <h3>{offer.title}</h3>
            <p className="muted">{gives(offer)}</p>
            {offer.description && <p>{offer.description}</p>}
          </div>
          <button
            type="button"
            className="button"
            disabled={!inTelegram || flight.busy}
            onClick={() => buy(offer)}
            aria-label={t('shop.buyAria', { title: offer.title, stars: number(offer.stars) })}
          >
            {t('shop.buy', { stars: number(offer.stars) })}
          </button>
        </article>
      ))}
    </section>
  );
}
