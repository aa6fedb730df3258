import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type {
  DiscountCode,
  DiscountCodeDetail,
  DiscountCodePage,
  DiscountCodeState,
  DiscountCodeValues,
  TaxSettings,
} from "../../../shared/discounts.js";
import { discountMessages as m } from "../../../shared/messages/discounts.js";
import type { Db, Tx } from "../../db/client.js";
import {
  discountCodes,
  discountCodeUses,
  orders,
  products,
  shopSettings,
  users,
} from "../../db/schema/index.js";
import { violatesUnique } from "../../db/sql-state.js";
import { countedPage, cursorAt, decodePosition, keysetPage } from "../../lib/keyset.js";
import { boundedCount, UUID_ID } from "../../lib/paging.js";
import { badRequest, conflict, notFound } from "../../lib/problem.js";
import { type Actor, changesOf, recordActivity } from "../activity/index.js";

/**
 * Discount codes and the tax settings, the admin side (docs/product.md, "Discount codes and tax
 * settings"). The booking checks and counts a code's uses in SQL (check_discount_code and
 * book_order, migration 0024); here admins make codes, read their uses and end them, and set the
 * one tax rate the next bookings take.
 */

const d = discountCodes;

/** What a code is now: ended by an admin, past its end, not yet started, used up, or active. */
const stateOf = sql<DiscountCodeState>`case
  when ${d.endedAt} is not null then 'ended'
  when ${d.endsAt} <= now() then 'expired'
  when ${d.startsAt} > now() then 'scheduled'
  when ${d.maxUses} is not null and ${d.uses} >= ${d.maxUses} then 'used-up'
  else 'active' end`;

const codeColumns = {
  id: d.id,
  code: d.code,
  kind: d.kind,
  value: d.value,
  startsAt: d.startsAt,
  endsAt: d.endsAt,
  minQuantity: d.minQuantity,
  productIds: d.productIds,
  categories: d.categories,
  maxUses: d.maxUses,
  maxUsesPerCustomer: d.maxUsesPerCustomer,
  uses: d.uses,
  endedAt: d.endedAt,
  createdAt: d.createdAt,
  createdBy: sql<string | null>`(select ${users.email} from ${users} where ${users.id} = ${d.createdBy})`,
  state: stateOf,
};

/** A row of codeColumns, as Drizzle reads it. */
type CodeRow = Awaited<ReturnType<typeof selectCodes>>[number];
const selectCodes = (db: Db | Tx) => db.select(codeColumns).from(d);

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * The codes as the admin sees them, each product named as it is called today: one look-up by
 * primary key for the page's products (25 codes of at most 100 each).
 */
async function viewsOf(db: Db | Tx, rows: CodeRow[]): Promise<DiscountCode[]> {
  const ids = [...new Set(rows.flatMap((row) => row.productIds))];
  const named =
    ids.length === 0
      ? []
      : await db
          .select({ id: products.id, name: products.name })
          .from(products)
          .where(inArray(products.id, ids));
  const names = new Map(named.map((p) => [p.id, p.name]));
  return rows.map((row) => ({
    ...row,
    startsAt: row.startsAt.toISOString(),
    endsAt: iso(row.endsAt),
    endedAt: iso(row.endedAt),
    createdAt: row.createdAt.toISOString(),
    products: row.productIds.flatMap((id) => {
      const name = names.get(id);
      return name === undefined ? [] : [{ id, name }];
    }),
  }));
}

async function codeById(db: Db | Tx, id: string): Promise<DiscountCode> {
  const [row] = await selectCodes(db).where(eq(d.id, id));
  if (!row) throw notFound(m.notFound);
  const [view] = await viewsOf(db, [row]);
  if (!view) throw notFound(m.notFound);
  return view;
}

/** A page of the codes, newest first, by keyset on discount_code_created_idx; a forged cursor is a 400. */
export async function listCodes(
  db: Db,
  query: { cursor?: string | undefined; limit: number },
): Promise<DiscountCodePage> {
  const position = decodePosition({ cursor: query.cursor }, UUID_ID);
  const [page, total] = await countedPage(db, d, codeColumns, undefined, position, query.limit);
  const items = await viewsOf(
    db,
    page.rows.map(({ cursorAt: _, ...row }) => row),
  );
  return { items, nextCursor: page.nextCursor, total };
}

/**
 * Makes a code: its products must exist (400 under `productIds`), its end be after its start (or
 * now, when it starts now), and its code be free (409). On the activity log with what it gives.
 */
