/**
 * Client order ids that say who placed an order and why, so an order found at the venue after a
 * restart can be attributed (docs/architecture.md rule 6).
 *
 *   pp<tag>_<kind><slot>_<stamp>          e.g. ppmmbtc_qb0_0m5hx2k9c00
 *   │  │     │    │      └ 11 chars base36: 9 for the clock's ms (good until the year 5138) + 2 for a
 *   │  │     │    │        per-ms counter (1296 ids per ms); strictly increasing per codec
 *   │  │     │    └ desired-quotes slot, 0–3 chars [a-z0-9]
 *   │  │     └ intent kind, one letter (see CLIENT_ID_KINDS)
 *   │  └ strategy tag, 1–8 chars [a-z0-9]
 *   └ magic prefix: ids without it are not ours (manual orders, other bots)
 *
 * Length: at most 2 + 8 + 1 + 1 + 3 + 1 + 11 = 27 characters, alphabet [a-z0-9_].
 *
 * Venue limits assumed (neither API document states one):
 *  - spot newClientOrderId: ≤ 32 characters of [A-Za-z0-9_-]. The documents' examples are 6 and 13
 *    characters ("123456", "hio8279hbdsds"); Binance-compatible venues accept 36. We assume 32.
 *  - contract externalOid: ≤ 32 as well, although the captured order-get sample carries a 35-character
 *    externalOid ("_m_" + 32 hex) set by the venue's own front end, so the real limit is at least 35.
 *  27 stays under both, with room for the venue's own "_m_" style prefixes; `maxLength` lets a gateway
 *  with a tighter limit refuse the codec at start-up rather than at the first order.
 */
import type { Clock } from '../core/clock.js';
import { ConfigError, ValidationError } from '../core/errors.js';
import { type ClientOrderId, clientOrderId, type StrategyId } from '../core/ids.js';

export const CLIENT_ID_PREFIX = 'pp';
export const CLIENT_ID_MAX_LENGTH = 27;
/** What we assume the venues accept (see the module comment). */
export const VENUE_CLIENT_ID_LIMITS = { spot: 32, contract: 32 } as const;

export const CLIENT_ID_KINDS = {
  /** PlaceOrder intent */
  place: 'p',
  /** an order placed for a DesiredQuotes slot */
  quote: 'q',
  /** replacement order of a spot cancel-replace amend */
  amend: 'a',
  /** replacement order of an emulated (spot) chase reprice */
  chase: 'c',
  /** TWAP parent (no slot) and its children (slot = child number in base 36) */
  twap: 't',
  /** iceberg parent and its children, as for TWAP */
  iceberg: 'i',
} as const;
export type ClientIdKind = keyof typeof CLIENT_ID_KINDS;
const KIND_OF_CODE = new Map<string, ClientIdKind>(Object.entries(CLIENT_ID_KINDS).map(([k, v]) => [v, k as ClientIdKind]));

const TAG = /^[a-z0-9]{1,8}$/;
const SLOT = /^[a-z0-9]{0,3}$/;
const PATTERN = /^pp([a-z0-9]{1,8})_([a-z])([a-z0-9]{0,3})_([0-9a-z]{9})([0-9a-z]{2})$/;
const MS_WIDTH = 9;
const COUNTER_SPAN = 36 * 36;

export interface DecodedClientId {
  readonly tag: string;
  readonly kind: ClientIdKind;
  readonly slot?: string;
  /** Clock ms when the id was made. */
  readonly time: number;
  readonly counter: number;
}

/** Pure decode: undefined for ids that are not ours. */
export function decodeClientId(id: string): DecodedClientId | undefined {
  const m = PATTERN.exec(id);
  if (!m) return undefined;
  const kind = KIND_OF_CODE.get(m[2]!);
  if (!kind) return undefined;
  return { tag: m[1]!, kind, ...(m[3] ? { slot: m[3] } : {}), time: parseInt(m[4]!, 36), counter: parseInt(m[5]!, 36) };
}

/** Pure encode of given parts. */
export function encodeClientId(tag: string, kind: ClientIdKind, time: number, counter: number, slot?: string): ClientOrderId {
  if (!TAG.test(tag)) throw new ValidationError('clientId.tag', '1–8 characters [a-z0-9]', tag);
  if (slot !== undefined && !SLOT.test(slot)) throw new ValidationError('clientId.slot', '0–3 characters [a-z0-9]', slot);
  if (!Number.isSafeInteger(time) || time < 0 || time >= 36 ** MS_WIDTH)
    throw new ValidationError('clientId.time', `ms in [0, 36^${MS_WIDTH})`, time);
  if (!Number.isInteger(counter) || counter < 0 || counter >= COUNTER_SPAN)
    throw new ValidationError('clientId.counter', `0..${COUNTER_SPAN - 1}`, counter);
  const stamp = time.toString(36).padStart(MS_WIDTH, '0') + counter.toString(36).padStart(2, '0');
  return clientOrderId(`${CLIENT_ID_PREFIX}${tag}_${CLIENT_ID_KINDS[kind]}${slot ?? ''}_${stamp}`);
}

