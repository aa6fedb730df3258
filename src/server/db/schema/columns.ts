import { timestamp } from "drizzle-orm/pg-core";

// Columns every table writes the same way. Each helper makes a new column each call: a column
// belongs to the one table it is declared in.

/** A moment, kept with its time zone (timestamptz), as every table keeps time. */
export const moment = (name: string) => timestamp(name, { withTimezone: true });

/** When the row was made: set by the database. */
export const createdAt = () => moment("created_at").notNull().defaultNow();

/** When the row was made and when it last changed (`updated_at`, set on each update by its writer). */
export const timestamps = () => ({
  createdAt: createdAt(),
  updatedAt: moment("updated_at").notNull().defaultNow(),
});