export async function createCode(
  db: Db,
  adminId: string,
  input: DiscountCodeValues,
  actor: Actor,
): Promise<DiscountCode> {
  const productIds = input.productIds ?? [];
  const categories = input.categories ?? [];
  const startsAt = input.startsAt ? new Date(input.startsAt) : null;
  const endsAt = input.endsAt ? new Date(input.endsAt) : null;
  if (endsAt && !startsAt && endsAt.getTime() <= Date.now())
    throw badRequest(m.endPassed, [{ path: "endsAt", message: m.endPassed }]);
  return db.transaction(async (tx) => {
    if (productIds.length > 0) {
      const found = await tx
        .select({ id: products.id })
        .from(products)
        .where(inArray(products.id, productIds));
      if (found.length !== productIds.length)
        throw badRequest(m.productsUnknown, [{ path: "productIds", message: m.productsUnknown }]);
    }
    const values = {
      code: input.code,
      kind: input.kind,
      value: input.value,
      ...(startsAt ? { startsAt } : {}),
      endsAt,
      minQuantity: input.minQuantity ?? 1,
      productIds,
      categories,
      maxUses: input.maxUses ?? null,
      maxUsesPerCustomer: input.maxUsesPerCustomer ?? null,
      createdBy: adminId,
    };
    // A code taken, even by a concurrent create, is the unique index's refusal: a 409.
    const [row] = await tx
      .insert(d)
      .values(values)
      .returning({ id: d.id })
      .catch((error: unknown) => {
        if (violatesUnique(error, "discount_code_code")) throw conflict(m.taken(input.code));
        throw error;
      });
    if (!row) throw new Error("discount code insert returned nothing");
    const code = await codeById(tx, row.id);
    const { createdBy: _, ...logged } = values;
    await recordActivity(tx, actor, {
      action: "discount_code.created",
      targetType: "discount_code",
      targetId: row.id,
      changes: changesOf<Record<string, unknown>>(null, {
        ...logged,
        startsAt: code.startsAt,
        endsAt: code.endsAt,
      }),
    });
    return code;
  });
}

/**
 * A code and a page of its uses: the orders holding one, newest first, by keyset on
 * discount_code_use_code_idx (code_id, created_at, order_id). A freed use (its order removed or
 * expired) is gone from the list, as from the count.
 */
export async function codeDetail(
  db: Db,
  id: string,
  query: { cursor?: string | undefined; limit: number },
): Promise<DiscountCodeDetail> {
  const position = decodePosition({ cursor: query.cursor }, UUID_ID);
  const u = discountCodeUses;
  const key = { createdAt: u.createdAt, id: u.orderId };
  const ofCode = eq(u.codeId, id);
  const [code, page, total] = await Promise.all([
    codeById(db, id),
    keysetPage(key, position, query.limit, (window, take) =>
      db
        .select({
          id: u.orderId,
          cursorAt: cursorAt(key),
          at: u.createdAt,
          email: orders.email,
          discountCents: orders.discountCents,
          grossCents: orders.grossCents,
          status: orders.status,
        })
        .from(u)
        .innerJoin(orders, eq(orders.id, u.orderId))
        .where(and(ofCode, window.where))
        .orderBy(...window.orderBy)
        .limit(take),
    ),
    boundedCount(db, sql`from ${u} where ${ofCode}`),
  ]);
  const items = page.rows.map(({ id: orderId, cursorAt: _, at, ...row }) => ({
    orderId,
    at: at.toISOString(),
    ...row,
  }));
  return { code, items, nextCursor: page.nextCursor, total };
}

/**
 * Ends a code now: no booking takes it from then on (check_discount_code); the orders that hold a
 * use keep their discount. Ending an ended code changes nothing and logs nothing.
 */
export async function endCode(db: Db, id: string, actor: Actor): Promise<DiscountCode> {
  return db.transaction(async (tx) => {
    const [ended] = await tx
      .update(d)
      .set({ endedAt: sql`now()` })
      .where(and(eq(d.id, id), isNull(d.endedAt)))
      .returning({ code: d.code, endedAt: d.endedAt });
    if (ended) {
      await recordActivity(tx, actor, {
        action: "discount_code.ended",
        targetType: "discount_code",
        targetId: id,
        changes: { endedAt: [null, iso(ended.endedAt)], code: [ended.code, ended.code] },
      });
    }
    return codeById(tx, id);
  });
}

const taxColumns = {
  taxRateBp: shopSettings.taxRateBp,
  pricesIncludeTax: shopSettings.pricesIncludeTax,
  taxId: shopSettings.taxId,
  updatedAt: shopSettings.updatedAt,
};

const taxView = (row: { taxRateBp: number; pricesIncludeTax: boolean; taxId: string; updatedAt: Date }) => ({
  ...row,
  updatedAt: row.updatedAt.toISOString(),
});

/** The shop's one row of settings (migration 0024 writes it; it is never removed). */
export async function getTaxSettings(db: Db | Tx): Promise<TaxSettings> {
  const [row] = await db.select(taxColumns).from(shopSettings).where(eq(shopSettings.one, true));
  if (!row) throw new Error("shop_settings has no row");
  return taxView(row);
}

/**
 * Sets the tax rate, whether prices include it and the shop's tax ID. Bookings read the row as
 * they book (book_order), so the change applies to the orders booked after it commits; an order
 * keeps what it was booked with. Locked while it is read, so the log's "before" is what it was.
 * Saving what is there changes nothing and logs nothing.
 */
export async function setTaxSettings(
  db: Db,
  input: { taxRateBp: number; pricesIncludeTax: boolean; taxId: string },
  actor: Actor,
): Promise<TaxSettings> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select(taxColumns)
      .from(shopSettings)
      .where(eq(shopSettings.one, true))
      .for("update");
    if (!before) throw new Error("shop_settings has no row");
    const changes = changesOf<Record<string, unknown>>(before, input, [
      "taxRateBp",
      "pricesIncludeTax",
      "taxId",
    ]);
    if (Object.keys(changes).length === 0) return taxView(before);
    const [after] = await tx
      .update(shopSettings)
      .set({ ...input, updatedAt: sql`now()` })
      .where(eq(shopSettings.one, true))
      .returning(taxColumns);
    if (!after) throw new Error("shop_settings has no row");
    await recordActivity(tx, actor, { action: "settings.tax_changed", changes });
    return taxView(after);
  });
}
