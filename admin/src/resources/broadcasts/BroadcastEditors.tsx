import { Create, Edit } from 'react-admin';
import { BroadcastForm } from './BroadcastForm';

/** What a draft's form sends: its content, not its figures or status (those move by PUT {status}). */
const CONTENT = ['text', 'fa', 'imageUrl', 'button', 'segment', 'scheduledAt'] as const;
const contentOf = (data: Record<string, unknown>) =>
  Object.fromEntries(CONTENT.filter((key) => key in data).map((key) => [key, data[key]]));

/** A new broadcast opens its page, where it is counted, tested and started. */
export function BroadcastCreate() {
  return (
    <Create redirect="show" transform={contentOf}>
      <BroadcastForm />
    </Create>
  );
}

/** A draft's content is edited until it is started. */
export function BroadcastEdit() {
  return (
    <Edit redirect="show" mutationMode="pessimistic" transform={contentOf}>
      <BroadcastForm />
    </Edit>
  );
}
