/**
 * The emulator's answers do not depend on how the requests reach it (issue 12 reworked the HTTP path
 * for speed: no Promise per request on the synchronous path, no idle timer for a body that arrives
 * whole, forms without escapes taken as they are, the usual JSON body parsed without the long-integer
 * pass). Each case sends one request list to a fresh emulator and compares with the reference: the
 * same list sent one request per connection, one after another, to another fresh emulator started
 * alike. The virtual clock does not step, so the reference answers are reproducible to the byte; the
 * status, content type and body of every answer must be equal, in order. A few answers are also
 * checked against what the wire protocol says (codes, words, ids), which the reference cannot vouch for.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import { SystemClock } from '../../src/core/clock.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { ALICE, T0, hmac, testConfig } from './support/emulator-kit.js';

const clock = new SystemClock();

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** A request as text, with the offsets where the split case cuts it into pieces. */
interface Req {
  readonly text: string;
  readonly cuts: readonly number[];
}

function request(method: string, pathAndQuery: string, headers: Record<string, string>, body = ''): Req {
  const head = [`${method} ${pathAndQuery} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [k, v] of Object.entries(headers)) head.push(`${k}: ${v}`);
  if (method !== 'GET') head.push(`Content-Length: ${Buffer.byteLength(body)}`);
  const headText = `${head.join('\r\n')}\r\n\r\n`;
  // Cuts: inside the request line, inside the headers, and (with a body) twice inside the body.
  const cuts = [5, Math.floor(headText.length / 2)];
  if (body.length > 2) cuts.push(headText.length + 1, headText.length + Math.floor(body.length / 2));
  return { text: headText + body, cuts };
}

function spotQuery(method: string, path: string, params: string): Req {
  const payload = `${params}&timestamp=${T0}`;
  return request(method, `${path}?${payload}&signature=${hmac(ALICE.secret, payload)}`, { 'X-MEXC-APIKEY': ALICE.apiKey });
}

function spotForm(path: string, params: string): Req {
  const payload = `${params}&timestamp=${T0}`;
  const body = `${payload}&signature=${hmac(ALICE.secret, payload)}`;
  return request('POST', path, { 'X-MEXC-APIKEY': ALICE.apiKey, 'Content-Type': 'application/x-www-form-urlencoded' }, body);
}

function contractPost(path: string, body: string): Req {
  const headers = {
    ApiKey: ALICE.apiKey,
    'Request-Time': String(T0),
    Signature: hmac(ALICE.secret, `${ALICE.apiKey}${T0}${body}`),
    'Content-Type': 'application/json',
  };
  return request('POST', path, headers, body);
}

const ORDER = 'symbol=BTCUSDT&type=LIMIT&quantity=0.001&price=87500';
const LONG_ID = '101716841474621953';

/** Spot and contract, answers and refusals, query and form, with and without escapes. */
const REQUESTS: readonly Req[] = [
  spotQuery('POST', '/api/v3/order', `${ORDER}&side=BUY`),
  spotQuery('POST', '/api/v3/order', `${ORDER}&side=SELL&newClientOrderId=x%2Dy`),
  request('GET', '/api/v3/time', {}),
  spotForm('/api/v3/order', `${ORDER}&side=BUY&newClientOrderId=form%2D1`),
  spotQuery('GET', '/api/v3/order', 'symbol=BTCUSDT&origClientOrderId=form-1'),
  request('POST', `/api/v3/order?${ORDER}&side=BUY&timestamp=${T0}&signature=${'0'.repeat(64)}`, { 'X-MEXC-APIKEY': ALICE.apiKey }),
  request('GET', '/api/v3/nothing-here', {}),
  contractPost('/api/v1/private/order/create', '{"symbol":"BTC_USDT","price":87500,"vol":1,"leverage":10,"side":1,"type":1,"openType":1}'),
  contractPost('/api/v1/private/order/create', '{"symbol":'),
  contractPost('/api/v1/private/order/cancel', `[${LONG_ID}]`),
  spotQuery('POST', '/api/v3/order', `${ORDER}&side=SELL`),
];

/** Parses complete answers off the front of `buf`; returns them and the bytes left over. */
function parseAnswers(buf: Buffer): { answers: Answer[]; rest: Buffer } {
  const answers: Answer[] = [];
  let at = 0;
  for (;;) {
    const end = buf.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const head = buf.subarray(at, end).toString('latin1').split('\r\n');
    const header = (name: string): string =>
      head
        .find((l) => l.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim() ?? '';
    const length = Number(header('content-length'));
    if (buf.length < end + 4 + length) break;
    answers.push({
      status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head[0]!)?.[1] ?? 0),
      contentType: header('content-type'),
      body: buf.subarray(end + 4, end + 4 + length).toString('utf8'),
    });
    at = end + 4 + length;
  }
  return { answers, rest: buf.subarray(at) };
}

/**
 * Writes `parts` on one connection (a number is a pause in ms), then waits for `expected` answers.
 * Rejects when the connection closes first or nothing complete arrives within 5 s.
 */
function exchange(port: number, parts: readonly (string | number)[], expected: number): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const got: Answer[] = [];
    let pending: Buffer = Buffer.alloc(0);
    const timer = clock.setTimer(clock.now() + 5000, () => {
      socket.destroy();
      reject(new Error(`${got.length} of ${expected} answers within 5 s`));
    });
    socket.on('data', (chunk: Buffer) => {
      const { answers, rest } = parseAnswers(Buffer.concat([pending, chunk]));
      pending = rest;
      got.push(...answers);
      if (got.length >= expected) {
        clock.clearTimer(timer);
        socket.end();
        resolve(got);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => {
      clock.clearTimer(timer);
      if (got.length < expected) reject(new Error(`closed after ${got.length} of ${expected} answers`));
    });
    socket.once('connect', () => {
      void (async () => {
        for (const p of parts) {
          if (typeof p === 'number') await clock.sleep(p);
          else socket.write(p);
        }
      })();
    });
  });
}

/** The text of `r` in its pieces, with a pause between two pieces. */
function pieces(r: Req, pauseMs: number): (string | number)[] {
  const out: (string | number)[] = [];
  let from = 0;
  for (const c of r.cuts) {
    out.push(r.text.slice(from, c), pauseMs);
    from = c;
  }
  out.push(r.text.slice(from));
  return out;
}

describe('emulator HTTP framing: answers do not depend on how requests arrive', function () {
  this.timeout(30_000);
  const started: RunningEmulator[] = [];
  const fresh = async (extra: Parameters<typeof testConfig>[0] = {}): Promise<RunningEmulator> => {
    const emu = await startEmulator(testConfig(extra), { marketStopped: true });
    started.push(emu);
    return emu;
  };
  let reference: Answer[];

  before(async () => {
    const emu = await fresh();
    reference = [];
    for (const r of REQUESTS) reference.push(...(await exchange(emu.port, [r.text], 1)));
  });
  after(async () => {
    for (const emu of started.splice(0)) await emu.stop();
  });

  it('answers_the_reference_list_as_the_wire_protocol_says', () => {
    // Hand-checked against wire-protocol.md / wire-error.ts, for the answers the reference cannot vouch for.
    expect(reference.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200, 400, 404, 200, 200, 200, 200]);
    for (const a of reference) expect(a.contentType).to.equal('application/json;charset=UTF-8');
    expect(JSON.parse(reference[2]!.body)).to.deep.equal({ serverTime: T0 });
    // The form body's escaped client id was decoded: the order is found under `form-1`.
    expect((JSON.parse(reference[4]!.body) as { clientOrderId: string }).clientOrderId).to.equal('form-1');
    expect(JSON.parse(reference[5]!.body)).to.deep.equal({ code: 700002, msg: 'Signature for this request is not valid.' });
    expect(JSON.parse(reference[6]!.body)).to.deep.equal({ code: 404, msg: 'Not Found' });
    expect(JSON.parse(reference[7]!.body)).to.include({ success: true, code: 0 });
    expect(JSON.parse(reference[8]!.body)).to.deep.equal({ success: false, code: 600, message: 'Param error! the body is not valid JSON' });
    // An id above 2^53 sent as a bare JSON number keeps every digit (JSON.parse alone would round it to …950).
    expect(JSON.parse(reference[9]!.body)).to.deep.equal({
      success: true,
      code: 0,
      data: [{ orderId: LONG_ID, errorCode: 2040, errorMsg: 'order not exist' }],
    });
  });

  it('answers_requests_pipelined_on_one_keep_alive_connection_in_order_with_the_same_bytes', async () => {
    const emu = await fresh();
    const got = await exchange(emu.port, [REQUESTS.map((r) => r.text).join('')], REQUESTS.length);
    expect(got).to.deep.equal(reference);
  });

  it('answers_requests_whose_line_headers_and_body_arrive_in_separate_packets_with_the_same_bytes', async () => {
    const emu = await fresh();
    // 30 ms between pieces: each piece is read in its own turn, so a body is still incomplete when the
    // turn that began reading it ends (its idle timer is armed then), and far below the 10 s body limit.
    const got = await exchange(
      emu.port,
      REQUESTS.flatMap((r) => pieces(r, 30)),
      REQUESTS.length,
    );
    expect(got).to.deep.equal(reference);
  });

  it('answers_a_json_body_sent_chunked_as_it_answers_the_same_body_sent_with_a_length', async () => {
    // The body is taken at the tick after the request when its Content-Length is buffered; a chunked
    // body has no length, so it goes the waiting path: both must answer alike, whole or in pieces.
    const body = '{"symbol":"BTC_USDT","price":87500,"vol":1,"leverage":10,"side":1,"type":1,"openType":1}';
    const sized = contractPost('/api/v1/private/order/create', body);
    const head = sized.text.slice(0, sized.text.indexOf('\r\n\r\n')).replace(/\r\nContent-Length: \d+/, '');
    const half = Math.floor(body.length / 2);
    const chunk = (s: string): string => `${s.length.toString(16)}\r\n${s}\r\n`;
    const chunked = `${head}\r\nTransfer-Encoding: chunked\r\n\r\n${chunk(body.slice(0, half))}${chunk(body.slice(half))}0\r\n\r\n`;
    const expected = await exchange((await fresh()).port, [sized.text], 1);
    expect(expected[0]!.status).to.equal(200);
    expect(await exchange((await fresh()).port, [chunked], 1)).to.deep.equal(expected);
    const cut = chunked.indexOf('\r\n\r\n') + 10;
    expect(await exchange((await fresh()).port, [chunked.slice(0, cut), 30, chunked.slice(cut)], 1)).to.deep.equal(expected);
  });

  it('answers_contract_placements_and_their_refusals_alike_whether_the_body_is_taken_at_once_or_waited_for', async () => {
    // A body that arrives with its headers is taken at the next tick; one cut in pieces or chunked is
    // waited for. Every answer — the placement, a bad signature, a missing or bad field, a body that is
    // not JSON or too large — must be the same bytes either way, in the same order on one connection.
    const order = (extra: Record<string, unknown>): string =>
      JSON.stringify({ symbol: 'BTC_USDT', price: 87500, vol: 1, leverage: 10, side: 1, type: 1, openType: 1, ...extra });
    const { vol: _vol, ...noVol } = JSON.parse(order({})) as Record<string, unknown>;
    const withSignature = (body: string, signature: string): Req => {
      const r = contractPost('/api/v1/private/order/create', body);
      return { ...r, text: r.text.replace(/Signature: [0-9a-f]{64}/, `Signature: ${signature}`) };
    };
    const cases: readonly Req[] = [
      contractPost('/api/v1/private/order/create', order({})),
      withSignature(order({ side: 3 }), 'f'.repeat(64)),
      contractPost('/api/v1/private/order/create', JSON.stringify(noVol)),
      contractPost('/api/v1/private/order/create', order({ side: 9 })),
      contractPost('/api/v1/private/order/create', order({ price: '87,500' })),
      contractPost('/api/v1/private/order/create', '{"symbol":"BTC_USDT",'),
      contractPost('/api/v1/private/order/create', order({ externalOid: 'x'.repeat(300_000) })),
      contractPost('/api/v1/private/order/create', order({ side: 3 })),
    ];
    const chunkedOf = (r: Req): string => {
      const at = r.text.indexOf('\r\n\r\n');
      const body = r.text.slice(at + 4);
      const head = r.text.slice(0, at).replace(/\r\nContent-Length: \d+/, '');
      return `${head}\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    };
    // Whole, one request per connection (the body is taken at once).
    const atOnce: Answer[] = [];
    const first = await fresh();
    for (const r of cases) atOnce.push(...(await exchange(first.port, [r.text], 1)));
    expect(atOnce.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200, 200, 413, 200]);
    const bodies = atOnce.map((a) => JSON.parse(a.body) as { success: boolean; code: number; message?: string });
    expect(bodies[0]).to.include({ success: true, code: 0 });
    expect(bodies[1]).to.deep.equal({ success: false, code: 602, message: 'Signature verification failed!' });
    expect(bodies[2]!.message).to.equal('Param error! vol: expected a decimal number > 0 with at most 15 significant digits');
    expect(bodies[3]!.message).to.equal(
      'Param error! side: expected 1, 2, 3 or 4 (1 open long, 2 close short, 3 open short, 4 close long)',
    );
    expect(bodies[4]!.message).to.equal('Param error! price: expected a decimal number >= 0 with at most 15 significant digits');
    expect(bodies[5]).to.deep.equal({ success: false, code: 600, message: 'Param error! the body is not valid JSON' });
    expect(bodies[6]).to.deep.equal({ success: false, code: 413, message: 'Request body larger than 262144 bytes' });
    expect(bodies[7]).to.include({ success: true, code: 0 });
    // The same list on fresh emulators: pipelined on one connection, in pieces (waited for), chunked.
    const open = cases.filter((_, i) => i !== 6); // a 413 closes its connection
    const expected = atOnce.filter((_, i) => i !== 6);
    expect(await exchange((await fresh()).port, [open.map((r) => r.text).join('')], open.length)).to.deep.equal(expected);
    expect(
      await exchange(
        (await fresh()).port,
        open.flatMap((r) => pieces(r, 20)),
        open.length,
      ),
    ).to.deep.equal(expected);
    expect(await exchange((await fresh()).port, [open.map(chunkedOf).join('')], open.length)).to.deep.equal(expected);
    const tooLarge = cases[6]!;
    expect(await exchange((await fresh()).port, [chunkedOf(tooLarge)], 1)).to.deep.equal([atOnce[6]]);
  });

  it('answers_sixteen_concurrent_connections_each_in_its_own_order', async () => {
    // 96 placements at once: far above the 12/s order limit, which is not what this case is about.
    const emu = await fresh({ rateLimits: { enabled: false } });
    // Each connection pipelines six resting buys with its own quantities (far below the ask: they rest),
    // so every answer says which request it belongs to; 0.001 to 0.156 BTC at 1000 is above the 1 USDT minimum.
    const qty = (c: number, k: number): string => String((c * 10 + k + 1) / 1000);
    const lists = Array.from({ length: 16 }, (_, c) =>
      Array.from({ length: 6 }, (_, k) =>
        spotQuery('POST', '/api/v3/order', `symbol=BTCUSDT&type=LIMIT&quantity=${qty(c, k)}&price=1000&side=BUY`),
      ),
    );
    const all = await Promise.all(lists.map((l) => exchange(emu.port, [l.map((r) => r.text).join('')], l.length)));
    const ids = new Set<string>();
    all.forEach((answers, c) => {
      answers.forEach((a, k) => {
        expect(a.status, `connection ${c} answer ${k}: ${a.body}`).to.equal(200);
        const o = JSON.parse(a.body) as { origQty: string; orderId: string; price: string };
        expect([o.origQty, o.price]).to.deep.equal([qty(c, k), '1000']);
        ids.add(o.orderId);
      });
    });
    expect(ids.size).to.equal(96);
  });
});
