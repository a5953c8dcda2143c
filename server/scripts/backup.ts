// `npm run backup -- <file>` and `npm run restore -- <file>`: on MONGO_URL's database when it is set, else on the
// embedded database's data file (EMBEDDED_DATA_FILE). See docs/operations.md#backups.
import path from 'node:path';
import mongoose from 'mongoose';
import { backupEmbedded, backupMongo, restoreEmbedded, restoreMongo, type BackupSummary } from '../src/db/backup';
import { connectionOptions } from '../src/db/connect';
import { EnvError, loadEnv } from '../src/env';

async function main() {
  const [command, given] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || !given) {
    console.error('usage: npm run backup -- <file>   |   npm run restore -- <file>');
    process.exit(2);
  }
  // npm runs this in server/: a relative path means the folder the command was typed in
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  const env = loadEnv({ ...process.env, NODE_ENV: 'development' });
  let done: BackupSummary;
  let where: string;
  if (env.MONGO_URL) {
    await mongoose.connect(env.MONGO_URL, connectionOptions(env.MONGO_URL));
    where = `MongoDB database ${mongoose.connection.name}`;
    try {
      done = command === 'backup' ? await backupMongo(mongoose.connection, file) : await restoreMongo(mongoose.connection, file);
    } finally {
      await mongoose.disconnect();
    }
  } else {
    where = `the embedded database (${env.EMBEDDED_DATA_FILE})`;
    done = command === 'backup' ? backupEmbedded(env.EMBEDDED_DATA_FILE, file) : restoreEmbedded(env.EMBEDDED_DATA_FILE, file);
  }
  const verb = command === 'backup' ? `Backed up ${where} to ${file}` : `Restored ${file} into ${where}`;
  console.log(
    `${verb}: ${done.documents} documents in ${done.collections} collections (${done.consistency === 'snapshot' ? 'one snapshot' : 'the data file, copied at one moment'})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof EnvError ? error.message : `${command()} failed: ${(error as Error).message}`);
  process.exit(1);
});

function command() {
  return process.argv[2] ?? 'backup';
}
