import { useCallback, useRef, useState } from 'react';
import { confirmClosing } from '../lib/telegram';

/**
 * A money action sent at most once at a time: from the tap to the answer its button is disabled, and a second tap (even
 * one React has not yet re-rendered for) sends nothing. `run` returns false when it sent nothing.
 */
export function useSingleFlight() {
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = useCallback((send: (done: () => void) => void): boolean => {
    if (inFlight.current) return false;
    inFlight.current = true;
    setBusy(true);
    // closing the app now would leave the player not knowing whether it went through: Telegram asks first
    confirmClosing(true);
    send(() => {
      inFlight.current = false;
      setBusy(false);
      confirmClosing(false);
    });
    return true;
  }, []);
  return { busy, run };
}
