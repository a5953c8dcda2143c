import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/translator';
import { fromMicros, toMicros } from '@gift/shared/money';
import { useFormat } from '../../../lib/format';
import { trpc } from '../../../lib/trpc';
import { useSession } from '../../signIn/PlayerSession';

const STEPS = 12;
const STEP_MS = 50;

const reducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * A balance that counts up to its new value when it grows (a credit), in exact micro-units, and says it is rising for as
 * long as it counts; a fall, or a player who asked for less motion, shows the new value at once.
 */
function useCountUp(value: string): { shown: string; rising: boolean } {
  const [shown, setShown] = useState(value);
  const [rising, setRising] = useState(false);
  const last = useRef(value);
  useEffect(() => {
    const from = toMicros(last.current);
    const to = toMicros(value);
    last.current = value;
    if (to <= from || reducedMotion()) {
      setShown(value);
      return;
    }
    let step = 0;
    setRising(true);
    const timer = setInterval(() => {
      step += 1;
      setShown(step >= STEPS ? value : fromMicros(from + ((to - from) * BigInt(step)) / BigInt(STEPS)));
      if (step >= STEPS) {
        clearInterval(timer);
        setRising(false);
      }
    }, STEP_MS);
    return () => clearInterval(timer);
  }, [value]);
  return { shown, rising };
}

function Balance({ balance, symbol }: { balance: string; symbol: string }) {
  const format = useFormat();
  const { shown, rising } = useCountUp(balance);
  return (
    <li className={rising ? 'balance rising' : 'balance'} data-testid="balance">
      <bdi dir="ltr">
        <span className="value">{format.amount(shown)}</span> {symbol}
      </bdi>
    </li>
  );
}

/** Home's coins: every balance of the player, the mining coin first. */
export function Balances() {
  const { t } = useTranslation();
  const { player } = useSession();
  const miningCoin = trpc.mining.status.useQuery().data?.coin?.id;
  const coins = [...player.coins].sort((a, b) => Number(b.coinId === miningCoin) - Number(a.coinId === miningCoin));
  if (!coins.length) return null;
  return (
    <section className="card balances" aria-labelledby="balances-title">
      <h2 id="balances-title">{t('home.balances')}</h2>
      <ul className="balance-list">
        {coins.map((coin) => (
          <Balance key={coin.coinId} balance={coin.balance} symbol={coin.symbol} />
        ))}
      </ul>
    </section>
  );
}
