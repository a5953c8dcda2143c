import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  ADMIN_RESOURCES,
  AUDIT_ACTIONS,
  STAKING_DURATION_KEYS,
  USER_MISSION_STATUSES,
  VERIFY_TYPES,
  WITHDRAWAL_STATUSES,
} from '@gift/shared/constants';
import ts from 'typescript';
import { englishConsoleMessages } from './en';
import { persianConsoleMessages, persianFieldMessages } from './fa';
import { i18nProvider } from './i18nProvider';

/** Every message as polyglot reads it: nested objects joined with dots. */
function flatten(messages: object, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value === 'string') flat.set(`${prefix}${key}`, value);
    else if (value && typeof value === 'object') for (const [k, v] of flatten(value as object, `${prefix}${key}.`)) flat.set(k, v);
  }
  return flat;
}

const keys = flatten(englishConsoleMessages);
const sourceDir = path.resolve(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'i18n' ? [] : sources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/**
 * Words that template literals and suffix strings put on a page (`Order ${n}`, ' · disabled'), read with TypeScript's parser:
 * keys, paths and the auth header have no word beside a space.
 */
function templateWords(code: string): string[] {
  const words: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const text = ts.isTemplateExpression(node)
        ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('')
        : node.text;
      if (/[A-Za-z]{3,}\s|\s[A-Za-z]{3,}/.test(text) && text !== 'Bearer ') words.push(text);
    } else if (ts.isStringLiteral(node) && /^\s*·\s*[A-Za-z]/.test(node.text)) words.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('console.tsx', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX));
  return words;
}

/** Each literal a console file shows a person, with where it is. */
function shownLiterals(): Array<{ where: string; text: string }> {
  const found: Array<{ where: string; text: string }> = [];
  for (const file of sources(sourceDir)) {
    const code = readFileSync(file, 'utf8');
    const where = path.relative(sourceDir, file);
    const patterns = [
      // props react-admin translates, written as a literal
      /\b(?:label|title|helperText|placeholder|emptyText|confirmTitle|confirmContent|primaryText)="([^"]*)"/g,
      // translate('…') and notify('…') with a literal message
      /\b(?:translate|notify)\('([^']+)'/g,
      // choices: { id: …, name: '…' }
      /\bname: '([^']+)'/g,
    ];
    for (const pattern of patterns) for (const [, text] of code.matchAll(pattern)) found.push({ where, text: text! });
    for (const text of templateWords(code)) found.push({ where, text });
    // text between JSX tags: words written into the page (not a type's generic, `Record<…>`, nor an expression)
    for (const [, text, space] of code.matchAll(/>\s*([^<>{}()=;&|?]*[A-Za-z]{2,}[^<>{}()=;&|?]*?)(\s*)</g))
      if (space || !/^[A-Za-z.]+$/.test(text!)) found.push({ where, text: text! });
  }
  return found;
}

describe("the console's labels", () => {
  it('are all keys of en.ts: no label, help text, choice or message is written inline', () => {
    const inline = shownLiterals().filter(({ text }) => text !== '' && text !== '—' && !keys.has(text));
    expect(inline).toEqual([]);
  });

  it('have a key for every status, verify type, audit action, resource and staking term the server can send', () => {
    const needed = [
      ...USER_MISSION_STATUSES.map((status) => `statuses.progress.${status}`),
      ...WITHDRAWAL_STATUSES.map((status) => `statuses.withdrawal.${status}`),
      ...VERIFY_TYPES.map((type) => `verifyTypes.${type}`),
      ...AUDIT_ACTIONS.map((action) => `audit.actions.${action}`),
      ...ADMIN_RESOURCES.map((resource) => `resources.${resource}.name`),
      ...STAKING_DURATION_KEYS.map((duration) => `staking.durations.${duration}`),
    ];
    expect(needed.filter((key) => !keys.has(key))).toEqual([]);
  });
});

describe('the console in Persian', () => {
  const fieldMessages = new Set(Object.keys(persianFieldMessages));
  const persian = new Map([...flatten(persianConsoleMessages)].filter(([key]) => !fieldMessages.has(key)));
  const placeholders = (message: string) => [...message.matchAll(/%\{(\w+)\}/g)].map(([, name]) => name).sort();
  const forms = (message: string) => message.split('||||').length;

  it('has every label of the English console, and no other', () => {
    expect([...keys.keys()].filter((key) => !persian.has(key))).toEqual([]);
    expect([...persian.keys()].filter((key) => !keys.has(key))).toEqual([]);
  });

  it('fills in the same values (%{…}) and gives the same plural forms as the English label', () => {
    const differing = [...keys].filter(([key, english]) => {
      const farsi = persian.get(key) ?? '';
      return placeholders(farsi).join() !== placeholders(english).join() || forms(farsi) !== forms(english);
    });
    expect(differing.map(([key]) => key)).toEqual([]);
  });

  it('is written in Persian: every label the console writes itself has Persian letters', () => {
    // English named in itself, and the labels that are only values
    const same = new Set(['languages.en', 'clawBack.owedLine', 'content.completionsOfCap']);
    const english = [...persian].filter(
      ([key, farsi]) => !key.startsWith('ra.') && !key.includes('.reasons.') && !same.has(key) && !/[\u0600-\u06ff]/.test(farsi),
    );
    expect(english).toEqual([]);
  });

  it("gives every field message of the shared schemas and the server's checks in Persian, as a form shows it", async () => {
    const root = path.resolve(__dirname, '../../..');
    const files = [...sources(path.join(root, 'shared', 'src')), ...sources(path.join(root, 'server', 'src'))];
    const messages = new Set<string>();
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      const inSchemas = file.includes(`${path.sep}shared${path.sep}`);
      // zod's messages (message: '…', .min(1, '…'), .refine(…, '…')) and the server's badInput({ field: '…' })
      const patterns = inSchemas ? [/message: '([^']+)'/g, /, '([A-Z][^']+)'\)/g] : [/badInput\(\{[^}]*?\w+: '([A-Z][^']+)'/g];
      for (const pattern of patterns) for (const [, message] of code.matchAll(pattern)) messages.add(message!);
    }
    expect(messages.size).toBeGreaterThan(40);
    expect([...messages].filter((message) => !fieldMessages.has(message))).toEqual([]);

    await i18nProvider.changeLocale('fa');
    const amount = 'Enter an amount like 12 or 12.5 (at most 6 decimals)';
    expect(i18nProvider.translate(amount, { _: amount })).toBe(persianFieldMessages[amount]);
    await i18nProvider.changeLocale('en');
    expect(i18nProvider.translate(amount, { _: amount })).toBe(amount);
  });
});
