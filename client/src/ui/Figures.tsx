import type { ReactNode } from 'react';

interface Figure {
  label: string;
  value: ReactNode;
  /** Names the value for tests that read one figure. */
  testId?: string;
}

/** A grid of figures: each value (read left to right in either language) above its label. */
export function Figures({ figures }: { figures: readonly Figure[] }) {
  return (
    <div className="figures">
      {figures.map(({ label, value, testId }) => (
        <div className="figure" key={label}>
          <div className="value" data-testid={testId}>
            <bdi dir="ltr">{value}</bdi>
          </div>
          <div className="label">{label}</div>
        </div>
      ))}
    </div>
  );
}
