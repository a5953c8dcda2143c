import { useMediaQuery, type Theme } from '@mui/material';

/** Below the md breakpoint (phones, small tablets) lists become simple lists and the menu a drawer. */
export function useIsSmall(): boolean {
  return useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
}
