import { type AnyColumn, and, asc, eq, ilike, not, or, type SQL, sql } from "drizzle-orm";
import type { Category, Product, ProductList, ProductListQuery } from "../../../shared/catalog.js";
import { SEARCH_COUNT_LIMIT } from "../../../shared/constants.js";
import { catalogMessages } from "../../../shared/messages/catalog.js";
import type { Db, Tx } from "../../db/client.js";
import { categoryLexeme, products, searchWords } from "../../db/schema/index.js";
import { hasSqlState } from "../../db/sql-state.js";
import { ServiceUnavailable } from "../../lib/problem.js";
import { Gate, GateClosed, type GateLimits } from "./search-gate.js";
import { ORDERINGS, onSale, productColumns } from "./service.js";

/**
 * Catalog search: full text (English stems, GIN indexes) over the name, the category's words and the
 * description; misspelt words widened to the nearest real words of the catalog (trigram similarity
 * over search_word); and the search text as typed inside names (a trigram index on name), which
 * finds parts of words and model numbers too ("65%", "DDR5-60").
 *
 * Relevance sorts the matches into tiers, best first: the search text as typed in the name; every
 * word in the name or the category's words; every word anywhere (the description). Within a tier
 * the order is the product's id: random (UUIDv4), so stable, fair between brands, and spread evenly
 * over any set of products, which lets a broad tier ("keyboard" among 100,000 products) be read by
 * walking the primary key until the page is full, after a few dozen rows, instead of collecting and
 * sorting tens of thousands of matches. Counts stop at SEARCH_COUNT_LIMIT ("more than 1,000").
 *
 * Unique searches cannot be cached, so they are rationed: a few at a time (a share of the database
 * pool), a bounded line behind them, and a time limit on every statement, all answered with a 503.
 */

/** How many searches read the database at once, the line behind them, and their time limits. */
export interface SearchLimits extends GateLimits {
  /** How long one statement of a search may run before PostgreSQL cancels it. */
  statementTimeoutMs: number;
}

/** The catalog's searches may hold a quarter of the pool; the rest stays free for everything else. */
export function searchLimits(poolSize: number, overrides: Partial<SearchLimits> = {}): SearchLimits {
  const concurrency = Math.max(1, Math.floor(poolSize / 4));
  return {
    concurrency,
    queue: concurrency * 4,
    maxWaitMs: 2_000,
    statementTimeoutMs: 1_000,
    ...overrides,
  };
}

/** PostgreSQL's SQLSTATE for a statement cancelled, here by statement_timeout. */
const QUERY_CANCELED = "57014";
/** Retry-After of a refused search, in seconds. */
const RETRY_AFTER_SECONDS = 1;
/** Misspelt words are widened to at most this many real words each. */
const SIMILAR_WORDS = 3;
/** Shorter words are taken as they are: a trigram of two letters finds noise. */
const MIN_FUZZY_LENGTH = 3;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

interface SearchWord {
  word: string;
  similar: string[];
}

/**
 * The words of the search as the 'simple' configuration splits them (lower case, unstemmed), each
 * with the catalog's nearest words (trigram similarity) when it is not a word of the catalog
 * itself (search_word). Short words and stop words ("the") are taken as they are; a word kept
 * always stays beside its nearest ones, so "headphone" still finds what "headphones" does.
 */
async function wordsOf(tx: Tx, search: string): Promise<SearchWord[]> {
  const result = await tx.execute<{ word: string; similar: string[] }>(sql`
    select t.word,
      case when length(t.word) < ${MIN_FUZZY_LENGTH} or numnode(plainto_tsquery('english', t.word)) = 0
             or exists (select 1 from ${searchWords} s where s.word = t.word) then '{}'::text[]
        else array(select s.word from ${searchWords} s where s.word % t.word
                   order by similarity(s.word, t.word) desc, s.word limit ${SIMILAR_WORDS})
      end as similar
    from unnest(tsvector_to_array(to_tsvector('simple', ${search}))) as t(word)`);
  return result.rows;
}

/** Every word (or one of its similar words), stemmed as English; undefined without words. */
function wordsQuery(words: SearchWord[]): SQL | undefined {
  if (words.length === 0) return undefined;
  const each = words.map(({ word, similar }) =>
    sql.join(
      [word, ...similar].map((w) => sql`plainto_tsquery('english', ${w})`),
      sql` || `,
    ),
  );
  return sql.join(
    each.map((alternatives) => sql`(${alternatives})`),
    sql` && `,
  );
}

