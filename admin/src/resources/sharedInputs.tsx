import { BooleanInput, NumberInput, SaveButton, Toolbar } from 'react-admin';

/** Display order and visibility, shared by every content record. */
export function OrderAndEnabledInputs() {
  return (
    <>
      <NumberInput source="order" min={0} step={1} defaultValue={0} />
      <BooleanInput source="enabled" defaultValue />
    </>
  );
}

/** Money is a decimal string (at most 6 decimals): a text input keeps it exact. */
export const AMOUNT_HELP = 'For example 12 or 12.5 (at most 6 decimals)';

/** For records the console may change but never delete (players, reviews, withdraws, App Config). */
export function SaveOnlyToolbar() {
  return (
    <Toolbar>
      <SaveButton />
    </Toolbar>
  );
}
