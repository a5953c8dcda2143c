// The benchmark's database in a process of its own, so its work does not share the app's event loop
// (as in production, where MongoDB is another process). Prints the URI once ready; stops when the parent goes.
import { startEmbeddedMongo } from '../src/db/embeddedMongo.mjs';

const database = await startEmbeddedMongo();
process.send({ uri: database.uri, kind: database.kind });
process.on('disconnect', async () => {
  await database.stop();
  process.exit(0);
});
