/** An ellipse as path commands: two half arcs from its left edge. */
const ellipse = (cx: number, cy: number, rx: number, ry: number) =>
  `M${cx - rx} ${cy}a${rx} ${ry} 0 1 0 ${2 * rx} 0a${rx} ${ry} 0 1 0 ${-2 * rx} 0`;
const circle = (cx: number, cy: number, r: number) => ellipse(cx, cy, r, r);

/** A stroke icon of the bottom navigation (24 px grid), drawn by its paths. */
function Icon({ paths }: { paths: string[] }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={paths.join('')} />
    </svg>
  );
}

export const TasksIcon = () => <Icon paths={['M9 11l3 3 8-8', 'M20 12v7a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h9']} />;
/** A stack of coins. */
export const StakingIcon = () => (
  <Icon paths={[ellipse(12, 6, 7, 3), 'M5 6v6c0 1.7 3.1 3 7 3s7-1.3 7-3V6', 'M5 12v6c0 1.7 3.1 3 7 3s7-1.3 7-3v-6']} />
);
/** A coin with a dollar sign. */
export const CurrencyIcon = () => (
  <Icon
    paths={[
      circle(12, 12, 9),
      'M15 9.5c-.5-1-1.6-1.5-3-1.5-1.7 0-3 .9-3 2s1.3 1.7 3 2 3 .9 3 2-1.3 2-3 2c-1.4 0-2.5-.5-3-1.5',
      'M12 6v2M12 16v2',
    ]}
  />
);
export const ProfileIcon = () => <Icon paths={[circle(12, 8, 4), 'M4 21c0-4 3.6-7 8-7s8 3 8 7']} />;
/** A person with a plus. */
export const InviteIcon = () => <Icon paths={[circle(9, 8, 4), 'M2 21c0-3.9 3.1-7 7-7 1.4 0 2.7.4 3.8 1.1', 'M19 14v6M16 17h6']} />;
