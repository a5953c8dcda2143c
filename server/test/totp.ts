import { generate } from 'otplib';

/** The code an authenticator app shows for this key, `offset` seconds from now (RFC 6238: SHA-1, 6 digits, 30 s). */
export const totpCodeAt = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset });
