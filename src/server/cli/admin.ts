// `npm run admin -- grant EMAIL`: sends EMAIL a link that gives its account role admin once followed
// (features/accounts/admin-link.ts: whoever owns the address proves it). `npm run admin -- revoke
// EMAIL`: takes the role back at once.
import { loadConfig } from "../config.js";
import { createDatabase } from "../db/client.js";
import { runMigrations, withSetupLock } from "../db/migrate.js";
import { ADMIN_LINK_HOURS, ENROL_NEXT, sendAdminLink } from "../features/accounts/admin-link.js";
import { accountByEmail } from "../features/accounts/service.js";
import { setRole } from "../features/users/service.js";
import { createMailer } from "../lib/mailer.js";
import { HttpProblem } from "../lib/problem.js";
import { connectionString } from "./database.js";

async function main() {
  const [command, email] = process.argv.slice(2);
  if ((command !== "grant" && command !== "revoke") || !email) {
    console.error("Usage: npm run admin -- grant EMAIL | revoke EMAIL");
    process.exit(2);
  }
  const config = loadConfig();
  const { url, embedded } = await connectionString(config);
  const database = createDatabase(url, { max: 2 });
  try {
    await withSetupLock(database, () => runMigrations(database));
    const account = await accountByEmail(database.db, email);
    if (!account) {
      console.error(`No account with the email ${email}.`);
      process.exitCode = 1;
    } else if (command === "revoke") {
      // The same rule as the admin screen: the last admin keeps the role.
      const user = await setRole(database.db, account.id, "user");
      console.log(`${user.email} now has role ${user.role}.`);
    } else if (account.role === "admin") {
      console.log(`${account.email} has role admin already.`);
    } else {
      const mailer = createMailer(config, (line) => console.log(line));
      await (await sendAdminLink(database.db, mailer, config, account)).mailed;
      console.log(
        `A link was sent to ${account.email}: the account gets role admin when its owner follows it (within ${ADMIN_LINK_HOURS} hours) and sets the password there.`,
      );
      if (config.adminSecondFactor === "required")
        console.log(`The link leads on to enrolment. ${ENROL_NEXT} (ADMIN_SECOND_FACTOR=required)`);
    }
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof HttpProblem ? error.detail : error instanceof Error ? error.message : error);
  process.exit(1);
});
