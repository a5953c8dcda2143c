import { useRef, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { Confirm, SaveButton, Toolbar, useGetList, useRecordContext, useTranslate } from 'react-admin';

/**
 * Save, asking first when the save makes the mission ⭐: a ⭐ mission stands before every other mission for every player
 * who has not done it, so the operator reads how many players that is before it happens.
 */
export function MissionToolbar() {
  const translate = useTranslate();
  const record = useRecordContext<{ mustDone?: boolean }>();
  const { getValues } = useFormContext<{ mustDone?: boolean }>();
  const [asking, setAsking] = useState(false);
  const confirmed = useRef(false);
  const save = useRef<HTMLButtonElement>(null);
  // the player count, read only when asking (an operator who cannot read players is told "every player")
  const players = useGetList('users', { pagination: { page: 1, perPage: 1 } }, { enabled: asking, retry: false });
  const becomesStar = () => getValues('mustDone') === true && record?.mustDone !== true;
  return (
    <Toolbar>
      <SaveButton
        ref={save}
        onClick={(event) => {
          if (confirmed.current || !becomesStar()) return;
          event.preventDefault();
          setAsking(true);
        }}
      />
      <Confirm
        isOpen={asking}
        title="missions.starConfirm.title"
        content={
          players.total === undefined
            ? translate('missions.starConfirm.everyPlayer')
            : translate('missions.starConfirm.players', { smart_count: players.total })
        }
        confirm="missions.starConfirm.confirm"
        onConfirm={() => {
          confirmed.current = true;
          setAsking(false);
          save.current?.click();
          confirmed.current = false;
        }}
        onClose={() => setAsking(false)}
      />
    </Toolbar>
  );
}
