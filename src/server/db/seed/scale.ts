import type pg from "pg";
import { CATEGORIES } from "../../../shared/constants.js";
import { CATALOG_CHANNEL, EVERYTHING } from "../../features/catalog/listener.js";
import { demoProducts } from "./demo-catalog.js";

/**
 * A real shop's volume, made inside PostgreSQL with set-based SQL (generate_series), so a million
 * orders take seconds rather than a million round trips. Used by `npm run seed:scale` and the
 * scale benchmark; tests run it only with small counts.
 */
export interface ScaleCounts {
  users: number;
  products: number;
  orders: number;
  reviews: number;
}

export const DEFAULT_SCALE: ScaleCounts = {
  users: 100_000,
  products: 100_000,
  orders: 1_000_000,
  reviews: 200_000,
};

const FIRST_NAMES = [
  "Ava",
  "Liam",
  "Noah",
  "Emma",
  "Olivia",
  "Mateo",
  "Sofia",
  "Lucas",
  "Mia",
  "Ethan",
  "Amara",
  "Kenji",
  "Priya",
  "Diego",
  "Chloe",
  "Omar",
  "Hana",
  "Lars",
  "Ines",
  "Tariq",
  "Zoe",
  "Felix",
  "Maya",
  "Jonas",
  "Aisha",
  "Leo",
  "Nora",
  "Ravi",
  "Elena",
  "Kai",
  "Sara",
  "Milan",
  "Yara",
  "Hugo",
  "Lina",
  "Arjun",
];
const LAST_NAMES = [
  "Smith",
  "Garcia",
  "Nguyen",
  "Müller",
  "Rossi",
  "Kowalski",
  "Tanaka",
  "Okafor",
  "Silva",
  "Johansson",
  "Dubois",
  "Khan",
  "Novak",
  "Haddad",
  "Fischer",
  "Moreau",
  "Kim",
  "Santos",
  "Petrov",
  "Larsen",
  "Ali",
  "Costa",
  "Weber",
  "Ivanova",
  "Brown",
  "Lopez",
  "Sato",
  "Mensah",
  "Berg",
  "Jensen",
  "Ortiz",
  "Park",
];
const STREETS = [
  "Maple Street",
  "Harbour Road",
  "Station Avenue",
  "Kingsway",
  "Elm Court",
  "Mill Lane",
  "Park Row",
  "Riverside Drive",
  "Church Street",
  "Orchard Way",
  "Bridge Road",
  "Hillcrest Avenue",
];
const CITIES = [
  "Austin",
  "Berlin",
  "Toronto",
  "Lyon",
  "Osaka",
  "Melbourne",
  "Dublin",
  "Lisbon",
  "Seattle",
  "Warsaw",
  "Oslo",
  "Denver",
  "Porto",
  "Leeds",
  "Utrecht",
  "Gothenburg",
];
const MODELS = [
  "Vortex",
  "Kestrel",
  "Nova",
  "Titan",
  "Pulse",
  "Drift",
  "Anvil",
  "Quiver",
  "Echo",
  "Aether",
  "Sonata",
  "Bolt",
  "Fluxline",
  "Prism",
  "Stealth",
  "Cyclone",
  "Gale",
  "Typhoon",
  "Whisper",
  "Falcon",
  "Raptor",
  "Helix",
  "Onyx",
  "Zephyr",
];
const EDITIONS = ["Pro", "Lite", "X", "Elite", "Air", "Max", "SE", "Mini", "Ultra", "Core"];
/** Per category, in CATEGORIES' order: what a product of it is called. */
const KINDS: Record<(typeof CATEGORIES)[number], string[]> = {
  keyboards: [
    "Mechanical Keyboard",
    "Wireless Mechanical Keyboard",
    "TKL RGB Keyboard",
    "Compact 60% Keyboard",
    "Optical Gaming Keyboard",
    "Low-Profile Keyboard",
  ],
  mice: [
    "Gaming Mouse",
    "Wireless Gaming Mouse",
    "Ergonomic Mouse",
    "Ambidextrous Mouse",
    "MMO Mouse",
    "Lightweight Mouse",
  ],
  memory: [
    "DDR5 6000 32GB Kit",
    "DDR5 7200 48GB Kit",
    "DDR4 3200 16GB Kit",
    "DDR4 3600 32GB RGB Kit",
    "DDR5 5600 64GB Kit",
  ],
  headphones: [
    "Gaming Headset",
    "Wireless Headphones",
    "Open-Back Headphones",
    "7.1 Surround Headset",
    "Stereo Headset",
    "Noise-Cancelling Headphones",
  ],
  "cooling-fans": [
    "120 ARGB PWM Fan",
    "140 ARGB PWM Fan",
    "120 Silent Fan",
    "High Static Pressure Fan",
    "140 Silent Fan",
  ],
};
const COMMENTS = [
  "Arrived quickly and works exactly as described.",
  "Great value for a bulk order, the whole team uses them now.",
  "Build quality is excellent; the RGB is bright without being tacky.",
  "Good, but the software took a while to figure out.",
  "Quiet, solid and easy to install. Would order again.",
  "Packaging was damaged but support replaced two units fast.",
  "Exactly what our esports club needed for the new room.",
  "Comfortable for long sessions; the cable could be longer.",
  "Stock was accurate and shipping was on time.",
  "Not bad, but I expected more for the price.",
];
const CARD_BRANDS = ["visa", "mastercard", "amex", "discover"];

