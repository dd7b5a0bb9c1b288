/**
 * Emulator throughput: signed spot order placement (POST /api/v3/order with X-MEXC-APIKEY and an
 * HMAC signature, through routing, auth, the request schema, the matching engine and the envelope)
 * against a bare node:http endpoint answering a fixed JSON body, both loaded by the same autocannon
 * settings on 127.0.0.1. Budget (issue 12): placement ≥ 0.6× the bare endpoint's rate (was 0.5× in issue 3).
 *
 * Each server runs in its own child process so the load generator (this process) does not steal its
 * CPU. Both stay up and are loaded in turn, three short rounds each, interleaved, and the best round of
 * each is reported: on a shared machine other load only ever lowers a round, so the best round is the
 * closest to each server's capacity and interleaving keeps a load spike from favouring one side. Each
 * row's baseline is the best of the three bare rounds interleaved with its own rounds: an equal number
 * of samples on both sides. (It was the best of all six bare rounds, and the best of six draws sits
 * above the best of three: one lucky bare round of ~44,700 among five of ~30,000 read the same spot
 * build as 0.45× where the round before read 0.57×.) The
 * placement requests alternate a resting buy and a sell at the same price from one account, so every
 * request is real matching work (rest, then fill) and the open-order count stays bounded. Signatures
 * are made once with recvWindow 60000, which covers the whole run.
 *
 * Contract rounds start from an empty book (cancel_all before each): every connection starts each
 * round with a buy, so a round cut short leaves up to 16 resting buys, and these piled up across rounds
 * towards the one-way cap of 50 open orders. Past it a placement is refused with `{success:false,
 * code:600}` (HTTP 200, not counted by autocannon), which is cheaper than a placement: in a run of this
 * load with five rounds instead of three, 22,544 of the 56,954 contract requests were such refusals
 * and the best round was the one with the most of them. Answers that are not `success:true` now count
 * as failed requests in the note.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSuite } from './bench-row.js';
import { restartRows } from './emulator-restart-bench.js';

const CHILD_FLAG = '--perpetua-emulator-bench-child';
const API_KEY = 'mx0vglBenchKey001';
const SECRET = 'bench-secret-0123456789abcdef';
const ROUND_S = 2;
const ROUNDS = 3;
const CONNECTIONS = 16;

/** The part of autocannon's programmatic API used here (the package ships no type declarations). */
interface AutocannonRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called with each answer (autocannon collects the body either way). */
  onResponse?: (status: number, body: string) => void;
}
interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  pipelining: number;
  requests: AutocannonRequest[];
}) => Promise<AutocannonResult>;

async function runChild(kind: 'emulator' | 'bare'): Promise<void> {
  if (kind === 'bare') {
    const body = JSON.stringify({
      symbol: 'BTCUSDT',
      orderId: '1',
      orderListId: -1,
      price: '87000',
      origQty: '0.001',
      type: 'LIMIT',
      side: 'BUY',
      transactTime: 0,
    });
    const server = createServer({ keepAlive: true }, (req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      process.send?.({ port: typeof addr === 'object' && addr ? addr.port : 0 });
    });
    return;
  }
  const { startEmulator } = await import('../src/emulator/start-emulator.js');
  const emu = await startEmulator(
    {
      rateLimits: { enabled: false },
      accounts: [
        {
          name: 'bench',
          apiKey: API_KEY,
          secretKey: SECRET,
          spot: { balances: { USDT: '1000000000', BTC: '1000000' } },
          contract: { balances: { USDT: '1000000000' } },
        },
      ],
    },
    { marketStopped: true },
  );
  process.send?.({ port: emu.port });
}

