/**
 * Backtest configs over the real excerpts in test/fixtures/data/backtest (never ../shared): a spot
 * market maker on 60 s of Binance BTCUSDT L2 + trades, and the perpetual trend strategy on 600
 * one-minute bars of the Binance BTCUSDT perpetual with the funding settlements of those hours.
 */
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../support/project-root.js';
import { strategyCatalog } from '../../../src/runtime/container/strategy-module.js';
import { parseBacktestConfig, type BacktestConfig } from '../../../src/backtest/backtest-config.js';

export const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'data', 'backtest');
export const SPOT_L2_FILE = join(FIXTURES, 'binance_spot_btcusdt_20240808.first60s.nobookticker.gz');
export const PERP_KLINES_FILE = join(FIXTURES, 'binance_usdm_BTCUSDT_perp_1m_2025-05-04.head600.csv');
export const PERP_FUNDING_FILE = join(FIXTURES, 'binance_usdm_BTCUSDT_funding_rate_8h_2025-05-04.rows.csv');

export function spotMmDoc(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    instruments: ['BTCUSDT'],
    marketData: { maxSnapshotAgeMs: 5000, spot: { cycleMs: 1000, streams: { depth: { limit: 20 }, trades: { limit: 20 } } } },
    strategies: [
      {
        id: 'mm',
        name: 'spot-market-maker',
        instruments: ['BTCUSDT'],
        params: { spreadBps: 1, orderSize: '0.002', maxInventory: '0.02', requoteBps: 1, minRepeatMs: 1000, postOnly: true },
      },
    ],
    execution: { reconcileIntervalMs: 2000 },
    backtest: {
      initialCapital: '100000',
      seed: 7,
      samplePeriodMs: 1000,
      pollLatencyMs: 50,
      instruments: { BTCUSDT: { preset: 'BTCUSDT', fees: { maker: '0', taker: '0.0005' } } },
      data: [{ kind: 'l2', files: [SPOT_L2_FILE], market: 'spot', symbol: 'BTCUSDT' }],
    },
    ...overrides,
  };
}

export function perpTrendDoc(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    instruments: ['BTC_USDT'],
    marketData: {
      maxSnapshotAgeMs: 120000,
      contract: { cycleMs: 60000, streams: { klines: { intervals: ['Min1'], limit: 60 }, ticker: {} } },
    },
    strategies: [
      {
        id: 'trend',
        name: 'perp-trend',
        instruments: ['BTC_USDT'],
        params: { leverage: 5, interval: 'Min1', fastPeriod: 5, slowPeriod: 20, size: '100', takeProfitPct: 0.6, stopLossPct: 0.3 },
      },
    ],
    execution: { reconcileIntervalMs: 60000 },
    backtest: {
      initialCapital: '10000',
      seed: 11,
      samplePeriodMs: 60000,
      pollLatencyMs: 200,
      instruments: { BTC_USDT: { preset: 'BTC_USDT', source: { market: 'contract', symbol: 'BTCUSDT', quantityUnit: 'base' } } },
      data: [
        { kind: 'klines', files: [PERP_KLINES_FILE], market: 'contract', symbol: 'BTCUSDT', interval: '1m' },
        { kind: 'funding', files: [PERP_FUNDING_FILE], market: 'contract', symbol: 'BTCUSDT' },
      ],
    },
    ...overrides,
  };
}

export const spotMmConfig = (overrides: Record<string, unknown> = {}): BacktestConfig =>
  parseBacktestConfig(spotMmDoc(overrides), strategyCatalog(), 'spot-mm test config');
export const perpTrendConfig = (overrides: Record<string, unknown> = {}): BacktestConfig =>
  parseBacktestConfig(perpTrendDoc(overrides), strategyCatalog(), 'perp-trend test config');