/**
 * Products counted together: `base` through one index, `split` (when given) telling its first tier
 * from its second as each row is counted, so one statement sizes both.
 */
interface Group {
  base: SQL;
  split?: SQL;
}

interface Matching {
  /** Everything the search finds. */
  all: SQL;
  /** The relevance tiers in groups, best first: disjoint, and together `all`. */
  groups: Group[];
}

/** The relevance tiers of the groups, best first. */
function tiersOf(groups: Group[]): SQL[] {
  return groups.flatMap(({ base, split }) =>
    split ? [and(base, split) as SQL, and(base, not(split)) as SQL] : [base],
  );
}

/**
 * What the search matches. "As typed" is the text inside the name for a single word (a part of a
 * word or a model number counts), and the words in that order in the name for several (as a
 * phrase: a long text inside names costs a trigram index dearly and finds nothing more).
 */
function matching(query: ProductListQuery, words: SearchWord[]): Matching {
  const { category } = query;
  const q = wordsQuery(words);
  // Within a category, the category's lexeme joins the words: the GIN index narrows to it.
  const inCategory = category ? sql` && ${`'${categoryLexeme(category)}'`}::tsquery` : sql``;
  const matches = (document: AnyColumn) => sql`${document} @@ ((${q})${inCategory})`;
  if (!/\s/.test(query.search)) {
    const pattern = ilike(products.name, `%${escapeLike(query.search)}%`);
    const typed = (category ? and(eq(products.category, category), pattern) : pattern) as SQL;
    if (!q) return { all: typed, groups: [{ base: typed }] };
    const anywhere = matches(products.searchVector);
    return {
      all: or(typed, anywhere) as SQL,
      // The title's words are in `anywhere` too.
      groups: [
        { base: typed },
        { base: and(anywhere, not(typed)) as SQL, split: matches(products.titleVector) },
      ],
    };
  }
  // Several words: every tier is inside `anywhere`, so `all` needs no second index.
  if (!q) return { all: sql`false`, groups: [] };
  const inTitle = matches(products.titleVector);
  const phrase = sql`${products.titleVector} @@ phraseto_tsquery('english', ${query.search})`;
  return {
    all: matches(products.searchVector),
    groups: [
      { base: inTitle, split: phrase },
      { base: and(matches(products.searchVector), not(inTitle)) as SQL },
    ],
  };
}

/**
 * How PostgreSQL may read a set of products. Its estimates of how many products a search word
 * matches are rough (a word missing from its statistics counts as 0.5 % of the catalog), and a
 * wrong guess is costly either way: walking an index in page order for a word that matches nothing
 * reads the whole catalog, and collecting every match of a broad word to sort them reads tens of
 * thousands of rows. The search counts first (through the GIN indexes), so it knows which it has:
 * at most SEARCH_COUNT_LIMIT products are collected through the GIN indexes ("bitmap"); more, at
 * least 1 % of a catalog of 100,000, are walked in page order ("ordered"), which stops as soon as
 * the page is full. Sequential scans of the catalog are never what a search wants.
 */
type Plan = "bitmap" | "ordered";

/** Sets the planner for the transaction's next statements (transaction-local, like SET LOCAL). */
function planSettings(plan: Plan): SQL {
  const ordered = plan === "ordered" ? "on" : "off";
  const bitmap = plan === "bitmap" ? "on" : "off";
  // Ordered means no sorting either: a page read by an index that is not in page order (the category's)
  // would read and sort the whole category.
  return sql`set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', ${bitmap}, true),
    set_config('enable_indexscan', ${ordered}, true), set_config('enable_indexonlyscan', ${ordered}, true),
    set_config('enable_sort', ${bitmap}, true)`;
}

/** Relevance within a tier (see the top of this file). */
const BY_ID = [asc(products.id)];
/**
 * How far along its order a large set is walked for a page sorted by name, price or date before it
 * is collected and sorted instead: matches gathered away from the start of that order (a brand, in
 * name order) are not found by walking.
 */
const WALK_LIMIT = 2_000;

