import { useCallback, useRef, useState } from 'react';

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
    send(() => {
      inFlight.current = false;
      setBusy(false);
    });
    return true;
  }, []);
  return { busy, run };
}
