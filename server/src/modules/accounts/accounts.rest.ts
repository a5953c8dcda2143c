import { Router } from 'express';
import type { Env } from '../../env';

/** POST /login. PLACEHOLDER until operator sign-in lands. */
export function adminLoginRouter(_env: Env): Router {
  return Router();
}