function startChild(kind: 'emulator' | 'bare'): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG, kind], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve({ child, port: (m as { port: number }).port }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${kind} bench server exited early (${String(code)})`)));
  });
}

/**
 * Contract placement requests (POST /api/v1/private/order/create, JSON body signed over apiKey +
 * Request-Time + body): a one-way account alternates a buy and a sell limit of 1 lot at one price, so
 * every request rests or fills against the other side and the position stays within ±16 lots.
 */
function contractRequests(now: number, refused: { count: number }): AutocannonRequest[] {
  const sign = (side: number): AutocannonRequest => {
    const body = JSON.stringify({ symbol: 'BTC_USDT', price: 87500, vol: 1, leverage: 10, side, type: 1, openType: 2 });
    const sig = createHmac('sha256', SECRET).update(`${API_KEY}${now}${body}`).digest('hex');
    const onResponse = (status: number, text: string): void => {
      // A venue refusal is HTTP 200 with success:false; only non-2xx answers are counted by autocannon.
      if (status === 200 && !text.startsWith('{"success":true')) refused.count++;
    };
    return { method: 'POST', path: '/api/v1/private/order/create', headers: contractHeaders(now, sig), body, onResponse };
  };
  return [sign(1), sign(3)];
}

function contractHeaders(now: number, signature: string): Record<string, string> {
  return { ApiKey: API_KEY, 'Request-Time': String(now), 'Recv-Window': '60', Signature: signature, 'Content-Type': 'application/json' };
}

/** One signed request (setup before the contract rounds); throws unless the venue answers success. */
async function contractCall(port: number, path: string, body: string): Promise<void> {
  const now = Date.now();
  const sig = createHmac('sha256', SECRET).update(`${API_KEY}${now}${body}`).digest('hex');
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: contractHeaders(now, sig), body });
  const json = (await res.json()) as { success?: boolean };
  if (json.success !== true) throw new Error(`bench setup ${path}: ${JSON.stringify(json)}`);
}

function placementRequests(now: number): AutocannonRequest[] {
  const sign = (side: string): AutocannonRequest => {
    const q = `symbol=BTCUSDT&side=${side}&type=LIMIT&quantity=0.001&price=87500&recvWindow=60000&timestamp=${now}`;
    const sig = createHmac('sha256', SECRET).update(q).digest('hex');
    return { method: 'POST', path: `/api/v3/order?${q}&signature=${sig}`, headers: { 'X-MEXC-APIKEY': API_KEY } };
  };
  return [sign('BUY'), sign('SELL')];
}

export const suite: BenchSuite = {
  title: 'emulator HTTP',
  async run(): Promise<BenchRow[]> {
    const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
    // Wall-clock timestamp for the signed requests: the child emulator runs on the system clock.
    const requests = placementRequests(Date.now());
    const bare = await startChild('bare');
    const emu = await startChild('emulator');
    const load = (port: number) =>
      autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration: ROUND_S, pipelining: 1, requests });
    // The bare rounds interleaved with the spot rounds, and those interleaved with the contract rounds.
    const bareRounds: AutocannonResult[] = [];
    const bareContractRounds: AutocannonResult[] = [];
    const emuRounds: AutocannonResult[] = [];
    const contractRounds: AutocannonResult[] = [];
    const contractRefused = { count: 0 };
    try {
      // Warm-up (JIT, connection pools, the book's first levels): not counted.
      await autocannon({ url: `http://127.0.0.1:${bare.port}`, connections: CONNECTIONS, duration: 1, pipelining: 1, requests });
      await autocannon({ url: `http://127.0.0.1:${emu.port}`, connections: CONNECTIONS, duration: 1, pipelining: 1, requests });
      for (let i = 0; i < ROUNDS; i++) {
        bareRounds.push(await load(bare.port));
        emuRounds.push(await load(emu.port));
      }
      // Contract rounds, interleaved with three more bare rounds (that row's baseline).
      await contractCall(emu.port, '/api/v1/private/position/change_position_mode', JSON.stringify({ positionMode: 2 }));
      const creq = contractRequests(Date.now(), contractRefused);
      // Each contract round (and the warm-up) starts from an empty book: see the header comment.
      const cancelAll = () => contractCall(emu.port, '/api/v1/private/order/cancel_all', JSON.stringify({ symbol: 'BTC_USDT' }));
      const cload = async (duration: number) => {
        await cancelAll();
        return autocannon({ url: `http://127.0.0.1:${emu.port}`, connections: CONNECTIONS, duration, pipelining: 1, requests: creq });
      };
      await cload(1);
      contractRefused.count = 0;
      for (let i = 0; i < ROUNDS; i++) {
        bareContractRounds.push(await load(bare.port));
        contractRounds.push(await cload(ROUND_S));
      }
    } finally {
      for (const c of [bare.child, emu.child]) {
        c.removeAllListeners('exit');
        c.kill();
      }
    }
    const best = (rs: AutocannonResult[]) => rs.reduce((a, b) => (b.requests.average > a.requests.average ? b : a));
    const b = best(bareRounds);
    const bc = best(bareContractRounds);
    const e = best(emuRounds);
    const c = best(contractRounds);
    const rates = (rs: AutocannonResult[]) => rs.map((r) => Math.round(r.requests.average)).join(' / ');
    const failedOf = (rs: AutocannonResult[]) => rs.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
    const failed = failedOf(emuRounds);
    return [
      {
        name: `signed spot order placement, ${CONNECTIONS} keep-alive connections`,
        ours: e.requests.average,
        baseline: b.requests.average,
        baselineName: 'bare node:http JSON',
        unit: 'req/s',
        budget: (b.requests.average * 6) / 10,
        higherIsBetter: true,
        note: `best of ${ROUNDS} interleaved ${ROUND_S} s rounds each (emulator ${rates(emuRounds)}, bare ${rates(bareRounds)}); emulator p99 ${e.latency.p99} ms, bare p99 ${b.latency.p99} ms; failed emulator requests ${failed}`,
      },
      // issue 12: the contract placement path beside the same bare endpoint
      {
        name: `signed contract order/create, ${CONNECTIONS} keep-alive connections`,
        ours: c.requests.average,
        baseline: bc.requests.average,
        baselineName: 'bare node:http JSON',
        unit: 'req/s',
        budget: (bc.requests.average * 6) / 10,
        higherIsBetter: true,
        note: `best of ${ROUNDS} interleaved ${ROUND_S} s rounds each (contract ${rates(contractRounds)}, bare ${rates(bareContractRounds)}); p99 ${c.latency.p99} ms, bare p99 ${bc.latency.p99} ms; failed contract requests ${failedOf(contractRounds) + contractRefused.count}`,
      },
      // issue 10: restart time does not grow with the simulated history behind it
      ...(await restartRows()),
    ];
  },
};

if (process.argv[2] === CHILD_FLAG) void runChild(process.argv[3] === 'bare' ? 'bare' : 'emulator');
