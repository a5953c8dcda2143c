import type { ReactNode } from 'react';
import { useFormat } from '../../lib/format';

interface ShownMission {
  title: string;
  reward: string;
  mustDone: boolean;
  coin: { symbol: string };
}

/** A mission's title, ⭐ first when it comes before the others. */
export const MissionTitle = ({ mission }: { mission: ShownMission }) => (
  <>
    {mission.mustDone && <span aria-label="⭐">⭐ </span>}
    <bdi>{mission.title}</bdi>
  </>
);

/** A mission's reward, read left to right in either language. */
export function MissionReward({ mission }: { mission: ShownMission }) {
  const format = useFormat();
  return (
    <bdi dir="ltr">
      +{format.amount(mission.reward)} {mission.coin.symbol}
    </bdi>
  );
}

/** A mission in a list: its title and its reward, with what a list adds after it. */
export function MissionRowText({ mission, children }: { mission: ShownMission; children?: ReactNode }) {
  return (
    <div className="grow">
      <div className="title">
        <MissionTitle mission={mission} />
      </div>
      <div className="muted">
        <MissionReward mission={mission} />
        {children}
      </div>
    </div>
  );
}
