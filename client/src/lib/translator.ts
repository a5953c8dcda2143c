import { useMemo, useSyncExternalStore } from 'react';
import type { Language } from '@gift/shared/constants';

// The player app's translator, in place of i18next and react-i18next (18 kB gzip of the first screen): the texts keep
// i18next's format, which is all the app uses of it. A key is a path through nested texts ('home.title'); `{{name}}`
// writes a value, `{{name, format}}` writes it through a format lib/i18n.ts adds (`amount`, `number`); given a `count`,
// `key_one`, `key_other`… (the language's plural category) is looked up before `key`. A key missing in the current
// language is read in English, else the `defaultValue`, else shown as it is (so a browser test sees it).

/** A language's texts: nested objects of strings. */
export interface Texts {
  readonly [key: string]: string | Texts;
}

type Value = string | number | bigint | boolean | null | undefined;
type Values = { defaultValue?: string; count?: number } & Record<string, Value>;
type Format = (value: Value, language: Language) => string;

const FALLBACK: Language = 'en';
/** Each language's texts, as added: the app's own, then a page's (the wallet's); the first that has a key wins. */
const bundles = new Map<Language, Texts[]>();
const formats = new Map<string, Format>();
/** What components read: replaced whenever the language or the texts change, so they render again. */
let current: { language: Language } = { language: FALLBACK };
const listeners = new Set<() => void>();
const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

function changed(language = current.language) {
  current = { language };
  listeners.forEach((listener) => listener());
}

/** Adds texts to `language` (keys it already has keep their text). */
export function addTexts(language: Language, texts: Texts): void {
  bundles.set(language, [...(bundles.get(language) ?? []), texts]);
  changed();
}

/** Adds a format that `{{value, name}}` writes a value through. */
export function addFormat(name: string, format: Format): void {
  formats.set(name, format);
}

/** Switches the language the texts are read in (its texts should be added first). */
export function switchLanguage(language: Language): void {
  if (language !== current.language) changed(language);
}

/** The language the texts are read in. */
export function currentLanguage(): Language {
  return current.language;
}

function lookup(language: Language, key: string): string | undefined {
  for (const texts of bundles.get(language) ?? []) {
    let at: string | Texts | undefined = texts;
    for (const part of key.split('.')) at = typeof at === 'object' && has(at, part) ? at[part] : undefined;
    if (typeof at === 'string') return at;
  }
  return undefined;
}

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*(?:,\s*(\w+)\s*)?\}\}/g;

/** The text of `key` in `language` (the current one by default), with `values` written into it. */
export function translate(key: string, values: Values = {}, language = current.language): string {
  const plural = typeof values.count === 'number' ? `${key}_${new Intl.PluralRules(language).select(values.count)}` : null;
  let text: string | undefined;
  for (const lng of language === FALLBACK ? [language] : [language, FALLBACK]) {
    text = (plural === null ? undefined : lookup(lng, plural)) ?? lookup(lng, key);
    if (text !== undefined) break;
  }
  // a value not given at all stays as its placeholder; one given as null or undefined writes nothing (as i18next did)
  return (text ?? values.defaultValue ?? key).replace(PLACEHOLDER, (placeholder, name: string, format?: string) => {
    if (!has(values, name)) return placeholder;
    const value = values[name];
    if (value === undefined || value === null) return '';
    const write = format === undefined ? undefined : formats.get(format);
    return write ? write(value, language) : String(value);
  });
}

export type Translate = (key: string, values?: Values) => string;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/**
 * The texts in the current language, for a component: it renders again when the language or the texts change. `i18n.t`
 * reads the language at the time it is called (for a callback that runs after a switch).
 */
export function useTranslation(): { t: Translate; i18n: { language: Language; t: Translate } } {
  const state = useSyncExternalStore(subscribe, () => current);
  return useMemo(
    () => ({
      t: (key, values) => translate(key, values, state.language),
      i18n: { language: state.language, t: (key, values) => translate(key, values) },
    }),
    [state],
  );
}
