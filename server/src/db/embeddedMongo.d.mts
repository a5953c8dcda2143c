export interface EmbeddedMongo {
  uri: string;
  kind: 'mongod' | 'congodb';
  stop: () => Promise<unknown>;
}
export function startEmbeddedMongo(options?: { port?: number }): Promise<EmbeddedMongo>;