const ALGO_KINDS: ReadonlySet<ClientIdKind> = new Set(['twap', 'iceberg']);
/** Children per parent: the slot's 3 base-36 characters. */
export const MAX_ALGO_CHILDREN = 36 ** 3 - 1;

/**
 * The id of a parent's n-th child (n ≥ 1): the parent's tag, kind and stamp with slot n in base 36.
 * Derived rather than drawn from the counter, so after a restart every venue order of a parent is
 * found from the parent id alone (and a child id names its parent: parentOfClientId).
 */
export function childClientId(parentId: string, n: number): ClientOrderId {
  const d = decodeClientId(parentId);
  if (!d || !ALGO_KINDS.has(d.kind) || d.slot !== undefined)
    throw new ValidationError('parentId', 'a TWAP or iceberg parent client id (kind t or i, no slot)', parentId);
  if (!Number.isInteger(n) || n < 1 || n > MAX_ALGO_CHILDREN) throw new ValidationError('child', `1..${MAX_ALGO_CHILDREN}`, n);
  return encodeClientId(d.tag, d.kind, d.time, d.counter, n.toString(36));
}

/** The parent of an algorithm's child id, and the child's number; undefined for any other id. */
export function parentOfClientId(id: string): { parentId: ClientOrderId; child: number } | undefined {
  const d = decodeClientId(id);
  if (!d || !ALGO_KINDS.has(d.kind) || d.slot === undefined) return undefined;
  return { parentId: encodeClientId(d.tag, d.kind, d.time, d.counter), child: parseInt(d.slot, 36) };
}

/** A default tag from a strategy id: lower-case alphanumerics, first 8. */
export function defaultStrategyTag(id: string): string {
  const t = id
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 8);
  if (!t) throw new ConfigError('strategies', `strategy id ${JSON.stringify(id)} gives an empty client-id tag; set a tag of [a-z0-9]{1,8}`);
  return t;
}

/**
 * Issues client ids for the strategies of one process and attributes ids back to them. Ids are
 * strictly increasing per tag even if the clock stalls or steps back (NTP), and observe() lets the
 * order manager seed the floor from the journal after a restart.
 */
export class ClientIdCodec {
  private readonly tagToStrategy = new Map<string, StrategyId>();
  private readonly strategyToTag = new Map<string, string>();
  private readonly last = new Map<string, { time: number; counter: number }>();

  constructor(
    private readonly clock: Pick<Clock, 'now'>,
    /** The tightest client-id limit of the gateways in use. */
    venueMaxLength: number = Math.min(VENUE_CLIENT_ID_LIMITS.spot, VENUE_CLIENT_ID_LIMITS.contract),
  ) {
    if (venueMaxLength < CLIENT_ID_MAX_LENGTH) {
      throw new ConfigError('clientIds', `venue client-id limit ${venueMaxLength} is below the codec's ${CLIENT_ID_MAX_LENGTH} characters`);
    }
  }

  /** Registers a strategy under a tag (default: derived from the id). Two strategies may not share a tag. */
  register(strategyId: StrategyId, tag: string = defaultStrategyTag(strategyId)): string {
    if (!TAG.test(tag))
      throw new ConfigError(`strategies.${strategyId}.tag`, `expected 1–8 characters [a-z0-9], got ${JSON.stringify(tag)}`);
    const owner = this.tagToStrategy.get(tag);
    if (owner !== undefined && owner !== strategyId) {
      throw new ConfigError(`strategies.${strategyId}.tag`, `client-id tag ${JSON.stringify(tag)} is already used by strategy ${owner}`);
    }
    this.tagToStrategy.set(tag, strategyId);
    this.strategyToTag.set(strategyId, tag);
    return tag;
  }

  tagOf(strategyId: StrategyId): string | undefined {
    return this.strategyToTag.get(strategyId);
  }

  /** The strategy an id belongs to, if it is ours and its tag is registered. */
  strategyOf(id: string): StrategyId | undefined {
    const d = decodeClientId(id);
    return d ? this.tagToStrategy.get(d.tag) : undefined;
  }

  next(strategyId: StrategyId, kind: ClientIdKind, slot?: string): ClientOrderId {
    const tag = this.strategyToTag.get(strategyId);
    if (tag === undefined) throw new ValidationError('strategyId', 'a strategy registered with the client-id codec', strategyId);
    const now = Math.max(0, Math.floor(this.clock.now()));
    const prev = this.last.get(tag);
    let time = now;
    let counter = 0;
    if (prev && time <= prev.time) {
      time = prev.time;
      counter = prev.counter + 1;
      if (counter >= COUNTER_SPAN) {
        time += 1;
        counter = 0;
      }
    }
    this.last.set(tag, { time, counter });
    return encodeClientId(tag, kind, time, counter, slot);
  }

  /** Raises the floor so later ids sort after `id` (ids restored from the journal). */
  observe(id: string): void {
    const d = decodeClientId(id);
    if (!d) return;
    const prev = this.last.get(d.tag);
    if (!prev || d.time > prev.time || (d.time === prev.time && d.counter > prev.counter))
      this.last.set(d.tag, { time: d.time, counter: d.counter });
  }
}
