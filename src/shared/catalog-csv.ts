import { z } from "zod";

/** The catalog's CSV import and export (features/catalog/csv-import.ts, csv-export.ts). */
export const CATALOG_CSV_COLUMNS = [
  "sku",
  "name",
  "category",
  "price",
  "quantity",
  "description",
  "threshold",
  "image",
  "price_tiers",
] as const;
/**
 * Columns an import may leave out: image (a new product needs it) and price_tiers (left out, a
 * product's volume prices stay as they are; files written before it import as they did).
 */
const CATALOG_CSV_OPTIONAL: readonly string[] = ["image", "price_tiers"];
/** Every column but the optional ones is required in an import's header. */
export const CATALOG_CSV_REQUIRED = CATALOG_CSV_COLUMNS.filter((c) => !CATALOG_CSV_OPTIONAL.includes(c));

/** Lines (products) one import may hold besides its header. */
export const IMPORT_MAX_LINES = 200_000;
/** Bytes one import may hold: a 100,000-line catalog with long descriptions is about 30 MB. */
export const IMPORT_MAX_MEGABYTES = 64;
/** Characters one line may hold (a description is at most 2,000). */
export const IMPORT_MAX_LINE_CHARS = 10_000;
/** Bad lines a report lists; it counts all of them. */
export const IMPORT_MAX_REPORTED = 100;

export const importQuerySchema = z.object({
  /** false (the default): a dry run that changes nothing; true: apply it. */
  apply: z
    .enum(["true", "false"])
    .optional()
    .default("false")
    .transform((v) => v === "true"),
});

export const importReportSchema = z.object({
  applied: z.boolean(),
  created: z.number().int(),
  changed: z.number().int(),
  unchanged: z.number().int(),
  /** Every bad line, counted; the first IMPORT_MAX_REPORTED listed in `errors`. */
  bad: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), reason: z.string() })),
});
export type ImportReport = z.infer<typeof importReportSchema>;
