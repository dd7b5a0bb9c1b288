/**
 * The run's words on the console: the start-up banner, the status line and the exit summary. Pure
 * text from the runtime's status values, so the same numbers appear in the log file (as JSON) and on
 * the screen.
 */
import type { Decimal } from '../../core/decimal.js';
import type { RunSummary, RuntimeStatus, StrategyStatus } from '../../runtime/runtime-status.js';
import type { StartInfo } from '../../runtime/startup-sequence.js';
import type { StrategyCounters } from '../../runtime/run-stats.js';

const signed = (d: Decimal, dp = 2): string => `${d.lt(0) ? '' : '+'}${d.toFixed(dp)}`;
const qty = (d: Decimal): string => `${d.lt(0) ? '' : '+'}${d.toFixed()}`;

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(sec).padStart(2, '0')}s` : `${sec}s`;
}

function pnl(s: StrategyStatus): string {
  const u = s.unrealizedPnl;
  const total = u ? s.realizedPnl.plus(u) : undefined;
  return total ? signed(total) : `${signed(s.realizedPnl)}+?`;
}

function positions(s: StrategyStatus): string {
  if (s.positions.length === 0) return 'flat';
  return s.positions.map((p) => `${qty(p.quantity)} ${p.symbol}${p.leg === 'net' ? '' : ` ${p.leg}`}`).join(', ');
}

function counters(c: StrategyCounters): string {
  return `placed ${c.placed} filled ${c.fills} amended ${c.amends} cancelled ${c.cancels} rejects ${c.rejects} denied ${c.denials}`;
}

/** `buy 0.001@87466.41 sell 0.001@87500` — at most `max` orders, then how many more. */
function openOrders(x: StrategyStatus, max = 4): string {
  if (x.orders.length === 0) return 'none';
  const shown = x.orders
    .slice(0, max)
    .map((o) => `${o.side} ${o.quantity ? o.quantity.toFixed() : '?'}@${o.price ? o.price.toFixed() : 'mkt'}`);
  return `${shown.join(' ')}${x.orders.length > max ? ` +${x.orders.length - max}` : ''}`;
}

/** ` twap buy 4/10` per working execution algorithm (filled / quantity). */
function workingAlgos(x: StrategyStatus): string {
  return x.algos
    .filter((a) => a.state === 'working')
    .map((a) => ` ${a.algo} ${a.side} ${a.filledQty.toFixed()}/${a.quantity.toFixed()}`)
    .join('');
}

/** Balances rounded for reading: 2 decimals for the valuation asset, up to 8 significant for the rest. */
function balances(s: RuntimeStatus, valuationAsset: string): string {
  return s.balances
    .map((b) => `${b.asset} ${b.asset === valuationAsset ? b.total.toFixed(2) : b.total.toSignificantDigits(8).toFixed()}`)
    .join(' ');
}

const clip = (t: string, n: number): string => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

/**
 * One line: time, marks, each strategy's position / PnL / open orders (with prices), the account's
 * balances, the counters, and the newest denial with its rule.
 */
export function statusLine(s: RuntimeStatus, valuationAsset: string): string {
  const marks = s.marks.map((m) => `${m.symbol} ${m.mid ? m.mid.toFixed(2) : '…'}`).join(' ');
  const strategies = s.strategies
    .map((x) => `${x.id}: ${positions(x)} pnl ${pnl(x)} ${valuationAsset} open ${openOrders(x)}${workingAlgos(x)}`)
    .join(' | ');
  const bal = s.balances.length ? ` | bal ${balances(s, valuationAsset)}` : '';
  const kill = s.killSwitch ? ` | KILL SWITCH ${s.killSwitch}` : '';
  const denial = s.lastDenial && !s.killSwitch ? ` | last denied ${clip(s.lastDenial, 80)}` : '';
  return `${formatDuration(s.elapsedMs)} ${marks} | ${strategies}${bal} | ${counters(s.totals)}${kill}${denial}`;
}

/** The banner printed before anything starts. */
export function bannerLines(x: {
  file: string;
  mode: string;
  venue: string;
  key: string;
  journal: string;
  hash: string;
  strategies: string;
}): string[] {
  return [
    `perpetua run ${x.file}: ${x.mode} on ${x.venue}`,
    `  key ${x.key} · journal ${x.journal} · config ${x.hash.slice(0, 12)}`,
    `  strategies ${x.strategies}`,
  ];
}

/** Printed once the run is up: the journal run, what was resumed, how to stop. */
export function startedLines(info: StartInfo): string[] {
  const lines: string[] = [];
  if (info.uncleanRun) {
    lines.push(
      `  the previous run #${info.uncleanRun.id} did not end cleanly: resumed from the journal (${info.restoredLive} live order(s)) and reconciled with the exchange (${info.reconciled} event(s))`,
    );
  } else if (info.restoredLive > 0 || info.reconciled > 0) {
    lines.push(`  resumed from the journal: ${info.restoredLive} live order(s), ${info.reconciled} event(s) from reconciliation`);
  }
  lines.push(`  run #${info.run.id} trading; Ctrl-C stops (and cancels this run's orders unless --no-cancel-on-exit)`);
  return lines;
}

export function summaryLines(s: RunSummary, valuationAsset: string): string[] {
  const lines = [
    `run #${s.runId} stopped (${s.reason}) after ${formatDuration(s.elapsedMs)}: ${s.snapshots} snapshots${s.staleSnapshots ? ` (${s.staleSnapshots} stale, skipped)` : ''}`,
  ];
  for (const x of s.strategies) {
    const c = x.counters;
    lines.push(`  ${x.id} (${x.name}): ${counters(c)}; volume ${c.volume.toFixed(2)} ${valuationAsset}`);
    lines.push(
      `    position ${positions(x)} · realised ${signed(x.realizedPnl)} · unrealised ${x.unrealizedPnl ? signed(x.unrealizedPnl) : 'n/a (no mark)'} · fees ${x.fees.toFixed(4)} ${valuationAsset}`,
    );
    for (const a of x.algos.slice(0, 5)) {
      const avg = a.avgPrice ? ` avg ${a.avgPrice.toSignificantDigits(8).toFixed()}` : '';
      lines.push(
        `    ${a.algo} ${a.side} ${a.symbol}: ${a.state}, filled ${a.filledQty.toFixed()}/${a.quantity.toFixed()}${avg}${a.reason ? ` (${a.reason})` : ''}`,
      );
    }
    const denied = Object.entries(c.deniedBy);
    if (denied.length) lines.push(`    denied by ${denied.map(([r, n]) => `${r} ×${n}`).join(', ')}`);
  }
  if (s.equity) lines.push(`  account equity ${s.equity.toFixed(2)} ${valuationAsset}`);
  if (s.killSwitch) lines.push(`  kill switch: ${s.killSwitch}`);
  lines.push(s.cancelledOnExit > 0 ? `  cancelled ${s.cancelledOnExit} open order(s) on exit` : '  no order cancelled on exit');
  if (s.openOrdersLeft.length > 0)
    lines.push(
      `  ${s.openOrdersLeft.length} order(s) left open at the exchange: ${s.openOrdersLeft.map((o) => o.clientOrderId).join(', ')}`,
    );
  return lines;
}
