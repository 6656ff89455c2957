// Types of the store's database drivers, for the root benchmark (which loads the drivers from
// this package, where they are dependencies).
import type Database from 'better-sqlite3';
import type pg from 'pg';

export type BetterSqlite3Module = typeof Database;
export type PgModule = typeof pg;
