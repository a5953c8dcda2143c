import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n, LOCALE_STORAGE_KEY, setLanguage } from '../../../lib/i18n';
import { ThemeProvider, THEME_STORAGE_KEY } from '../../../ui/theme';
import { PreferencesForm } from './PreferencesForm';

beforeAll(() => initI18n());
afterEach(() => setLanguage('en'));

function renderForm(onChange = jest.fn()) {
  render(
    <ThemeProvider>
      <PreferencesForm onChange={onChange} />
    </ThemeProvider>,
  );
  return onChange;
}

it('switches to Persian: the layout turns right-to-left, labels translate, and the choice is remembered', async () => {
  const onChange = renderForm();
  expect(document.documentElement.dir).toBe('ltr');
  expect(screen.getByText('Language')).toBeInTheDocument();

  await userEvent.click(screen.getByRole('button', { name: 'فارسی' }));

  expect(document.documentElement.dir).toBe('rtl');
  expect(document.documentElement.lang).toBe('fa');
  expect(screen.getByText('زبان')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'تیره' })).toBeInTheDocument();
  expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('fa');
  expect(document.cookie).toContain('locale=fa');
  expect(onChange).toHaveBeenCalledWith({ language: 'fa' });

  await userEvent.click(screen.getByRole('button', { name: 'English' }));
  expect(document.documentElement.dir).toBe('ltr');
  expect(screen.getByText('Language')).toBeInTheDocument();
});

it('starts dark, and the light theme applies to the whole page and is remembered', async () => {
  const onChange = renderForm();
  expect(document.documentElement.dataset.theme).toBe('dark');
  expect(screen.getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true');

  await userEvent.click(screen.getByRole('button', { name: 'Light' }));

  expect(document.documentElement.dataset.theme).toBe('light');
  expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  expect(onChange).toHaveBeenCalledWith({ theme: 'light' });
});

it('opens in the language stored on this device', async () => {
  localStorage.setItem(LOCALE_STORAGE_KEY, 'fa');
  await initI18n();
  expect(document.documentElement.dir).toBe('rtl');
});
