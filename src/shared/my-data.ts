/** Where Profile downloads the signed-in customer's data (GET /api/me/data): a ZIP of data.json and orders.csv. */
export const MY_DATA_PATH = "/api/me/data";

/** The file it downloads as, e.g. gearhouse-data-2026-11-27.zip (the day in UTC). */
export function myDataFilename(at: Date): string {
  return `gearhouse-data-${at.toISOString().slice(0, 10)}.zip`;
}
