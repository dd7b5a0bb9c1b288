/** What `perpetua import` can read into a record store (a backtest config names them too, so they live below both). */
export const IMPORT_KINDS = ['klines', 'mark', 'index', 'funding', 'trades', 'l2', 'records'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
