/** The migrated, seeded database every test database is cloned from. */
export const TEMPLATE_DB = "gearhouse_template";
