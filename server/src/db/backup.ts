import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';

const { EJSON } = mongoose.mongo.BSON;

/** A backup: every collection of one database, as Extended JSON (canonical: a double stays a double, an int64 an int64). */
interface BackupFile {
  format: 'gift-backup/1';
  takenAt: string;
  /** 'snapshot': every collection read at one moment of the cluster; 'file': the embedded database's own copy. */
  consistency: 'snapshot' | 'file';
  collections: Record<string, unknown[]>;
}

/** The embedded database's data file (see embeddedMongo.mjs): every database by name, every collection's documents. */
interface EmbeddedDataFile {
  databases: Record<string, Record<string, unknown[]>>;
  indexes: Record<string, unknown>;
}

export interface BackupSummary {
  collections: number;
  documents: number;
  consistency: BackupFile['consistency'];
}

/** Where the embedded database `npm start` runs keeps its data: the one database it holds, `gift`. */
const EMBEDDED_DATABASE = 'gift';

function writeAtomically(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.writing`, text);
  renameSync(`${file}.writing`, file);
}

function summary(collections: Record<string, unknown[]>, consistency: BackupFile['consistency']): BackupSummary {
  return { collections: Object.keys(collections).length, documents: Object.values(collections).flat().length, consistency };
}

function writeBackup(file: string, collections: Record<string, unknown[]>, consistency: BackupFile['consistency']) {
  const backup: BackupFile = { format: 'gift-backup/1', takenAt: new Date().toISOString(), consistency, collections };
  writeAtomically(file, EJSON.stringify(backup, { relaxed: false }));
  return summary(collections, consistency);
}

function readBackup(file: string): BackupFile {
  const backup = EJSON.parse(readFileSync(file, 'utf8'), { relaxed: false }) as BackupFile;
  if (backup.format !== 'gift-backup/1') throw new Error(`${file} is not a backup written by npm run backup`);
  return backup;
}

/**
 * Copies every collection of the connected MongoDB database into `file`. On a replica set the reads share one
 * snapshot session, so the copy is the database at one moment, as a crash would have left it (the recovery
 * sweep finishes what it caught halfway); a server without snapshot reads is refused rather than copied torn.
 */
export async function backupMongo(connection: mongoose.Connection, file: string): Promise<BackupSummary> {
  const db = connection.db!;
  const session = connection.getClient().startSession({ snapshot: true });
  try {
    const collections: Record<string, unknown[]> = {};
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => !n.startsWith('system.'));
    for (const name of names.sort()) collections[name] = await db.collection(name).find({}, { session }).toArray();
    return writeBackup(file, collections, 'snapshot');
  } finally {
    await session.endSession();
  }
}

/** Loads `file` into the connected MongoDB database, which must be empty: a restore never mixes two databases. */
export async function restoreMongo(connection: mongoose.Connection, file: string): Promise<BackupSummary> {
  const backup = readBackup(file);
  const db = connection.db!;
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (name.startsWith('system.')) continue;
    if (await db.collection(name).countDocuments({}, { limit: 1 }))
      throw new Error(`the database ${db.databaseName} is not empty (${name} has documents): restore into an empty database`);
  }
  for (const [name, documents] of Object.entries(backup.collections)) {
    for (let start = 0; start < documents.length; start += 1_000)
      await db.collection(name).insertMany(documents.slice(start, start + 1_000) as mongoose.mongo.BSON.Document[], { ordered: true });
  }
  return summary(backup.collections, backup.consistency);
}

/** Copies the embedded database's data file (itself a copy taken at one moment) into a backup. */
export function backupEmbedded(dataFile: string, file: string): BackupSummary {
  if (!existsSync(dataFile)) throw new Error(`${dataFile} does not exist: start the product once (npm start) to create it`);
  const saved = EJSON.parse(readFileSync(dataFile, 'utf8')) as EmbeddedDataFile;
  return writeBackup(file, saved.databases[EMBEDDED_DATABASE] ?? {}, 'file');
}

/** Writes a backup as the embedded database's data file, which must not hold data yet; the next `npm start` reads it. */
export function restoreEmbedded(dataFile: string, file: string): BackupSummary {
  const backup = readBackup(file);
  if (existsSync(dataFile)) {
    const saved = EJSON.parse(readFileSync(dataFile, 'utf8')) as EmbeddedDataFile;
    const held = Object.values(saved.databases).flatMap((collections) => Object.values(collections).flat()).length;
    if (held)
      throw new Error(
        `${dataFile} holds ${held} records: restore into an empty database (FRESH_DEMO=1 is not one; move the file away first)`,
      );
  }
  const data: EmbeddedDataFile = { databases: { [EMBEDDED_DATABASE]: backup.collections }, indexes: {} };
  writeAtomically(dataFile, EJSON.stringify(data));
  return summary(backup.collections, backup.consistency);
}
