import { generate } from 'otplib';

/** The code an authenticator app shows for this key, `offset` seconds from now (RFC 6238: SHA-1, 6 digits, 30 s). */
export const totpCodeAt = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset });

type Send = (method: string, pathname: string, body: unknown) => Promise<{ status: number; body: Record<string, unknown> } | null>;

/**
 * Turns on two-step sign-in for a signed-in operator through the console API (`send` carries their token), as production requires before
 * an account with a money permission moves money; answers the key, for the codes of later sign-ins.
 */
export async function enrolTotp(send: Send): Promise<string> {
  const started = await send('POST', '/api/admin/accounts/me/totp', {});
  const secret = started?.body.secret;
  if (typeof secret !== 'string') throw new Error(`two-step enrolment answered ${started?.status}`);
  const confirmed = await send('PUT', '/api/admin/accounts/me/totp', { totp: await totpCodeAt(secret) });
  if (confirmed?.status !== 200) throw new Error(`two-step confirmation answered ${confirmed?.status}`);
  return secret;
}
