/**
 * Schema migrations, applied in order and recorded in `user_version`, so a journal written by an older
 * Perpetua opens with a newer one.
 */
import type Database from 'better-sqlite3';

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE runs (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     started_at INTEGER NOT NULL,
     ended_at INTEGER,
     exit_reason TEXT,
     config_hash TEXT NOT NULL,
     mode TEXT NOT NULL);
   CREATE TABLE intents (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     run_id INTEGER REFERENCES runs(id),
     ts INTEGER NOT NULL,
     kind TEXT NOT NULL,
     strategy_id TEXT,
     json TEXT NOT NULL);
   CREATE TABLE orders (
     client_order_id TEXT PRIMARY KEY,
     run_id INTEGER REFERENCES runs(id),
     symbol TEXT NOT NULL,
     strategy_id TEXT NOT NULL,
     status TEXT NOT NULL,
     venue_order_id TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     terminal INTEGER NOT NULL,
     json TEXT NOT NULL);
   CREATE INDEX orders_open ON orders(terminal, created_at);
   CREATE TABLE events (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     run_id INTEGER REFERENCES runs(id),
     ts INTEGER NOT NULL,
     type TEXT NOT NULL,
     client_order_id TEXT,
     json TEXT NOT NULL);
   CREATE TABLE fills (
     trade_id TEXT PRIMARY KEY,
     run_id INTEGER REFERENCES runs(id),
     client_order_id TEXT,
     symbol TEXT NOT NULL,
     time INTEGER NOT NULL,
     json TEXT NOT NULL);
   CREATE TABLE positions (
     symbol TEXT NOT NULL,
     leg TEXT NOT NULL,
     run_id INTEGER REFERENCES runs(id),
     updated_at INTEGER NOT NULL,
     json TEXT NOT NULL,
     PRIMARY KEY (symbol, leg));`,
];

export function migrate(db: Database.Database): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
