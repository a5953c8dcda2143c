import { useEffect, useState } from 'react';

/** A flag that turns itself off `ms` after it was turned on: 'Copied!' in place of Copy for a moment. */
export function useBriefFlag(ms: number): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(false);
  useEffect(() => {
    if (!on) return;
    const timer = setTimeout(() => setOn(false), ms);
    return () => clearTimeout(timer);
  }, [on, ms]);
  return [on, setOn];
}
