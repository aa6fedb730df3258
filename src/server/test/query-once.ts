import pg from "pg";

/** Runs one statement on a connection of its own to `url`, closed after it: for a test's look at a server. */
export async function queryOnce<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}
