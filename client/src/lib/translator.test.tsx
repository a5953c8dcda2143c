import { act, render, screen } from '@testing-library/react';
import { en } from '../locales/en';
import { fa } from '../locales/fa';
import { initI18n, setLanguage } from './i18n';
import { addTexts, translate, useTranslation } from './translator';

beforeAll(async () => {
  await initI18n('en');
  // a plural the app's texts do not have (yet): a count picks the language's plural form, else the key itself
  addTexts('en', { test: { apples_one: '{{count, number}} apple', apples_other: '{{count, number}} apples', pears: 'Pears' } });
});
afterEach(() => setLanguage('en'));

it('reads nested keys and writes values, through the amount and number formats, in each language', async () => {
  expect(translate('home.title')).toBe(en.home.title);
  expect(translate('home.hello', { name: 'Sara' })).toBe('Hi, Sara');
  expect(translate('mining.moved', { count: 12345 })).toBe('Moved 12,345 mining rewards to wallet');
  expect(translate('common.amountTypos.decimals', { decimals: 6 })).toBe('An amount has at most 6 decimals');
  await setLanguage('fa');
  expect(translate('home.title')).toBe(fa.home.title);
  expect(translate('mining.moved', { count: 12345 })).toBe(fa.mining.moved.replace('{{count, number}}', '۱۲٬۳۴۵'));
  const perHour = translate('mining.perHour', { amount: '1234.5', symbol: 'GIFT' }, 'fa');
  expect(perHour).toContain('۱٬۲۳۴٫۵ GIFT');
  expect(perHour.replace('GIFT', '')).not.toMatch(/[0-9{}]/);
});

it('picks the plural form by count, and falls back to the bare key', () => {
  expect(translate('test.apples', { count: 1 })).toBe('1 apple');
  expect(translate('test.apples', { count: 1000 })).toBe('1,000 apples');
  expect(translate('test.pears', { count: 2 })).toBe('Pears');
});

it('reads a key missing in Persian in English, then the default, then shows the key', async () => {
  await setLanguage('fa');
  expect(translate('test.pears')).toBe('Pears');
  expect(translate('nothing.here', { defaultValue: 'Something' })).toBe('Something');
  expect(translate('nothing.here')).toBe('nothing.here');
  // a path through a text, or to a group of texts, is no text
  expect(translate('home.title.more')).toBe('home.title.more');
  expect(translate('home')).toBe('home');
});

it('keeps a placeholder whose value is not given, and writes nothing for a null one', () => {
  expect(translate('home.hello')).toBe('Hi, {{name}}');
  expect(translate('home.hello', { name: null })).toBe('Hi, ');
  // a value is written as it is: no markup is read from it, and no placeholder in it is filled
  expect(translate('home.hello', { name: '<b>{{count}}</b>', count: 3 })).toBe('Hi, <b>{{count}}</b>');
});

it('renders a component again in the new language when the player switches', async () => {
  function Title() {
    const { t, i18n } = useTranslation();
    return (
      <h1 lang={i18n.language}>
        {t('home.title')} {t('home.hello', { name: 'Sara' })}
      </h1>
    );
  }
  render(<Title />);
  expect(screen.getByRole('heading')).toHaveTextContent(`${en.home.title} Hi, Sara`);
  await act(() => setLanguage('fa'));
  expect(screen.getByRole('heading')).toHaveTextContent(`${fa.home.title} ${fa.home.hello.replace('{{name}}', 'Sara')}`);
  expect(screen.getByRole('heading')).toHaveAttribute('lang', 'fa');
  expect(document.documentElement.dir).toBe('rtl');
});
