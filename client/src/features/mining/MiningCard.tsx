import { useSingleFlight } from '../../ui/useSingleFlight';
import { useFormat } from '../../lib/format';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../lib/translator';
import { Link } from 'wouter';
import { fromMicros, toMicros } from '@gift/shared/money';
import { useBalancesChanged } from '../../lib/balances';
import { appErrorOf, trpc, type RouterOutputs } from '../../lib/trpc';
import { useNow } from '../../ui/countdown';
import { ErrorMessage, errorText } from '../../ui/ErrorMessage';
import { useToast } from '../../ui/toast';
import { Skeleton } from '../../ui/Skeleton';

type MiningStatus = RouterOutputs['mining']['status'];
type ActiveSession = NonNullable<MiningStatus['active']>;

/** Coins mined by `at` (server time), in exact micro-units, from the session's own times. */
export function minedAt(session: Pick<ActiveSession, 'amount' | 'startedAt' | 'endsAt'>, at: number): string {
  const start = new Date(session.startedAt).getTime();
  const end = new Date(session.endsAt).getTime();
  const elapsed = BigInt(Math.min(Math.max(at - start, 0), end - start));
  const span = BigInt(Math.max(end - start, 1));
  return fromMicros((toMicros(session.amount) * elapsed) / span);
}

/** A running session's own length in hours, from its start and end (not App Config's current length). */
function sessionHours(session: Pick<ActiveSession, 'startedAt' | 'endsAt'>): number {
  return (new Date(session.endsAt).getTime() - new Date(session.startedAt).getTime()) / 3_600_000;
}

/** A session's length in the largest whole unit: 8 h, 30 min, or seconds for a test's short session. */
function sessionLength(t: ReturnType<typeof useTranslation>['t'], hours: number): string {
  const seconds = Math.round(hours * 3600);
  if (seconds % 3600 === 0) return t('mining.units.h', { count: seconds / 3600 });
  if (seconds % 60 === 0) return t('mining.units.min', { count: seconds / 60 });
  return t('mining.units.s', { count: seconds });
}

function RunningSession({
  session,
  symbol,
  serverOffset,
  onFinished,
}: {
  session: ActiveSession;
  symbol: string;
  serverOffset: number;
  onFinished: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const now = useNow() + serverOffset;
  const remaining = new Date(session.endsAt).getTime() - now;
  const finished = remaining <= 0;
  const reported = useRef(false);
  useEffect(() => {
    if (finished && !reported.current) {
      reported.current = true;
      onFinished();
    }
  }, [finished, onFinished]);
  return (
    <div className="figures">
      <div className="figure">
        <div className="value" data-testid="mined-so-far">
          <bdi dir="ltr">
            {format.amount(minedAt(session, now))} {symbol}
          </bdi>
        </div>
        <div className="label">{t('mining.soFar')}</div>
      </div>
      <div className="figure">
        <div className="value">
          <bdi dir="ltr">{t('mining.perHour', { amount: session.ratePerHour, symbol })}</bdi>
        </div>
        <div className="label">{t('mining.rate')}</div>
      </div>
      <div className="figure">
        <div className="value" role="timer">
          <bdi dir="ltr">{format.countdown(remaining)}</bdi>
        </div>
        <div className="label">{t('mining.remaining')}</div>
      </div>
    </div>
  );
}

/** Home's mining card (docs/product.md): idle with Start, running and ticking, finished sessions to move. */
export function MiningCard() {
  const { t } = useTranslation();
  const format = useFormat();
  const toast = useToast();
  const balancesChanged = useBalancesChanged();
  const utils = trpc.useUtils();
  const status = trpc.mining.status.useQuery();
  // server time minus this device's time, taken when the status arrived: the ticks follow the server's clock
  const serverOffset = status.data ? new Date(status.data.serverTime).getTime() - status.dataUpdatedAt : 0;
  const start = trpc.mining.start.useMutation({
    onSuccess: () => toast(t('mining.started'), 'success'),
    onError: (error) => toast(errorText(t, error), 'error'),
    onSettled: () => utils.mining.status.invalidate(),
  });
  const move = trpc.mining.move.useMutation({
    onSuccess: async (result) => {
      toast(t('mining.moved', { count: result.count }), 'success');
      await balancesChanged();
    },
    onError: (error) => toast(appErrorOf(error)?.code === 'NOTHING_TO_MOVE' ? t('mining.nothing') : errorText(t, error), 'info'),
    onSettled: () => utils.mining.status.invalidate(),
  });

  // Start and Move change money: one at a time, a double tap sends one call
  const flight = useSingleFlight();
  /** Start or Move: the one that matters now (Move, once a session is ready to move) drawn solid, the other outlined. */
  const action = (mutation: typeof start | typeof move, solid: boolean, label: string) => (
    <button
      type="button"
      className={solid ? 'button' : 'button button-ghost'}
      disabled={flight.busy}
      onClick={() => flight.run((done) => mutation.mutate(undefined, { onSettled: done }))}
    >
      {label}
    </button>
  );
  const data = status.data;
  const symbol = data?.coin?.symbol ?? '';
  return (
    <section className="card mining" id="mining" aria-labelledby="mining-title">
      <h2 id="mining-title">{t('mining.title')}</h2>
      {status.isPending && <Skeleton shape="card" />}
      {status.error && <ErrorMessage error={status.error} />}
      {data && !data.configured && <p className="muted">{t('mining.notConfigured')}</p>}
      {data?.configured && (
        <>
          <p className="muted" data-testid="mining-terms">
            {/* a running session keeps the terms it started under; App Config's new ones apply from the next Start */}
            {data.active
              ? t('mining.session', { amount: data.active.amount, symbol, duration: sessionLength(t, sessionHours(data.active)) })
              : t('mining.session', { amount: data.earnAmount, symbol, duration: sessionLength(t, data.earnDurationHours) })}
            {data.active?.multiplierPercent && (
              <span className="badge mining-boost" data-testid="mining-multiplier">
                {t('mining.boosted', { factor: format.amount(String(data.active.multiplierPercent / 100)) })}
              </span>
            )}
          </p>
          {data.active ? (
            <RunningSession
              key={data.active.id}
              session={data.active}
              symbol={symbol}
              serverOffset={serverOffset}
              onFinished={() => void utils.mining.status.invalidate()}
            />
          ) : (
            <div className="menu">
              <p>{t('mining.idle', { product: symbol })}</p>
              {action(start, data.readyToMove === 0, t('mining.start'))}
            </div>
          )}
        </>
      )}
      {data && data.readyToMove > 0 && (
        <div className="mining-ready">
          <p>
            {t('mining.ready')}{' '}
            <span className="badge" data-testid="ready-count">
              {format.number(data.readyToMove)}
            </span>
          </p>
          <p className="muted">
            {data.readyAmounts.map((ready) => (
              <bdi key={ready.coin.id} dir="ltr">
                +{format.amount(ready.amount)} {ready.coin.symbol}{' '}
              </bdi>
            ))}
          </p>
        </div>
      )}
      {data && action(move, data.readyToMove > 0, t('mining.move'))}
      {data?.configured && (
        <Link className="mining-shop-link" to="/shop">
          {t('mining.shop')}
        </Link>
      )}
    </section>
  );
}
