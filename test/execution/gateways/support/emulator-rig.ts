/**
 * The in-process emulator over real HTTP for the integration tests: one VirtualClock shared by the
 * emulator (its market model's timers) and our clients, a counting transport so a test can see how
 * many requests went out, and the registry built from the emulator's own exchangeInfo / detail.
 */
import { startEmulator, type RunningEmulator } from '../../../../src/emulator/start-emulator.js';
import { SpotClient } from '../../../../src/client/spot-client.js';
import { ContractClient } from '../../../../src/client/contract-client.js';
import { HttpTransport, type Transport, type TransportRequest, type TransportResponse } from '../../../../src/client/transport.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import { InstrumentRegistry } from '../../../../src/domain/instrument-registry.js';
import { toSpotInstruments } from '../../../../src/api/spot/to-spot-instrument.js';
import { toContractInstrument } from '../../../../src/api/contract/to-contract-instrument.js';
import { asList } from '../../../../src/api/contract/market-schemas.js';

/** 2026-01-01T00:00:00Z */
export const T0 = 1_767_225_600_000;
export const ALICE = { apiKey: 'mx0vglGatewayKey1', secretKey: 'gateway-secret-0123456789abcdef' } as const;

/** Counts what goes out, per path without the query. */
export class CountingTransport implements Transport {
  readonly sent: string[] = [];
  constructor(private readonly inner: Transport) {}
  send(request: TransportRequest): Promise<TransportResponse> {
    this.sent.push(`${request.method} ${request.path.split('?')[0]}`);
    return this.inner.send(request);
  }
  count(pathPart: string): number {
    return this.sent.filter((s) => s.includes(pathPart)).length;
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

export interface EmulatorRig {
  readonly clock: VirtualClock;
  readonly emu: RunningEmulator;
  readonly spot: SpotClient;
  readonly contract: ContractClient;
  readonly spotWire: CountingTransport;
  readonly contractWire: CountingTransport;
  readonly instruments: InstrumentRegistry;
  close(): Promise<void>;
}

export async function startRig(options: { marketStopped?: boolean } = {}): Promise<EmulatorRig> {
  const clock = new VirtualClock(T0);
  const emu = await startEmulator(
    {
      seed: 11,
      clock: { mode: 'virtual', start: T0, stepMs: 0 },
      rateLimits: { enabled: false },
      accounts: [
        {
          name: 'gateway',
          uid: '20000001',
          apiKey: ALICE.apiKey,
          secretKey: ALICE.secretKey,
          spot: { balances: { USDT: '100000', BTC: '2' } },
          contract: { balances: { USDT: '100000' } },
        },
      ],
    },
    { clock, ...(options.marketStopped ? { marketStopped: true } : {}) },
  );
  const spotWire = new CountingTransport(new HttpTransport({ baseUrl: emu.url, clock }));
  const contractWire = new CountingTransport(new HttpTransport({ baseUrl: emu.url, clock }));
  const common = {
    baseUrl: emu.url,
    clock,
    credentials: { apiKey: ALICE.apiKey, secretKey: ALICE.secretKey },
    timeSync: false as const,
    rateLimits: false as const,
  };
  const spot = new SpotClient({ ...common, transport: spotWire });
  const contract = new ContractClient({ ...common, transport: contractWire });
  const instruments = new InstrumentRegistry();
  const defaults = new Set(await spot.defaultSymbols());
  for (const i of toSpotInstruments(await spot.exchangeInfo({}), defaults)) instruments.upsert(i);
  for (const d of asList(await contract.contractDetail({}))) instruments.upsert(toContractInstrument(d));
  spotWire.sent.length = 0;
  contractWire.sent.length = 0;
  return {
    clock,
    emu,
    spot,
    contract,
    spotWire,
    contractWire,
    instruments,
    async close() {
      await spot.close();
      await contract.close();
      await emu.stop();
    },
  };
}

/** Waits (real time, at most `ms`) until `cond` holds: HTTP answers arrive on the event loop. */
export async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise<void>((r) => setImmediate(r));
  }
}