/** A SQL array literal of text values (the lists above hold no quotes of their own). */
const textArray = (values: readonly string[]) =>
  `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(",")}]::text[]`;
/** `array[...]` indexed by an integer expression, wrapping around. */
const pick = (values: readonly string[], index: string) =>
  `(${textArray(values)})[1 + ((${index}) % ${values.length})]`;

export interface ScaleStep {
  name: string;
  rows: number;
  ms: number;
}

/**
 * Adds `counts` users, products, orders (with their payments) and reviews to the database the
 * client is connected to, beside whatever is there. Orders and reviews go to the users and products
 * made here. Returns the time each step took.
 */
export async function seedScale(client: pg.ClientBase, counts: ScaleCounts): Promise<ScaleStep[]> {
  const steps: ScaleStep[] = [];
  const step = async (name: string, text: string, params: unknown[] = []) => {
    const started = performance.now();
    const result = await client.query(text, params);
    steps.push({ name, rows: result.rowCount ?? 0, ms: Math.round(performance.now() - started) });
  };

  // Statements here take seconds to minutes; nothing needs to wait for the disk at each commit
  // (a crash mid-seed loses only seed data).
  await client.query("set statement_timeout = 0");
  await client.query("set synchronous_commit = off");
  // The VACUUM at the end merges the trigram indexes' pending lists with this much memory at once.
  await client.query("set maintenance_work_mem = '256MB'");
  // History, not news: the orders added here queue no mails (the trigger order_mails, migration 0012).
  await client.query("set gearhouse.quiet_mail = 'on'");
  const ginLimits = await liftGinPendingLimits(client);
  try {
    await addRows(client, counts, step);
    // VACUUM of the tables with GIN indexes, as autovacuum would soon after: it moves the rows just
    // added from the trigram indexes' pending lists (GIN's fast update) into the indexes proper,
    // which every search would otherwise read through, and marks the pages all-visible for
    // index-only counts. A shop that took these orders one by one would be in this state; measured
    // straight after a seed without it, an order search took 340 ms at 1,000,000 orders instead of
    // 38 ms (docs/decisions/order-lists.md).
    await step("vacuum", `vacuum (analyze) "user", product, "order"`);
  } finally {
    await restoreGinPendingLimits(client, ginLimits);
  }
  // The tables without GIN indexes too: otherwise autovacuum comes for their new rows minutes later
  // (PostgreSQL vacuums after many inserts), in the middle of whatever the shop is doing then.
  await step("vacuum rest", "vacuum (analyze) payment, refund, review");
  // Every running instance drops its cached catalog answers.
  await client.query("select pg_notify($1, $2)", [CATALOG_CHANNEL, EVERYTHING]);
  return steps;
}

/** The GIN indexes of the tables the seed fills, and the pending list limit each had. */
const SEEDED_TABLES = ["user", "product", "order"];
type GinLimits = { index: string; limit: string | null }[];

/**
 * A shop's GIN indexes keep a pending list of 128 kB (migration 0007), merged about every thousand
 * rows, one merge at a time: a million orders took 191 s that way, against 93 s with the rows left in
 * the pending list and merged by the VACUUM at the end in one pass (8 s for users, products and orders).
 * So while the seed adds its rows the limit is lifted, and put back after, whatever happens.
 */
