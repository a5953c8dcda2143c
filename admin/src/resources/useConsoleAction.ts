import { useState } from 'react';
import { useNotify, useRefresh } from 'react-admin';
import { failureNotice } from './failureNotice';

/** What a finished action tells the operator: a message key and its arguments. */
interface Outcome {
  message: string;
  args?: Record<string, unknown>;
}

/**
 * A console call made by a button: busy while it runs; once it answers, `finished` does what the button does after it and
 * names the message, which is shown before the page refreshes; a failure shows the server's message and changes nothing.
 */
export function useConsoleAction() {
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const run = async <T>(call: () => Promise<T>, finished: (result: T) => Outcome) => {
    setBusy(true);
    try {
      const { message, args } = finished(await call());
      notify(message, { type: 'info', messageArgs: args });
      refresh();
    } catch (failure) {
      notify(...failureNotice(failure));
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
