import type { Logger } from '../lib/logger';

/** Demo data for the embedded database. PLACEHOLDER until the seed lands. */
export async function seedDemoData(_logger: Logger): Promise<void> {}
