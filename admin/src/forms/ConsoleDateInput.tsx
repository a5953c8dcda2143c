import { useState } from 'react';
import { TextField, type TextFieldProps } from '@mui/material';
import { toGregorian, toJalaali, isValidJalaaliDate } from 'jalaali-js';
import { asciiDigits } from '@gift/shared/numerals';
import { persianDigits } from '../lists/localDigits';
import {
  DateInput,
  DateTimeInput,
  FieldTitle,
  InputHelperText,
  useInput,
  useLocaleState,
  useTranslate,
  type DateInputProps,
} from 'react-admin';

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A Gregorian day or local time as the browser's date inputs write it ('2026-11-27', '2026-11-27T14:30') in the Solar
 * Hijri calendar with Persian digits ('۱۴۰۵/۰۹/۰۶', '۱۴۰۵/۰۹/۰۶ ۱۴:۳۰'); '' for no date or one it cannot read.
 */
export function toSolarHijri(gregorian: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(gregorian);
  if (!match) return '';
  const { jy, jm, jd } = toJalaali(Number(match[1]), Number(match[2]), Number(match[3]));
  const day = `${jy}/${two(jm)}/${two(jd)}`;
  return persianDigits(match[4] === undefined ? day : `${day} ${match[4]}:${match[5]}`);
}

/**
 * A Solar Hijri date typed in Persian, Arabic or Latin digits ('۱۴۰۵/۰۹/۰۶', '1405-9-6'), with a time when `time`
 * ('۱۴۰۵/۰۹/۰۶ ۱۴:۳۰'; none is midnight), as the browser's input would write it in Gregorian; null when it is no real date.
 */
export function fromSolarHijri(text: string, time = false): string | null {
  const match = /^\s*(\d{4})\s*[/\-.]\s*(\d{1,2})\s*[/\-.]\s*(\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?\s*$/.exec(asciiDigits(text));
  if (!match) return null;
  const [jy, jm, jd] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [hours, minutes] = [Number(match[4] ?? 0), Number(match[5] ?? 0)];
  if (!isValidJalaaliDate(jy, jm, jd) || hours > 23 || minutes > 59 || (!time && match[4] !== undefined)) return null;
  const { gy, gm, gd } = toGregorian(jy, jm, jd);
  const day = `${gy}-${two(gm)}-${two(gd)}`;
  return time ? `${day}T${two(hours)}:${two(minutes)}` : day;
}

type FieldProps = Pick<TextFieldProps, 'label' | 'size' | 'fullWidth' | 'sx' | 'helperText' | 'error' | 'name' | 'onBlur' | 'id'>;

/** The Persian input: the Solar Hijri text an operator reads and types, the Gregorian value the form and the server keep. */
function SolarHijriField({
  value,
  onChange,
  time = false,
  helperText,
  error,
  ...props
}: FieldProps & { value: string; onChange: (gregorian: string | null) => void; time?: boolean }) {
  const translate = useTranslate();
  const [text, setText] = useState(() => toSolarHijri(value ?? ''));
  const [shown, setShown] = useState(value);
  // a value set from outside (a preset, a reset, a record loaded) shows; the operator's half-typed text is kept
  if (shown !== value) {
    setShown(value);
    if ((fromSolarHijri(text, time) ?? '') !== (value ?? '')) setText(toSolarHijri(value ?? ''));
  }
  const unreadable = text.trim() !== '' && fromSolarHijri(text, time) === null;
  const example = toSolarHijri(time ? '2026-11-27T14:30' : '2026-11-27');
  return (
    <TextField
      {...props}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        if (event.target.value.trim() === '') onChange(null);
        else {
          const gregorian = fromSolarHijri(event.target.value, time);
          if (gregorian) onChange(gregorian);
        }
      }}
      error={error || unreadable}
      helperText={unreadable ? translate('common.dateUnreadable', { example }) : helperText}
      placeholder={translate('common.dateExample', { example })}
      // digits run left to right, aligned to the start of the right-to-left page (an inline style: not mirrored)
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { dir: 'ltr', inputMode: 'numeric', lang: 'fa', style: { textAlign: 'right' } },
      }}
    />
  );
}

const isPersian = (locale: string) => locale === 'fa';

/**
 * A day outside a form (the dashboard's range): 'YYYY-MM-DD', in Gregorian in English (the browser's date input) and in
 * the Solar Hijri calendar with Persian digits in Persian.
 */
export function ConsoleDayField({ value, onChange, ...props }: FieldProps & { value: string; onChange: (day: string) => void }) {
  const [locale] = useLocaleState();
  if (isPersian(locale)) return <SolarHijriField {...props} value={value} onChange={(day) => day && onChange(day)} />;
  return (
    <TextField
      {...props}
      type="date"
      value={value}
      onChange={(event) => event.target.value && onChange(event.target.value)}
      slotProps={{ inputLabel: { shrink: true } }}
    />
  );
}

/** A Date or ISO string from the server as the browser's input writes it, in local time: '2026-11-27' or '2026-11-27T14:30'. */
function inputValue(value: unknown, time: boolean): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && (time ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/ : /^\d{4}-\d{2}-\d{2}$/).test(value)) return value;
  const date = new Date(value as string);
  if (Number.isNaN(date.getTime())) return '';
  const day = `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
  return time ? `${day}T${two(date.getHours())}:${two(date.getMinutes())}` : day;
}

type ConsoleDateInputProps = DateInputProps & { time?: boolean };

/** The Persian form input: what react-admin's DateInput or DateTimeInput would store, read and typed in Solar Hijri. */
function SolarHijriInput({
  time = false,
  label,
  helperText,
  source,
  resource,
  fullWidth,
  sx,
  validate,
  defaultValue,
}: ConsoleDateInputProps) {
  const format = (value: unknown) => inputValue(value, time);
  const { field, fieldState, isRequired } = useInput({ source, resource, validate, defaultValue, format });
  return (
    <SolarHijriField
      name={field.name}
      onBlur={field.onBlur}
      value={field.value as string}
      onChange={(gregorian) => field.onChange(gregorian)}
      time={time}
      size="small"
      fullWidth={fullWidth}
      sx={sx}
      label={<FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />}
      error={fieldState.invalid}
      helperText={<InputHelperText error={fieldState.error?.message} helperText={helperText} />}
    />
  );
}

/**
 * Every date input of the console (forms and list filters): in English react-admin's DateInput (a day) or DateTimeInput
 * (`time`), Gregorian; in Persian the same value read and typed in the Solar Hijri calendar with Persian digits.
 */
export function ConsoleDateInput({ time = false, ...props }: ConsoleDateInputProps) {
  const [locale] = useLocaleState();
  if (isPersian(locale)) return <SolarHijriInput time={time} {...props} />;
  return time ? <DateTimeInput {...props} /> : <DateInput {...props} />;
}
