/**
 * Test helpers for the emulator tests: a config with known accounts on a virtual clock, raw HTTP
 * requests over 127.0.0.1 (undici, or a bare socket for bytes undici refuses to send), and an
 * independent signer (node:crypto directly, not the client's signer) so the tests check the emulator
 * against the wire protocol rather than against our own client.
 */
import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { request } from 'undici';
import type { EmulatorConfigInput } from '../../../src/emulator/emulator-config.js';

/** 2026-01-01T00:00:00Z: virtual time starts here in these tests. */
export const T0 = 1_767_225_600_000;

export interface TestKey {
  readonly apiKey: string;
  readonly secret: string;
}

export const ALICE: TestKey = { apiKey: 'mx0vglAliceKey01', secret: 'alice-secret-0123456789abcdef' };
export const READER: TestKey = { apiKey: 'mx0vglReaderKey1', secret: 'reader-secret-0123456789abcdef' };
export const BOB: TestKey = { apiKey: 'mx0vglBobKey0001', secret: 'bob-secret-0123456789abcdefgh' };

export function testConfig(extra: Partial<EmulatorConfigInput> = {}): EmulatorConfigInput {
  return {
    seed: 7,
    clock: { mode: 'virtual', start: T0, stepMs: 0 },
    accounts: [
      {
        name: 'alice',
        uid: '10000001',
        apiKey: ALICE.apiKey,
        secretKey: ALICE.secret,
        spot: { balances: { USDT: '100000', BTC: '2', ETH: '10' } },
        contract: { balances: { USDT: '100000' } },
      },
      {
        name: 'reader',
        uid: '10000002',
        apiKey: READER.apiKey,
        secretKey: READER.secret,
        spot: { permissions: ['SPOT_ACCOUNT_READ', 'SPOT_DEAL_READ'], balances: { USDT: '1000' } },
        contract: { permissions: ['ACCOUNT_READ'], balances: { USDT: '1000' } },
      },
      {
        name: 'bob',
        uid: '10000003',
        apiKey: BOB.apiKey,
        secretKey: BOB.secret,
        spot: { balances: { USDT: '50000', BTC: '1' } },
        contract: { balances: { USDT: '50000' }, tradingAllowed: false },
      },
    ],
    ...extra,
  };
}

export const hmac = (secret: string, message: string): string => createHmac('sha256', secret).update(message, 'utf8').digest('hex');

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  /** The JSON body (undefined when it is not JSON). */
  readonly json: unknown;
}

export async function raw(
  baseUrl: string,
  method: string,
  pathAndQuery: string,
  opts: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const res = await request(`${baseUrl}${pathAndQuery}`, {
    method: method as 'GET',
    headers: opts.headers ?? {},
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers[k] = v;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers, text, json };
}

/** Sends bytes exactly as given (request line, headers, body) and returns the status and body text. */
export function rawSocket(port: number, bytes: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    sock.on('data', (c) => chunks.push(c));
    sock.on('error', reject);
    sock.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      resolve({ status: m ? Number(m[1]) : 0, body });
    });
    sock.write(bytes);
    sock.end();
  });
}

export interface SpotSignOptions {
  readonly key?: { apiKey: string; secret: string };
  readonly timestamp?: number;
  readonly recvWindow?: number;
  /** Where the parameters go for POST/DELETE; default query. */
  readonly placement?: 'query' | 'body';
  /** Replace the computed signature. */
  readonly signature?: string;
  readonly omitSignature?: boolean;
  readonly omitApiKey?: boolean;
}

/** A signed spot request built by hand: params in order, timestamp (and recvWindow) appended, signature last. */
export async function spotSigned(
  baseUrl: string,
  method: string,
  path: string,
  params: Record<string, string>,
  o: SpotSignOptions = {},
): Promise<RawResponse> {
  const key = o.key ?? ALICE;
  const pairs = Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  if (o.recvWindow !== undefined) pairs.push(`recvWindow=${o.recvWindow}`);
  if (o.timestamp !== undefined) pairs.push(`timestamp=${o.timestamp}`);
  const payload = pairs.join('&');
  const sig = o.signature ?? hmac(key.secret, payload);
  const signed = o.omitSignature ? payload : `${payload}${payload ? '&' : ''}signature=${sig}`;
  const headers: Record<string, string> = o.omitApiKey ? {} : { 'X-MEXC-APIKEY': key.apiKey };
  if (o.placement === 'body' && method !== 'GET') {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    return raw(baseUrl, method, path, { headers, body: signed });
  }
  return raw(baseUrl, method, `${path}?${signed}`, { headers });
}

export interface ContractSignOptions {
  readonly key?: { apiKey: string; secret: string };
  readonly requestTime?: number;
  readonly recvWindow?: string;
  readonly signature?: string;
  readonly omit?: 'ApiKey' | 'Request-Time' | 'Signature';
  /** Extra request headers (e.g. timezone-login of the analysis export). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A signed contract request built by hand (GET/DELETE: sorted query; POST: JSON body as sent). */
export async function contractSigned(
  baseUrl: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  params: Record<string, unknown> | unknown[] | string | undefined,
  o: ContractSignOptions & { requestTime: number },
): Promise<RawResponse> {
  const key = o.key ?? ALICE;
  let paramString = '';
  let pathAndQuery = path;
  let body: string | undefined;
  if (method === 'POST') {
    body = typeof params === 'string' ? params : params === undefined ? '' : JSON.stringify(params);
    paramString = body;
  } else if (params && typeof params === 'object' && !Array.isArray(params)) {
    const keys = Object.keys(params).sort();
    paramString = keys.map((k) => `${k}=${String((params as Record<string, unknown>)[k])}`).join('&');
    if (paramString) pathAndQuery = `${path}?${paramString}`;
  }
  const headers: Record<string, string> = {
    ApiKey: key.apiKey,
    'Request-Time': String(o.requestTime),
    Signature: o.signature ?? hmac(key.secret, `${key.apiKey}${o.requestTime}${paramString}`),
    'Content-Type': 'application/json',
  };
  if (o.recvWindow !== undefined) headers['Recv-Window'] = o.recvWindow;
  if (o.headers) Object.assign(headers, o.headers);
  if (o.omit) delete headers[o.omit];
  return raw(baseUrl, method, pathAndQuery, { headers, ...(body !== undefined && body !== '' ? { body } : {}) });
}
