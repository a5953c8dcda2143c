import mongoose from 'mongoose';
import { withDatabaseName } from '../src/db/connect';

interface StartedCommand {
  commandName: string;
  command: Record<string, unknown>;
}

/** A command as a person reads it: `find users`, `aggregate usermissions`, `findAndModify balances`. */
function describeCommand(event: StartedCommand): string {
  const target = event.command[event.commandName];
  return typeof target === 'string' ? `${event.commandName} ${target}` : event.commandName;
}

/**
 * Every command the driver sends while `run` runs, counted with its command monitoring (the connection needs
 * `monitorCommands: true`): each command counts, those sent together in parallel included.
 */
export async function databaseCommandsDuring<T>(run: () => Promise<T>): Promise<{ commands: string[]; result: T }> {
  const commands: string[] = [];
  const client = mongoose.connection.getClient();
  const listener = (event: StartedCommand) => void commands.push(describeCommand(event));
  client.on('commandStarted', listener);
  try {
    return { commands, result: await run() };
  } finally {
    client.off('commandStarted', listener);
  }
}

/** Reconnects this test file's database with the driver's command monitoring on (the test set-up connects without it); its indexes are already built. */
export async function monitorDatabaseCommands(): Promise<void> {
  const name = mongoose.connection.name;
  await mongoose.disconnect();
  await mongoose.connect(withDatabaseName(process.env.TEST_MONGO_URL!, name), {
    monitorCommands: true,
    autoIndex: false,
    autoCreate: false,
  });
}
