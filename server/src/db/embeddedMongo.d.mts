export interface EmbeddedMongo {
  uri: string;
  kind: 'mongod' | 'congodb';
  stop: () => Promise<unknown>;
  /** Documents read back from the data file at start; null when there was none (a fresh database). */
  restored: number | null;
}
export function startEmbeddedMongo(options?: { port?: number; dataFile?: string; saveEveryMs?: number }): Promise<EmbeddedMongo>;