/** What is known of a tier's size: exactly `n`, or at least `n` (counting stopped). */
interface TierSize {
  n: number;
  exact: boolean;
}

/** One search's reads, in its transaction, which starts on the "bitmap" plan. */
class SearchReader {
  private plan: Plan = "bitmap";
  private readonly tiers: SQL[];
  /** Each tier's size as counted so far. */
  private readonly sizes: TierSize[];

  constructor(
    private readonly tx: Tx,
    private readonly matching: Matching,
    private readonly category: Category | undefined,
  ) {
    this.tiers = tiersOf(matching.groups);
    this.sizes = this.tiers.map(() => ({ n: 0, exact: false }));
  }

  private async use(plan: Plan): Promise<void> {
    if (this.plan === plan) return;
    this.plan = plan;
    await this.tx.execute(sql`select ${planSettings(plan)}`);
  }

  /**
   * How many products match `base`, counting no further than `limit`, and how many of those
   * match `split` too.
   */
  async countUpTo(base: SQL, limit: number, split: SQL = sql`true`): Promise<{ n: number; first: number }> {
    await this.use("bitmap");
    const rows = this.tx
      .select({ first: sql<boolean>`${split}`.as("first") })
      .from(products)
      .where(base)
      .limit(limit)
      .as("matches");
    const [row] = await this.tx
      .select({
        n: sql<number>`count(*)::int`,
        first: sql<number>`count(*) filter (where ${rows.first})::int`,
      })
      .from(rows);
    return { n: row?.n ?? 0, first: row?.first ?? 0 };
  }

  /** A tier's size, exact up to SEARCH_COUNT_LIMIT, counted alone when the groups' count stopped short of it. */
  async tierSize(tier: number): Promise<TierSize> {
    const known = this.sizes[tier] as TierSize;
    if (known.exact || known.n > SEARCH_COUNT_LIMIT) return known;
    const { n } = await this.countUpTo(this.tiers[tier] as SQL, SEARCH_COUNT_LIMIT + 1);
    const size = { n, exact: n <= SEARCH_COUNT_LIMIT };
    this.sizes[tier] = size;
    return size;
  }

  /**
   * How many products match, exact up to SEARCH_COUNT_LIMIT: group after group, until the limit is
   * passed (the tiers of later groups are then counted alone if a page reaches them), or `all` at once.
   */
  async total(byTiers: boolean): Promise<{ total: number; totalExact: boolean }> {
    let counted = 0;
    if (byTiers) {
      let tier = 0;
      for (const { base, split } of this.matching.groups) {
        if (counted > SEARCH_COUNT_LIMIT) break;
        const limit = SEARCH_COUNT_LIMIT + 1 - counted;
        const { n, first } = await this.countUpTo(base, limit, split);
        const exact = n < limit;
        if (split) {
          this.sizes[tier++] = { n: first, exact };
          this.sizes[tier++] = { n: n - first, exact };
        } else this.sizes[tier++] = { n, exact };
        counted += n;
      }
    } else counted = (await this.countUpTo(this.matching.all, SEARCH_COUNT_LIMIT + 1)).n;
    return counted > SEARCH_COUNT_LIMIT
      ? { total: SEARCH_COUNT_LIMIT, totalExact: false }
      : { total: counted, totalExact: true };
  }

