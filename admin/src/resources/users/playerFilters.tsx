import { SelectInput } from 'react-admin';
import { PLAYER_STATUSES, RISK_LEVELS } from '@gift/shared';

/** A player's status and risk level; the names are translation keys (react-admin translates choices). */
export const PLAYER_STATUS_CHOICES = PLAYER_STATUSES.map((id) => ({ id, name: `players.status.${id}` }));
const RISK_LEVEL_CHOICES = RISK_LEVELS.map((id) => ({ id, name: `risk.levels.${id}` }));

/** The players' lists filter on status and risk level; `alwaysOn` shows a filter without the Filter button. */
export const statusFilter = (alwaysOn = false) => (
  <SelectInput key="status" source="status" label="resources.users.fields.status" choices={PLAYER_STATUS_CHOICES} alwaysOn={alwaysOn} />
);
export const riskLevelFilter = (alwaysOn = false) => (
  <SelectInput key="level" source="risk.level" label="risk.level" choices={RISK_LEVEL_CHOICES} alwaysOn={alwaysOn} />
);
