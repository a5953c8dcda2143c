import { useEffect, useState } from 'react';

/** The current time, re-rendered every second while `active` (a countdown computes from it; nothing is fetched). */
export function useNow(active = true, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a clock turned back on shows the time at once, not a stale one for its first interval
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