  private read(where: SQL, orderBy: SQL[], offset: number, limit: number): Promise<Product[]> {
    return this.tx
      .select(productColumns)
      .from(products)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);
  }

  /** A page of one relevance tier, which has `size` products (as counted). */
  async tierPage(where: SQL, size: number, offset: number, limit: number): Promise<Product[]> {
    await this.use(size > SEARCH_COUNT_LIMIT ? "ordered" : "bitmap");
    return this.read(where, BY_ID, offset, limit);
  }

  /** A page sorted by name, price or date of the `size` products (as counted) matching `where`. */
  async sortedPage(
    where: SQL,
    size: number,
    orderBy: SQL[],
    offset: number,
    limit: number,
  ): Promise<Product[]> {
    if (size > SEARCH_COUNT_LIMIT && offset + limit <= WALK_LIMIT) {
      await this.use("ordered");
      // On sale only, so the walk reads the storefront's partial indexes (migration 0017).
      const inCategory = this.category
        ? sql`where ${onSale} and ${eq(products.category, this.category)}`
        : sql`where ${onSale}`;
      const order = sql.join(orderBy, sql`, `);
      // The first rows in page order, under the table's own name, so `where` reads them. Raw SQL:
      // drizzle refuses columns of a table that is not part of the query. Each column under its
      // field's name (price_tiers as priceTiers), as drizzle's own reads answer them.
      const walked = await this.tx.execute<Product>(sql`
        select ${sql.join(
          Object.entries(productColumns).map(([field, column]) => sql`${column} as ${sql.identifier(field)}`),
          sql`, `,
        )}
        from (select * from ${products} ${inCategory} order by ${order} limit ${WALK_LIMIT}) as ${products}
        where ${where} order by ${order} limit ${limit} offset ${offset}`);
      if (walked.rows.length === limit) return walked.rows;
    }
    await this.use("bitmap");
    return this.read(where, orderBy, offset, limit);
  }

  /** One page by relevance: tier after tier, each read only as far as the page reaches. */
  async byRelevance(offset: number, limit: number): Promise<Product[]> {
    const items: Product[] = [];
    let skip = offset;
    for (const [tier, where] of this.tiers.entries()) {
      const wanted = limit - items.length;
      if (wanted === 0) break;
      const size = await this.tierSize(tier);
      // A tier counted to its end that ends before the page starts: step over it unread.
      if (size.exact && skip >= size.n) {
        skip -= size.n;
        continue;
      }
      const rows = await this.tierPage(where, size.n, skip, wanted);
      items.push(...rows);
      // The page starts in this tier: the next one is read from its start.
      if (rows.length > 0) skip = 0;
      // A large tier that ends before the page starts (at most `skip` products): step over it.
      else if (skip > 0) skip -= (await this.countUpTo(where, skip)).n;
    }
    return items;
  }
}

/** Only products on sale: an archived product is found by no search (migration 0017). */
function onSaleOnly({ all, groups }: Matching): Matching {
  return {
    all: and(onSale, all) as SQL,
    groups: groups.map(({ base, split }) => ({ base: and(onSale, base) as SQL, split })),
  };
}

async function readSearch(tx: Tx, query: ProductListQuery, statementTimeoutMs: number): Promise<ProductList> {
  // Transaction-local, so both end with it.
  await tx.execute(
    sql`select set_config('statement_timeout', ${String(statementTimeoutMs)}, true), ${planSettings("bitmap")}`,
  );
  const found = onSaleOnly(matching(query, await wordsOf(tx, query.search)));
  const reader = new SearchReader(tx, found, query.category);
  const byRelevance = query.sort === "relevance";
  const count = await reader.total(byRelevance);
  const offset = (query.page - 1) * query.pageSize;
  if (count.total === 0 || (count.totalExact && offset >= count.total)) return { items: [], ...count };
  const items = byRelevance
    ? await reader.byRelevance(offset, query.pageSize)
    : await reader.sortedPage(
        found.all,
        count.totalExact ? count.total : SEARCH_COUNT_LIMIT + 1,
        [...ORDERINGS[query.sort]],
        offset,
        query.pageSize,
      );
  return { items, ...count };
}

/** The catalog's searches, rationed (see SearchLimits). */
export class ProductSearch {
  private readonly gate: Gate;

  constructor(private readonly limits: SearchLimits) {
    this.gate = new Gate(limits);
  }

  /**
   * One page of the products matching `query.search`, read from `db` (the primary or a replica:
   * routes.ts, readCatalog); a 503 when refused or cut off.
   */
  async list(db: Db, query: ProductListQuery): Promise<ProductList> {
    try {
      return await this.gate.run(() =>
        // One snapshot for the count and the page.
        db.transaction((tx) => readSearch(tx, query, this.limits.statementTimeoutMs), {
          isolationLevel: "repeatable read",
          accessMode: "read only",
        }),
      );
    } catch (error) {
      if (error instanceof GateClosed) throw unavailable(catalogMessages.searchBusy, error);
      if (hasSqlState(error, QUERY_CANCELED)) throw unavailable(catalogMessages.searchTooLong, error);
      throw error;
    }
  }
}

function unavailable(detail: string, cause: unknown): ServiceUnavailable {
  const problem = new ServiceUnavailable(detail, RETRY_AFTER_SECONDS);
  problem.cause = cause;
  return problem;
}
