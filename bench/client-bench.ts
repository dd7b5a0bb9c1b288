/**
 * Client hot path per call: validate + build + sign a request, and decode + schema-parse its answer,
 * next to a baseline measured in the same run on the same input (a bare HMAC-SHA256 of the same signed
 * string plus a bare JSON.parse of the same body). The ratio is the price of validation, encoding,
 * envelope handling, long-id protection and the response schema.
 */
import { createHmac } from 'node:crypto';
import { spotCatalogue } from '../src/api/spot/catalogue.js';
import { contractCatalogue } from '../src/api/contract/catalogue.js';
import { ContractSigner } from '../src/client/contract-signer.js';
import { buildRequest } from '../src/client/request-builder.js';
import { decodeResponse } from '../src/client/response-decoder.js';
import { SpotSigner } from '../src/client/spot-signer.js';
import { measure, type BenchRow, type BenchSuite } from './bench-row.js';

const SECRET = '45d0b3c26f2644f19bfb98b07741b2f5';
const API_KEY = 'mx0vglBenchKey';
const NOW = 1_767_204_000_000;
const BATCH = 200;

// Answers as the venue sends them (spot_POST_api_v3_order.json, contract_POST_api_v1_private_order_create.json).
const SPOT_ORDER_BODY =
  '{"symbol":"MXUSDT","orderId":"06a480e69e604477bfb48dddd5f0b750","orderListId":-1,"price":"0.1","origQty":"50","type":"LIMIT","side":"BUY","transactTime":1666676533741}';
const CONTRACT_ORDER_BODY = '{"success":true,"code":0,"data":{"orderId":"814218083416790528","ts":1779795118533}}';

/** A 100-level spot depth answer shaped like spot_GET_api_v3_depth.json. */
function depthBody(levels: number): string {
  const side = (base: number, dir: number) =>
    Array.from({ length: levels }, (_, i) => [(base + dir * i * 0.01).toFixed(2), ((i % 7) * 0.013 + 0.001).toFixed(8)]);
  return JSON.stringify({ lastUpdateId: 56217769552, bids: side(87900, -1), asks: side(87900.01, 1), timestamp: 1767205854814 });
}

function nsPerCall(fn: () => void, minMs: number): number {
  const r = measure(() => {
    for (let i = 0; i < BATCH; i++) fn();
    return BATCH;
  }, minMs);
  return 1e9 / r.opsPerSec;
}

export const suite: BenchSuite = {
  title: 'client',
  async run(): Promise<BenchRow[]> {
    const spotSigner = new SpotSigner({ apiKey: API_KEY, secretKey: SECRET });
    const contractSigner = new ContractSigner({ apiKey: API_KEY, secretKey: SECRET });
    const spotOrder = spotCatalogue.newOrder;
    const contractOrder = contractCatalogue.createOrder;
    const depth = spotCatalogue.depth;
    const headers = {};
    const minMs = 1_500;

    // the exact strings the real path signs, so the baseline hashes the same bytes
    const spotReq = buildRequest(spotOrder, spotOrder.example, { now: NOW, recvWindowMs: 5_000, spotSigner });
    const spotSigned = spotReq.path.slice(spotReq.path.indexOf('?') + 1, spotReq.path.lastIndexOf('&signature='));
    const contractReq = buildRequest(contractOrder, contractOrder.example, { now: NOW, contractSigner });
    const contractSigned = `${API_KEY}${NOW}${contractReq.body ?? ''}`;
    const depthText = depthBody(100);

    const check = (ok: boolean, what: string): void => {
      if (!ok) throw new Error(`client bench: ${what} failed to decode`);
    };
    check(decodeResponse(spotOrder, { status: 200, headers, body: SPOT_ORDER_BODY }, NOW).ok, 'spot order');
    check(decodeResponse(contractOrder, { status: 200, headers, body: CONTRACT_ORDER_BODY }, NOW).ok, 'contract order');
    check(decodeResponse(depth, { status: 200, headers, body: depthText }, NOW).ok, 'depth');

    let sink = 0;
    const spotOurs = nsPerCall(() => {
      const r = buildRequest(spotOrder, spotOrder.example, { now: NOW, recvWindowMs: 5_000, spotSigner });
      const d = decodeResponse(spotOrder, { status: 200, headers, body: SPOT_ORDER_BODY }, NOW);
      sink += r.path.length + (d.ok ? 1 : 0);
    }, minMs);
    const spotBase = nsPerCall(() => {
      const sig = createHmac('sha256', SECRET).update(spotSigned).digest('hex');
      const v = JSON.parse(SPOT_ORDER_BODY) as { orderId: string };
      sink += sig.length + v.orderId.length;
    }, minMs);

    const contractOurs = nsPerCall(() => {
      const r = buildRequest(contractOrder, contractOrder.example, { now: NOW, contractSigner });
      const d = decodeResponse(contractOrder, { status: 200, headers, body: CONTRACT_ORDER_BODY }, NOW);
      sink += r.path.length + (d.ok ? 1 : 0);
    }, minMs);
    const contractBase = nsPerCall(() => {
      const body = JSON.stringify(contractOrder.example);
      const sig = createHmac('sha256', SECRET).update(contractSigned).digest('hex');
      const v = JSON.parse(CONTRACT_ORDER_BODY) as { data: unknown };
      sink += sig.length + body.length + (v.data ? 1 : 0);
    }, minMs);

    const depthOurs = nsPerCall(() => {
      const d = decodeResponse(depth, { status: 200, headers, body: depthText }, NOW);
      sink += d.ok ? 1 : 0;
    }, minMs);
    const depthBase = nsPerCall(() => {
      const v = JSON.parse(depthText) as { bids: unknown[] };
      sink += v.bids.length;
    }, minMs);

    if (sink === 42) process.stderr.write('');
    return [
      {
        name: 'spot newOrder: validate+build+sign + decode answer',
        ours: spotOurs,
        baseline: spotBase,
        baselineName: 'bare HMAC + JSON.parse',
        unit: 'ns/call',
        higherIsBetter: false,
      },
      {
        name: 'contract createOrder: validate+build+sign + decode answer',
        ours: contractOurs,
        baseline: contractBase,
        baselineName: 'JSON.stringify + bare HMAC + JSON.parse',
        unit: 'ns/call',
        higherIsBetter: false,
      },
      {
        name: 'spot depth (100 levels/side): decode + schema to Decimal',
        ours: depthOurs,
        baseline: depthBase,
        baselineName: 'JSON.parse',
        unit: 'ns/call',
        higherIsBetter: false,
        note: 'the depth schema turns 400 price/qty strings into Decimal; the baseline keeps strings',
      },
    ];
  },
};
