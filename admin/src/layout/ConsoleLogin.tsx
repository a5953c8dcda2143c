import { LocalesMenuButton, Login, LoginForm } from 'react-admin';
import { Box } from '@mui/material';

/** react-admin's sign-in page with the language menu under the form, so an operator can choose before signing in. */
export function ConsoleLogin() {
  return (
    <Login>
      <LoginForm />
      <Box sx={{ display: 'flex', justifyContent: 'center', pb: 1 }}>
        <LocalesMenuButton />
      </Box>
    </Login>
  );
}
