import jwt from 'jsonwebtoken';

/** Who a token is for: a player of the installed web app, or an operator of the console; one never opens the other. */
type TokenAudience = 'player' | 'admin';

interface TokenOptions {
  secret: string;
  audience: TokenAudience;
  /** The clock to sign or check against; the real clock when absent. */
  now?: Date;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** An HS256 token carrying these claims for one audience, valid for `expiresIn`. */
export function signToken(
  claims: { sub: string } & Record<string, unknown>,
  { secret, audience, now, expiresIn }: TokenOptions & { expiresIn: jwt.SignOptions['expiresIn'] },
): string {
  return jwt.sign({ ...claims, ...(now ? { iat: seconds(now) } : {}) }, secret, { algorithm: 'HS256', audience, expiresIn });
}

/** The claims of a token signed with this secret for this audience and not expired; null for any other. */
export function readToken(token: string, { secret, audience, now }: TokenOptions): jwt.JwtPayload | null {
  try {
    const payload = jwt.verify(token, secret, { algorithms: ['HS256'], audience, ...(now ? { clockTimestamp: seconds(now) } : {}) });
    return typeof payload === 'string' ? null : payload;
  } catch {
    return null;
  }
}
