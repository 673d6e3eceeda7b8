/* eslint-disable @typescript-eslint/no-require-imports -- mingo's subpath exports are not visible to our module resolution (node10) */
import { dirname, join } from 'node:path';
import { Context, Query, type update } from 'mingo';

type Filter = Record<string, unknown>;
type Operators = Record<string, unknown>;

/** What we use of mingo's ComputeOptions (core/_internal.js): `init` given an instance shares its context. */
interface ComputeOptionsClass {
  init(options: { context: Context }): object;
}

/** mingo's core Query: the package entry's `Query` is a subclass whose constructor copies the operator tables. */
const { Query: CoreQuery } = require('mingo/query') as { Query: typeof Query };

/**
 * mingo's `new Query(filter)` (its package entry) copies every operator table, some 300 operators, into a new
 * context for each query: ~45 µs of the ~60 µs a query costs, and this server builds one for most commands
 * (7 % of its CPU under the benchmark's load). mingo's core Query given a ComputeOptions instance shares that
 * instance's context instead (~15 µs). ComputeOptions is not among the paths mingo's package exports, so it is
 * loaded from the file beside mingo/core's entry; if a mingo release moves it, queries are built the copying
 * way again (same results, only slower; the conformance suite passes either way).
 */
function sharedOptions(): object | undefined {
  try {
    const internal = require(join(dirname(require.resolve('mingo/core')), '_internal.js')) as { ComputeOptions?: ComputeOptionsClass };
    if (typeof internal.ComputeOptions?.init !== 'function') return undefined;
    const ops = (name: string) => require(`mingo/operators/${name}`) as Operators;
    const context = Context.init({
      accumulator: ops('accumulator'),
      expression: ops('expression'),
      pipeline: ops('pipeline'),
      projection: ops('projection'),
      query: ops('query'),
      window: ops('window'),
    } as Parameters<typeof Context.init>[0]);
    return internal.ComputeOptions.init({ context });
  } catch {
    return undefined;
  }
}

const SHARED = sharedOptions();

/** Whether queries share one context (false: mingo's layout changed and each query copies the tables). */
export const sharesContext = SHARED !== undefined;

/** A mingo Query for `filter` with every operator mingo has, as `new Query(filter)` from 'mingo' gives it. */
export function mingoQuery(filter: Filter): Query {
  return SHARED ? new CoreQuery(filter, SHARED) : new Query(filter);
}

/**
 * mingo's updater itself: the package entry's `update` first copies all of mingo's operator tables into a new
 * context; the updater alone builds the small one an update needs (query, comparison and boolean operators).
 */
export const mingoUpdate = (require('mingo/updater') as { update: typeof update }).update;
