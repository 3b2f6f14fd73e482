import { sql, type Kysely, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { getDatabase, getDb } from '../db/db.server.ts';
import { containsPattern, keysetBatches, readKeysetPage, type KeysetReader, type KeysetRow } from '../db/keyset-page.server.ts';
import { csvFileName, csvRow, csvStream } from './csv-export.server.ts';
import { recordAudit } from './audit.server.ts';
import type { StaffUser } from '../staff/auth.server.ts';
import type { AuditAction } from '../../lib/audit.ts';

// The dashboard's long lists (the inbox, the subscribers): each module declares its own table, who
// may read it, its views by status, the columns searched, the columns a page shows and those of its
// CSV; this one shape does the rest. Newest first, a page at a time by (created_at, id) in either
// direction (db/keyset-page.server.ts), searched and filtered alike, counted by status, and exported
// as CSV streamed a page at a time and audited once (csv-export.server.ts).

/** A table the dashboard lists: every row has an id, a creation time and a status. */
export type ListTable = {
  [T in keyof Database]: Selectable<Database[T]> extends KeysetRow & { status: string } ? T : never;
}[keyof Database];

type Row<T extends ListTable> = Selectable<Database[T]>;
type Status<T extends ListTable> = Row<T> extends { status: infer S extends string } ? S : never;

export interface ListSpec<T extends ListTable, View extends string, Column extends keyof Row<T> & string, Item> {
  table: T;
  /** Throws (a RuleError) when the staff member may not read the list; asked before every page and export. */
  authorise: (actor: StaffUser) => void;
  /** Every status a row can have: the counts hold each, none left out. */
  statuses: readonly Status<T>[];
  /** The views the address's `status` may name. */
  views: readonly View[];
  /** The view the list opens on, and what any other `status` reads as. */
  defaultView: View;
  /** The statuses a view shows; undefined for every row. */
  viewStatuses: (view: View) => readonly Status<T>[] | undefined;
  search: {
    /** The columns searched: a row matches when one of them contains the text. */
    columns: readonly (keyof Row<T> & string)[];
    /** The longest search kept; the rest is cut off. */
    max: number;
    /** The columns hold lower-case text only: the search is lower-cased too, and one LIKE serves both engines. */
    lowerCase?: boolean;
  };
  /**
   * A second filter on one column (the inbox's kind, issue 27): the address's `param` names one of
   * `values`; without it, or with another value, every row.
   */
  facet?: { param: string; column: keyof Row<T> & string; values: readonly string[] };
  /** Rows on a page unless the caller asks for another number (1 to 100). */
  pageSize: number;
  /** The columns a page reads (its id and creation time are always read). */
  columns: readonly Column[];
  toItem: (row: Pick<Row<T>, Column>) => Item;
  csv: {
    /** Names the file (`{name}-YYYY-MM-DD.csv`) and, in the log, an export that fails. */
    name: string;
    /** Each column of the file: its heading and its cell for a row. */
    columns: readonly (readonly [heading: string, cell: (row: Row<T>) => string | null])[];
    /** The audit log's action for an export. */
    audit: AuditAction;
  };
}

export interface ListFilter<View extends string> {
  view: View;
  /** Searched in the list's search columns, case-insensitively; '' for none. */
  q: string;
  /** The facet's value (one of its `values`), when the list has a facet and the address names one. */
  facet?: string;
}

export interface ListPage<Item> {
  items: Item[];
  /** Cursor of the page of older rows (`after`), if there is one. */
  older: string | null;
  /** Cursor of the page of newer rows (`before`), if there is one. */
  newer: string | null;
  /** Rows matching the filter, all pages. */
  total: number;
}

export interface ListQuery<View extends string> {
  filter: ListFilter<View>;
  /** The page older than this cursor. */
  after?: string | null;
  /** The page newer than this cursor (when there is no `after`). */
  before?: string | null;
  limit?: number;
}

export interface DashboardList<View extends string, ListStatus extends string, Item> {
  /** The filter as the list's address carries it: `status` (a view) and `q`, bounded. */
  filterFromParams(params: URLSearchParams): ListFilter<View>;
  /** One page of the list, newest first. */
  page(actor: StaffUser, query: ListQuery<View>): Promise<ListPage<Item>>;
  /** How many rows each status holds (of the facet's value, when given), for the filter's choices. */
  countByStatus(db?: Kysely<Database>, facet?: string): Promise<Record<ListStatus, number>>;
  /** How many rows each of the facet's values holds (empty without a facet). */
  countByFacet(db?: Kysely<Database>): Promise<Record<string, number>>;
  /** The CSV of the rows matching `filter`, newest first, in chunks of at most `pageSize` rows; the first holds the BOM and the header. */
  csv(filter: ListFilter<View>, pageSize?: number, counter?: { rows: number }): AsyncGenerator<string, void, undefined>;
  /**
   * The export as a byte stream that reads one page at a time as the client takes it. Audited when
   * the stream ends (or the client stops it) with the count, the view and whether it was searched;
   * the search text and the rows' words stay out of the log.
   */
  exportCsv(actor: StaffUser, filter: ListFilter<View>, ip: string | null): ReadableStream<Uint8Array>;
  /** The export's file name: {name}-YYYY-MM-DD.csv (the date in Uganda). */
  exportFileName(now?: Date): string;
}

/** Rows read from the database at a time while exporting. */
export const EXPORT_PAGE = 500;

/** The most rows a page may ask for. */
const PAGE_MAX = 100;

// The queries below serve every listed table, so they see each one as rows of an id, a creation time,
// a status and other columns; each spec was checked against its own table where it was declared.
type AnyListRow = KeysetRow & { status: string } & Record<string, unknown>;
type AnyListDatabase = Record<string, AnyListRow>;

function anyList(db: Kysely<Database>): Kysely<AnyListDatabase> {
  return db as unknown as Kysely<AnyListDatabase>;
}

/** Reads `query`'s rows as db/keyset-page.server.ts asks: past a key, by (created_at, id) in either order. */
function keysetReader<Row extends KeysetRow>(query: SelectQueryBuilder<AnyListDatabase, string, Row>): KeysetReader<Row> {
  return (key, order, limit) =>
    query
      .$if(key !== undefined, (q) => q.where(key!))
      .orderBy('created_at', order)
      .orderBy('id', order)
      .limit(limit)
      .execute();
}

/** The shared list and export for one table, as `spec` declares it. */
export function dashboardList<T extends ListTable, View extends string, Column extends keyof Row<T> & string, Item>(
  spec: ListSpec<T, View, Column, Item>,
): DashboardList<View, Status<T>, Item> {
  const pageColumns = [...new Set<string>(['id', 'created_at', ...spec.columns])];
  const isStatus = (value: string): value is Status<T> => (spec.statuses as readonly string[]).includes(value);

  const search = (q: string) => {
    const text = q.slice(0, spec.search.max).trim();
    return spec.search.lowerCase ? text.toLowerCase() : text;
  };

  /**
   * The rows matching the filter. Case-insensitive on both engines: PostgreSQL's ILIKE folds every
   * letter; SQLite's LIKE folds ASCII letters (its lower() would not fold others either). Lower-case
   * columns searched in lower case need only LIKE.
   */
  const matching = (filter: ListFilter<View>) => {
    const statuses = spec.viewStatuses(filter.view);
    const q = search(filter.q);
    const like = !spec.search.lowerCase && getDatabase().engine === 'postgres' ? sql.raw('ilike') : sql.raw('like');
    return anyList(getDb())
      .selectFrom(spec.table as string)
      .where((eb) => {
        const conditions = [];
        if (spec.facet && filter.facet !== undefined) conditions.push(eb(sql.ref<string>(spec.facet.column), '=', filter.facet));
        if (statuses) conditions.push(statuses.length === 1 ? eb('status', '=', statuses[0]!) : eb('status', 'in', statuses));
        if (q) {
          const pattern = containsPattern(q);
          conditions.push(
            eb.or(spec.search.columns.map((column) => sql<SqlBool>`${sql.ref(column)} ${like} ${pattern} escape '\\'`)),
          );
        }
        return eb.and(conditions);
      });
  };

  async function* csv(
    filter: ListFilter<View>,
    pageSize = EXPORT_PAGE,
    counter?: { rows: number },
  ): AsyncGenerator<string, void, undefined> {
    const read = keysetReader(matching(filter).selectAll().$castTo<AnyListRow>());
    yield `\uFEFF${csvRow(spec.csv.columns.map(([heading]) => heading))}`;
    for await (const rows of keysetBatches(read, pageSize)) {
      if (counter) counter.rows += rows.length;
      yield rows.map((row) => csvRow(spec.csv.columns.map(([, cell]) => cell(row as Row<T>)))).join('');
    }
  }

  return {
    filterFromParams(params) {
      const status = params.get('status');
      const view = spec.views.find((v) => v === status) ?? spec.defaultView;
      const facet = spec.facet ? spec.facet.values.find((v) => v === params.get(spec.facet!.param)) : undefined;
      return { view, q: search(params.get('q') ?? ''), ...(facet === undefined ? {} : { facet }) };
    },

    async page(actor, query) {
      spec.authorise(actor);
      const limit = Math.min(Math.max(query.limit ?? spec.pageSize, 1), PAGE_MAX);
      const base = matching(query.filter);
      const page = await readKeysetPage(
        keysetReader(base.select(pageColumns).$castTo<AnyListRow>()),
        async () => Number((await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n),
        { after: query.after, before: query.before, limit },
      );
      return {
        items: page.rows.map((row) => spec.toItem(row as Pick<Row<T>, Column>)),
        older: page.older,
        newer: page.newer,
        total: page.total,
      };
    },

    async countByStatus(db = getDb(), facet) {
      const rows = await anyList(db)
        .selectFrom(spec.table as string)
        .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
        .$if(!!spec.facet && facet !== undefined, (q) => q.where(sql.ref<string>(spec.facet!.column), '=', facet!))
        .groupBy('status')
        .execute();
      const counts = Object.fromEntries(spec.statuses.map((status) => [status, 0])) as Record<Status<T>, number>;
      for (const row of rows) if (isStatus(row.status)) counts[row.status] = Number(row.n);
      return counts;
    },

    async countByFacet(db = getDb()) {
      if (!spec.facet) return {};
      const column = spec.facet.column;
      const rows = await anyList(db)
        .selectFrom(spec.table as string)
        .select([sql.ref<string>(column).as('value'), (eb) => eb.fn.countAll<number | string>().as('n')])
        .groupBy(column)
        .execute();
      const counts: Record<string, number> = Object.fromEntries(spec.facet.values.map((value) => [value, 0]));
      for (const row of rows) if (spec.facet.values.includes(row.value)) counts[row.value] = Number(row.n);
      return counts;
    },

    csv,

    exportCsv(actor, filter, ip) {
      spec.authorise(actor);
      const counter = { rows: 0 };
      return csvStream(csv(filter, EXPORT_PAGE, counter), spec.csv.name, (complete) =>
        recordAudit({
          actor: actor.email,
          action: spec.csv.audit,
          target: null,
          ip,
          detail: {
            count: counter.rows,
            status: filter.view,
            ...(spec.facet && filter.facet !== undefined ? { [spec.facet.param]: filter.facet } : {}),
            searched: filter.q !== '',
            complete,
          },
        }),
      );
    },

    exportFileName(now = new Date()) {
      return csvFileName(spec.csv.name, now);
    },
  };
}
