import os from "node:os";

/** What a command-line run needs of a connection: one statement with parameters. */
interface Queryable {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/**
 * `npm run db:backup` notes its run in the activity log once the backup is written, on the
 * connection it read the snapshot with. No one is signed in to a command: the actor is the
 * operating system's user who ran it, by name, and the address the machine's name.
 */
export async function recordBackupRun(
  client: Queryable,
  backup: { file: string; rows: number; tables: number },
): Promise<void> {
  await client.query(
    `insert into activity_log (actor_email, action, target_type, target_id, changes, address)
     values ($1, 'backup.run', 'backup', $2, $3, $4)`,
    [
      `${os.userInfo().username} (command line)`,
      backup.file,
      JSON.stringify({ rows: [null, backup.rows], tables: [null, backup.tables] }),
      os.hostname(),
    ],
  );
}
