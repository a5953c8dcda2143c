import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** The product's green (docs/product.md) on react-admin's default look. */
const consoleTheme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: '#3f8f1f', contrastText: '#ffffff' },
    secondary: { main: '#1e1e1e', contrastText: '#86e54b' },
    background: { default: '#edf2eb' },
  },
};

/** The same look read left to right (English) or right to left (Persian): MUI flips its own components by `direction`. */
export const consoleThemes: Record<'ltr' | 'rtl', RaThemeOptions> = {
  ltr: consoleTheme,
  rtl: {
    ...consoleTheme,
    direction: 'rtl',
    components: {
      ...consoleTheme.components,
      // what operators typed (an English title such as "Watch: what is TON?") keeps its own direction in a Persian list
      // and field, instead of its final "?" jumping to the other end; the alignment stays the column's
      MuiCssBaseline: { styleOverrides: { '.MuiTableCell-body, .MuiInputBase-input': { unicodeBidi: 'plaintext' } } },
    },
  },
};