async function liftGinPendingLimits(client: pg.ClientBase): Promise<GinLimits> {
  const { rows } = await client.query<{ index: string; limit: string | null }>(
    `select quote_ident(i.relname) as index,
            (select split_part(o, '=', 2) from unnest(i.reloptions) o where o like 'gin_pending_list_limit=%') as limit
     from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
     join pg_am am on am.oid = i.relam join pg_namespace n on n.oid = t.relnamespace
     where am.amname = 'gin' and n.nspname = current_schema() and t.relname = any($1)`,
    [SEEDED_TABLES],
  );
  for (const { index } of rows)
    await client.query(`alter index ${index} set (gin_pending_list_limit = 1048576)`);
  return rows;
}

async function restoreGinPendingLimits(client: pg.ClientBase, limits: GinLimits): Promise<void> {
  for (const { index, limit } of limits)
    await client.query(
      limit === null
        ? `alter index ${index} reset (gin_pending_list_limit)`
        : `alter index ${index} set (gin_pending_list_limit = ${Number(limit)})`,
    );
}

async function addRows(
  client: pg.ClientBase,
  counts: ScaleCounts,
  step: (name: string, text: string, params?: unknown[]) => Promise<void>,
): Promise<void> {
  const tag = Date.now().toString(36);
  /** Varies the hashes below from one run to the next. */
  const seed = Math.floor(Math.random() * 1_000_000_000);
  /**
   * A pseudo-random number in [0, 1) for row `g` and stream `k`, from a hash rather than random():
   * PostgreSQL may evaluate an expression of a subquery more than once (where it pulls the
   * subquery up into a join), and random() would then give one row two different values.
   */
  const rnd = (k: number, g = "g") => `((abs(hashint4extended(${g}, ${seed + k})) % 1000000) / 1000000.0)`;
  /** A whole number in [0, n) for row `g` and stream `k`. */
  const below = (n: string, k: number, g = "g") => `floor(${rnd(k, g)} * ${n})::int`;
  /** Spread over the last two years. */
  const someTimeAgo = (k: number, g = "g") => `now() - ${rnd(k, g)} * interval '730 days'`;

  // What orders and reviews pick from, numbered: the users and products this run makes.
  await client.query("drop table if exists scale_user, scale_product");
  await client.query("create temp table scale_user (rn serial primary key, id text, name text, email text)");
  await client.query(
    "create temp table scale_product (rn serial primary key, id uuid, name text, image text, price int)",
  );

  await step(
    "users",
    `with made as (
       insert into "user" (id, name, email, email_verified, phone, role, created_at, updated_at)
       select gen_random_uuid()::text, first || ' ' || last,
              translate(lower(first || '.' || last), 'ü', 'u') || '.' || g || '.' || $2 || '@example.com',
              true, '+1 555 ' || lpad((g % 10000)::text, 4, '0'),
              (case when g % 20000 = 0 then 'admin' else 'user' end)::role, at, at
       from (select g, ${pick(FIRST_NAMES, below("1000003", 1))} as first,
                    ${pick(LAST_NAMES, below("1000003", 2))} as last, ${someTimeAgo(3)} as at
             from generate_series(1, $1::int) g) s
       returning id, name, email)
     insert into scale_user (id, name, email) select id, name, email from made`,
    [counts.users, tag],
  );

  const categories = textArray(CATEGORIES);
  const kindCase = CATEGORIES.map(
    (category, i) => `when ${i} then ${pick(KINDS[category], below("1000003", 10))}`,
  ).join(" ");
  const images = CATEGORIES.map((category, i) => {
    const list = demoProducts.filter((p) => p.category === category).map((p) => p.image);
    return `when ${i} then ${pick(list, below("1000003", 11))}`;
  }).join(" ");
  await step(
    "products",
    `with made as (
       insert into product (name, description, image, price, quantity, category, created_at, updated_at)
       select model || ' ' || edition || ' ' || kind || ' ' || (1000 + g % 9000),
              'The ' || model || ' ' || edition || ' ' || lower(kind) || ' for gamers and system builders: ' ||
                'tested for long sessions, backed by a two-year warranty, sold in bulk from 10 units.',
              image, 10 + ${below("590", 12)}, ${below("5001", 13)}, (${categories})[1 + c]::category, at, at
       from (select g, g % 5 as c, ${pick(MODELS, below("1000003", 14))} as model,
                    ${pick(EDITIONS, below("1000003", 15))} as edition,
                    case g % 5 ${kindCase} end as kind, case g % 5 ${images} end as image, ${someTimeAgo(16)} as at
             from generate_series(1, $1::int) g) s
       returning id, name, image, price)
     insert into scale_product (id, name, image, price) select id, name, image, price from made`,
    [counts.products],
  );
  await client.query("analyze scale_user");
  await client.query("analyze scale_product");

  // Statuses, as the order lifecycle leaves them (features/orders/lifecycle.ts) with the default
  // hold of a day: 2% unpaid and booked within the last 23 hours (holding until a day after), 18%
  // unpaid and expired a day after booking, a quarter paid, 3% paid then refunded, the rest shipped.
  // Payment comes within 23 hours of booking, before the hold ran out. Quantities mostly small.
  const r = rnd(26);
  const status = `case when ${r} < 0.02 then 'pending' when ${r} < 0.2 then 'expired' when ${r} < 0.45 then 'paid'
                       when ${r} < 0.48 then 'refunded' else 'shipped' end`;
  const at = `case when ${r} < 0.02 then now() - ${rnd(28)} * interval '23 hours'
                   when ${r} < 0.2 then least(${someTimeAgo(27)}, now() - interval '25 hours')
                   else ${someTimeAgo(27)} end`;
  await step(
    "orders",
    `insert into "order" (user_id, product_id, product_name, img, name, email, address, phone, quantity,
                          unit_price, total_price, net_cents, gross_cents, status, transaction_id, paid_at, shipped_at,
                          expires_at, expired_at, refunded_at, created_at)
     select u.id, p.id, p.name, p.image, u.name, u.email,
            (1 + s.g % 240) || ' ' || ${pick(STREETS, below("1000003", 20, "s.g"))} || ', ' ||
              ${pick(CITIES, below("1000003", 21, "s.g"))},
            '+1 555 ' || lpad((s.g % 10000)::text, 4, '0'),
            s.quantity, p.price, p.price * s.quantity, p.price * s.quantity * 100, p.price * s.quantity * 100,
            s.status::order_status,
            case when s.paid then 'pi_scale_' || $2 || '_' || s.g end,
            s.paid_at,
            case when s.status = 'shipped' then least(now(), s.at + interval '1 hour' * (48 + s.g % 120)) end,
            s.at + interval '24 hours',
            case when s.status = 'expired' then s.at + interval '24 hours' end,
            case when s.status = 'refunded' then least(now(), s.paid_at + interval '1 hour' * (1 + s.g % 72)) end,
            s.at
     from (select t.*, t.status not in ('pending', 'expired') as paid,
                  case when t.status not in ('pending', 'expired')
                       then least(now(), t.at + interval '1 minute' * (5 + t.g % 1380)) end as paid_at
           from (select g, 1 + ${below("$3", 22)} as ur, 1 + ${below("$4", 23)} as pr,
                        10 + floor(${rnd(24)} * ${rnd(25)} * 91)::int as quantity,
                        ${status} as status, ${at} as at
                 from generate_series(1, $1::int) g) t) s
     join scale_user u on u.rn = s.ur
     join scale_product p on p.rn = s.pr`,
    [counts.orders, tag, counts.users, counts.products],
  );

  await step(
    "payments",
    `insert into payment (order_id, provider, intent_id, amount, currency, card_brand, card_last4, created_at)
     select id, 'sandbox', transaction_id, gross_cents, 'usd',
            ${pick(CARD_BRANDS, "abs(hashtext(transaction_id))")},
            lpad((abs(hashtext(id::text)) % 10000)::text, 4, '0'), paid_at
     from "order" where transaction_id like 'pi_scale_' || $1 || '_%'`,
    [tag],
  );

  // The refunded orders' refunds, as an admin's refund through the provider records them.
  await step(
    "refunds",
    `insert into refund (order_id, intent_id, provider_refund_id, amount, reason, created_at)
     select id, transaction_id, 're_scale_' || substr(transaction_id, 10), gross_cents, 'admin', refunded_at
     from "order" where status = 'refunded' and transaction_id like 'pi_scale_' || $1 || '_%'`,
    [tag],
  );

  await step(
    "reviews",
    `insert into review (user_id, name, comment, rating, created_at)
     select u.id, u.name, ${pick(COMMENTS, below("1000003", 30, "s.g"))},
            case when s.r < 0.45 then 5 when s.r < 0.75 then 4 when s.r < 0.87 then 3 when s.r < 0.94 then 2 else 1 end,
            s.at
     from (select g, ${rnd(31)} as r, 1 + ${below("$2", 32)} as ur, ${someTimeAgo(33)} as at
           from generate_series(1, $1::int) g) s
     join scale_user u on u.rn = s.ur`,
    [counts.reviews, counts.users],
  );

  await client.query("drop table scale_user, scale_product");
}
