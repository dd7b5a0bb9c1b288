/**
 * Snapshots of the emulator's engines in the command journal, so a start replays only the journal's tail.
 *
 * What is written: the object graph under the engines (spot and contract venues with their tapes and
 * crowd ports, the market model of the current epoch with its random streams, the account-ext services:
 * STP groups, blacklists, fee model, PnL recorder) by engine/object-graph.ts, with the current epoch's
 * parameters and the accounts' API settings in a JSON header. What is not: the config, the clock, the
 * journal and the account registry (keys and secrets) — the start builds those from the config as usual.
 *
 * Restoring: the engines are built as for a fresh start, the snapshot's epoch is begun again (so its
 * model, boards and followers exist and are wired), and the snapshot's data is restored into that graph.
 * A snapshot whose checksum or decoding fails is skipped for the one before it, and without any the
 * whole journal is replayed, as for a journal written before snapshots existed.
 */
import { createHash } from 'node:crypto';
import type { AccountRegistry } from '../auth/account-registry.js';
import type { AccountExtServices } from '../handlers/account-ext-services.js';
import type { CommandJournal, StoredSnapshot } from './command-journal.js';
import type { ContractEngine } from './contract-engine.js';
import type { EpochParams, MarketEpochs } from './market-epochs.js';
import { decodeGraph, encodeGraph, restoreGraph, type DecodedGraph } from './object-graph.js';
import type { PinnedClock } from './pinned-clock.js';
import { engineCodec } from './snapshot-classes.js';
import type { SpotEngine } from './spot-engine.js';

/** The engines' objects, and what they reference that is rebuilt from the config rather than stored. */
export interface EngineParts {
  readonly spot: SpotEngine;
  readonly contract: ContractEngine;
  readonly market: MarketEpochs;
  readonly accountExt: AccountExtServices;
  readonly accounts: AccountRegistry;
  readonly clock: PinnedClock;
  readonly journal: CommandJournal;
  /** Further objects kept from the fresh build (the config). */
  readonly external: readonly object[];
}

interface Header {
  readonly format: 1;
  readonly epoch: EpochParams | null;
  /** Account id → API-changed settings. */
  readonly settings: Record<string, { platformDeduct: boolean }>;
}

/**
 * When snapshots are taken (CommandJournal's CheckpointPolicy): once the commands since the last one
 * took 3× what that snapshot took, and at least 200 ms — a start then replays at most a few snapshots'
 * worth of work, and snapshots take at most a quarter of the run — or every 4096 entries.
 */
export const SNAPSHOT_POLICY = { minWorkMs: 200, workPerCost: 3, maxEntries: 4096 } as const;

const root = (p: EngineParts) => ({ spot: p.spot, contract: p.contract, market: p.market, accountExt: p.accountExt });
const kept = (p: EngineParts) => new Set<object>([p.clock, p.journal, p.accounts, ...p.external]);
const checksumOf = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Writes a snapshot of the engines as of the journal's last entry; false when the market cannot be snapshotted. */
export function takeEngineSnapshot(p: EngineParts): boolean {
  if (!p.market.snapshotable) return false;
  const { seq, entries } = p.journal.position();
  const header: Header = {
    format: 1,
    epoch: p.market.epochParams ?? null,
    settings: Object.fromEntries(p.accounts.all().map((a) => [a.id, { ...a.settings }])),
  };
  const data = encodeGraph(root(p), engineCodec(), kept(p));
  p.journal.saveSnapshot({ seq, entries, time: p.clock.now(), header: JSON.stringify(header), checksum: checksumOf(data), data });
  return true;
}

export interface RestoredSnapshot {
  readonly seq: number;
  readonly entries: number;
  readonly time: number;
  /** Newer snapshots that were skipped as damaged, with why. */
  readonly skipped: readonly string[];
}

/**
 * Restores the newest sound snapshot into freshly built engines; undefined when there is none (then the
 * whole journal is replayed). Must run before anything else changes the engines.
 */
export function restoreEngineSnapshot(p: EngineParts): RestoredSnapshot | { skipped: string[] } {
  const skipped: string[] = [];
  for (const s of p.journal.snapshots()) {
    let checked: { header: Header; graph: DecodedGraph };
    try {
      checked = check(s);
    } catch (e) {
      skipped.push(`snapshot at entry ${s.seq}: ${(e as Error).message}`);
      continue;
    }
    const { header, graph } = checked;
    p.clock.pin(s.time);
    try {
      p.journal.suppress(() => {
        if (header.epoch) p.market.begin(header.epoch);
        restoreGraph(root(p), graph, engineCodec());
      });
    } finally {
      p.clock.unpin();
    }
    for (const [id, settings] of Object.entries(header.settings)) {
      const a = p.accounts.byAccountId(id);
      if (a) Object.assign(a.settings, settings);
    }
    return { seq: s.seq, entries: s.entries, time: s.time, skipped };
  }
  return { skipped };
}

function check(s: StoredSnapshot): { header: Header; graph: DecodedGraph } {
  if (checksumOf(s.data) !== s.checksum) throw new Error('checksum mismatch (torn or damaged)');
  const header = JSON.parse(s.header) as Header;
  if (header.format !== 1) throw new Error(`unknown header format ${String(header.format)}`);
  return { header, graph: decodeGraph(s.data, engineCodec()) };
}
