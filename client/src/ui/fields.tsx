import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { haptic } from '../lib/telegram';

/** What every field shows around its control. */
interface FieldText {
  label: ReactNode;
  /** Said under the control and read with it. */
  hint?: ReactNode;
  /** Why the value cannot be taken: shown as an alert, read with the control, and marks it invalid. */
  error?: ReactNode;
}

type ControlProps = { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true };

/** A label above its control (bound by id), then the hint and the error, both read with the control. */
function Field({ label, hint, error, children }: FieldText & { children: (control: ControlProps) => ReactNode }) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': describedBy || undefined, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <span className="muted" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span className="error-text" role="alert" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

/** A labelled one-line input; every other input attribute passes through. */
export const TextField = ({ label, hint, error, ...input }: FieldText & InputHTMLAttributes<HTMLInputElement>) => (
  <Field {...{ label, hint, error }}>{(control) => <input {...control} {...input} />}</Field>
);

/** A labelled text area. */
export const TextAreaField = ({ label, hint, error, ...area }: FieldText & TextareaHTMLAttributes<HTMLTextAreaElement>) => (
  <Field {...{ label, hint, error }}>{(control) => <textarea {...control} {...area} />}</Field>
);

/** A labelled file input; what it shows once a file is chosen comes after it (`children`). */
export const FileField = ({ label, hint, error, children, ...input }: FieldText & InputHTMLAttributes<HTMLInputElement>) => (
  <Field {...{ label, hint, error }}>
    {(control) => (
      <>
        <input {...control} {...input} type="file" />
        {children}
      </>
    )}
  </Field>
);

/**
 * An amount, kept as typed (Persian digits, a decimal comma: the form reads it as a whole), with a Max button that fills
 * in the most the player can use.
 */
export function AmountField({
  label,
  hint,
  error,
  name,
  value,
  onChange,
  maxLabel,
  onMax,
}: FieldText & { name?: string; value: string; onChange: (typed: string) => void; maxLabel: string; onMax: () => void }) {
  return (
    <Field {...{ label, hint, error }}>
      {(control) => (
        <span className="amount-input">
          <input
            {...control}
            name={name}
            inputMode="decimal"
            dir="ltr"
            autoComplete="off"
            placeholder="0"
            value={value}
            onChange={(event) => onChange(event.target.value)}
          />
          <button type="button" className="button button-ghost" onClick={onMax}>
            {maxLabel}
          </button>
        </span>
      )}
    </Field>
  );
}

interface Choice<T> {
  value: T;
  label: ReactNode;
  lang?: string;
}

/** One of a few choices as a row of toggle buttons, named by the label whose id is `id`. */
export function ChoiceField<T extends string | boolean>({
  id,
  label,
  choices,
  chosen,
  onChoose,
  wrap = false,
}: {
  id: string;
  label: ReactNode;
  choices: readonly Choice<T>[];
  chosen: T;
  onChoose: (value: T) => void;
  /** Lets the buttons run onto a second line (long labels, a figure under each). */
  wrap?: boolean;
}) {
  return (
    <div className="field">
      <span id={id}>{label}</span>
      <div className={wrap ? 'segmented wrap' : 'segmented'} role="group" aria-labelledby={id}>
        {choices.map((choice) => (
          <button
            key={String(choice.value)}
            type="button"
            lang={choice.lang}
            aria-pressed={choice.value === chosen}
            onClick={() => {
              haptic('selection');
              onChoose(choice.value);
            }}
          >
            {choice.label}
          </button>
        ))}
      </div>
    </div>
  );
}
