import type { ReactNode } from 'react';
import { useFormat } from '../../lib/format';

/** A mission in a list: its title (⭐ first when it comes before the others) and its reward, with what a list adds after it. */
export function MissionRowText({
  mission,
  children,
}: {
  mission: { title: string; reward: string; mustDone: boolean; coin: { symbol: string } };
  children?: ReactNode;
}) {
  const format = useFormat();
  return (
    <div className="grow">
      <div className="title">
        {mission.mustDone && <span aria-label="⭐">⭐ </span>}
        <bdi>{mission.title}</bdi>
      </div>
      <div className="muted">
        <bdi dir="ltr">
          +{format.amount(mission.reward)} {mission.coin.symbol}
        </bdi>
        {children}
      </div>
    </div>
  );
}
