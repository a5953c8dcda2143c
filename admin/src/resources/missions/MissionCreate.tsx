import { Create, type RedirectionSideEffect } from 'react-admin';
import { MissionForm } from './MissionForm';

/** After saving, the list of the mission's category, newest first: the saved mission is its first row. */
const toItsList: RedirectionSideEffect = (_resource, _id, data) =>
  `missions?${new URLSearchParams({
    filter: JSON.stringify({ category: (data as { category?: string } | undefined)?.category }),
    sort: 'createdAt',
    order: 'DESC',
  }).toString()}`;

export function MissionCreate() {
  return (
    <Create redirect={toItsList}>
      <MissionForm />
    </Create>
  );
}
