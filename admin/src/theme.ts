import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** The product's green (spec §9) on react-admin's default look. */
export const consoleTheme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: '#3f8f1f', contrastText: '#ffffff' },
    secondary: { main: '#1e1e1e', contrastText: '#86e54b' },
    background: { default: '#edf2eb' },
  },
};
