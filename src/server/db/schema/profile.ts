import { pgTable, text } from "drizzle-orm/pg-core";
import { ownerId } from "./auth.js";
import { timestamps } from "./columns.js";

export const profiles = pgTable("profile", {
  userId: ownerId().primaryKey(),
  address: text("address").notNull(),
  city: text("city").notNull(),
  phone: text("phone").notNull(),
  /** The company a customer books for, and its tax ID: prefilled on the booking form. */
  companyName: text("company_name").notNull().default(""),
  companyTaxId: text("company_tax_id").notNull().default(""),
  ...timestamps(),
});
