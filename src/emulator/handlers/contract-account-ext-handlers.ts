/**
 * Contract fees (contract-api.md §2.6, §4.2, §4.3), profit-and-loss analysis (§4.2) and the
 * market-maker self-trade blacklists (§4.7), on the emulator's AccountExtServices.
 *
 * Choices where the document is silent:
 * - fee_rate: leverageFeeRates only in LEVERAGE mode (each tier with minLeverage / maxLeverage as
 *   extra fields), tieredFeeRates and the tiered settings only in TIERED mode; tieredDealAmount is
 *   the caller's traded amount of the statistic window.
 * - tiered_fee_rate/v2 without a symbol reports the reference contract (BTC_USDT, else the first).
 *   level = 1-based schedule tier in use (0: the contract's base rates); walletBalance = the settle
 *   coin equity at today's 00:00 UTC snapshot (the live equity before the first one).
 * - order_deal_fee/total: the last 30 days, 4 decimals.
 * - The export answers the file in the envelope: data {fileName, fileType, contentType, size,
 *   encoding: "base64", content} (the document gives no data; a JSON client cannot take raw bytes).
 *   timezone-login is required (600 without it); fileType 1 → .xlsx, 2 → .pdf; the period defaults to
 *   the last 30 days.
 * - Blacklists: search answers every group of the caller; create answers the new group's id.
 */
import { Decimal } from '../../core/decimal.js';
import type { ContractFeeSchedule } from '../../venue/fees/contract-fee-schedule.js';
import { currencyOfReverse, type PeriodFigures, type PnlQuery } from '../../venue/analysis/pnl-analysis.js';
import { exportFile, parseUtcOffset } from '../../venue/analysis/pnl-export.js';
import { DAY_MS, dayStart } from '../../venue/analysis/utc-calendar.js';
import type { ContractEngine } from '../engine/contract-engine.js';
import { contractInstrumentOf, type EmulatorContext } from '../emulator-context.js';
import { ContractError } from '../http/wire-error.js';
import type { AccountExtServices } from './account-ext-services.js';
import { idValue, n } from './contract-wire.js';
import { NO_DATA, type ApiCall, type EndpointHandler } from './handler.js';

interface Paging {
  page_num?: number;
  page_size?: number;
}

interface AnalysisFilters {
  reverse?: number;
  includeUnrealisedPnl?: number;
  symbol?: string;
}

const RECENT_DAYS = [60, 90, 120, 150, 180, 360] as const;
const SCOPE: Readonly<Record<number, string>> = { 0: 'all', 1: 'USDT-margined', 2: 'coin-margined', 3: 'USDC-margined' };

/** One request header (names arrive in lower case). */
function headerOf(c: ApiCall<unknown>, name: string): string | undefined {
  const h = c.headers?.[name];
  return Array.isArray(h) ? h[0] : h;
}

export function contractAccountExtHandlers(
  ctx: EmulatorContext,
  engine: ContractEngine,
  ext: AccountExtServices,
): Record<string, EndpointHandler> {
  const reader = engine.reader;
  const fees = ext.contractFees;
  const contractIdOf = (symbol: string) => ctx.contractIds.get(symbol) ?? 0;
  const referenceSymbol = (): string => (ctx.contractInstruments.has('BTC_USDT') ? 'BTC_USDT' : [...ctx.contractInstruments.keys()][0]!);
  const query = (p: AnalysisFilters): PnlQuery => ({
    currency: currencyOfReverse(p.reverse),
    symbol: p.symbol,
    includeUnrealised: p.includeUnrealisedPnl === 1,
  });

  const feeSettings = (account: string, s: ContractFeeSchedule, factor?: Decimal): Record<string, unknown> => {
    const tiered = s.feeRateMode === 'TIERED';
    const t = s.tiered;
    return {
      feeRateMode: s.feeRateMode,
      takerFeeRate: n(s.takerFeeRate),
      makerFeeRate: n(s.makerFeeRate),
      leverageFeeRates:
        s.feeRateMode === 'LEVERAGE'
          ? s.leverageFeeRates.map((l) => ({
              takerFeeRate: n(l.takerFeeRate),
              makerFeeRate: n(l.makerFeeRate),
              minLeverage: l.minLeverage,
              maxLeverage: l.maxLeverage ?? null,
              ...(factor ? { realTakerFee: n(l.takerFeeRate.mul(factor)), realMakerFee: n(l.makerFeeRate.mul(factor)) } : {}),
            }))
          : [],
      tieredFeeRates: tiered
        ? s.tieredFeeRates.map((x) => ({
            takerFeeRate: n(x.takerFeeRate),
            makerFeeRate: n(x.makerFeeRate),
            minTieredDealAmount: n(x.minTieredDealAmount ?? new Decimal(0)),
            ...(x.maxTieredDealAmount !== undefined ? { maxTieredDealAmount: n(x.maxTieredDealAmount) } : {}),
            ...(factor ? { realTakerFee: n(x.takerFeeRate.mul(factor)), realMakerFee: n(x.makerFeeRate.mul(factor)) } : {}),
          }))
        : [],
      tieredDealAmount: tiered ? n(fees.dealAmount(account, s)) : null,
      tieredEffectiveDay: tiered ? t.effectiveDays : null,
      tieredAppointContract: tiered ? t.appointContract : null,
      tieredExcludeContractId: tiered ? t.excludeContractIds : null,
      tieredContractIds: tiered ? t.contracts.map(contractIdOf) : null,
      tieredExcludeZeroFee: tiered ? t.excludeZeroFee : null,
      statisticType: tiered ? t.statisticType : null,
      fixedStartTime: tiered && t.statisticType === 'FIXED' ? (t.fixedStartTime ?? null) : null,
      fixedEndTime: tiered && t.statisticType === 'FIXED' ? (t.fixedEndTime ?? null) : null,
    };
  };
  const schedulesFor = (symbol: string | undefined): ContractFeeSchedule[] => {
    if (symbol === undefined) return fees.schedules();
    contractInstrumentOf(ctx, symbol);
    return [fees.schedule(symbol)!];
  };

  const historyDailyData = (p: PeriodFigures) => ({
    timeList: p.days.map((d) => d.day),
    accumPnlList: p.accumPnl.map(n),
    accumPnlRateList: p.accumRate.map(n),
    dailyPnlList: p.days.map((d) => n(d.pnl)),
    dailyPnlRateList: p.days.map((d) => n(d.rate)),
    dailyEquityList: p.days.map((d) => n(d.equity)),
    dailyIndexPriceRiseFallRateList: p.days.map((d) => n(d.indexChange)),
  });
  const checkSymbol = (symbol: string | undefined) => {
    if (symbol !== undefined) contractInstrumentOf(ctx, symbol);
  };

  return {
    // ---------------------------------------------------------------- fees
    'contract.feeDeductConfigs': () =>
      fees.deductConfigs().map((d) => ({ deductCoin: d.deductCoin, settleCoin: d.settleCoin, discountRatio: n(d.discountRatio) })),
    'contract.contractFeeDiscountConfig': () =>
      fees.discountConfigs().map((c) => ({
        id: c.id,
        currency: c.currency,
        state: c.enabled ? 'ENABLED' : 'DISABLED',
        discountConfig: JSON.stringify(
          c.levels.map((l) => ({
            level: l.level,
            volMin: n(l.volMin),
            volMax: l.volMax === undefined ? null : n(l.volMax),
            day: l.day,
            discount: n(l.discount),
          })),
        ),
        ineffectiveDiscountConfig: '[]',
        blackContractIdSet: c.excludedSymbols.map((s) => String(contractIdOf(s))),
        operator: 'system',
        createTime: c.createTime,
        updateTime: c.updateTime,
        enabled: c.enabled,
      })),
    'contract.discountType': (c: ApiCall) => ({
      useFeeDiscount: c.account!.settings.platformDeduct,
      useFeeDeduct: fees.deductEnabled(c.account!.id),
    }),
    'contract.orderDealFeeTotal': (c: ApiCall) => {
      const t = fees.feeTotals(c.account!.id, 30, c.now);
      return {
        totalFee: n(t.totalFee.toDecimalPlaces(4, Decimal.ROUND_HALF_UP)),
        saveFee: n(t.saveFee.toDecimalPlaces(4, Decimal.ROUND_HALF_UP)),
      };
    },
    'contract.contractFeeRate': (c: ApiCall<{ symbol?: string }>) =>
      schedulesFor(c.params.symbol).map((s) => {
        const i = ctx.contractInstruments.get(s.symbol)!;
        return {
          contractId: contractIdOf(s.symbol),
          symbol: s.symbol,
          isZeroFeeRate: s.isZeroFee,
          maxLeverage: i.maxLeverage,
          ...feeSettings(c.account!.id, s),
          agentFee: 0,
          isMaxLeverage: false,
          countryConfigContractMaxLeverage: i.maxLeverage,
        };
      }),
    'contract.zeroFeeRate': (c: ApiCall<{ symbol?: string }>) => ({
      contracts: schedulesFor(c.params.symbol)
        .filter((s) => s.isZeroFee)
        .map((s) => ({ contractId: contractIdOf(s.symbol), ifHotTag: false })),
      hotRecs: [],
    }),
    'contract.tieredFeeRate': (c: ApiCall<{ symbol?: string }>) => {
      const symbol = c.params.symbol ?? referenceSymbol();
      contractInstrumentOf(ctx, symbol);
      const acct = c.account!.id;
      const q = fees.quote(acct, symbol);
      const settle = q.schedule.settleCoin;
      const snap = ext.pnl.snapshotAt(acct, dayStart(c.now));
      const wallet =
        snap && snap.time <= c.now ? (snap.equity.get(settle) ?? new Decimal(0)) : (reader.asset(acct, settle)?.equity ?? new Decimal(0));
      return {
        originalMakerFee: n(q.original.maker),
        originalTakerFee: n(q.original.taker),
        realMakerFee: n(q.real.maker),
        realTakerFee: n(q.real.taker),
        joinDiscount: q.joinDiscount,
        enjoyDiscount: q.enjoyDiscount,
        joinDeduct: q.joinDeduct,
        enjoyDeduct: q.enjoyDeduct,
        discountRate: n(q.discountRate),
        deductRate: n(q.deductRate),
        dealAmount: n(q.dealAmount),
        walletBalance: n(wallet),
        inviterKyc: false,
        level: q.tier + 1,
        feeType: q.schedule.feeRateMode,
        agentFee: 0,
        ...feeSettings(acct, q.schedule, q.factor),
      };
    },
    'contract.feeDetails': (c: ApiCall<Paging & { symbol: string; ids?: string; start_time?: number; end_time?: number }>) => {
      contractInstrumentOf(ctx, c.params.symbol);
      const acct = c.account!.id;
      const start = c.params.start_time ?? c.now - 7 * DAY_MS;
      const ids = c.params.ids ? new Set(c.params.ids.split(',')) : undefined;
      const all = reader
        .fills(acct, { symbol: c.params.symbol, startTime: start, endTime: c.params.end_time, pageNum: 1, pageSize: 1_000_000 })
        .resultList.filter((f) => !ids || ids.has(String(f.tradeId)));
      const size = c.params.page_size ?? 20;
      const page = c.params.page_num ?? 1;
      return all.slice((page - 1) * size, page * size).map((f) => {
        const d = fees.fillDeduction(acct, String(f.tradeId), f.feeCurrency);
        return {
          id: idValue(String(f.tradeId)),
          symbol: f.symbol,
          orderId: f.orderId,
          feeCurrency: f.feeCurrency,
          fee: n(f.fee),
          deductType: d.deductType,
          deductFeeCurrency: d.deductFeeCurrency,
          deductFee: n(d.deductFee),
          timestamp: f.time,
        };
      });
    },

    // ---------------------------------------------------------------- profit and loss
    'contract.profitRate': (c: ApiCall<{ type: 1 | 2 }>) => {
      const r = ext.analysis.profitRate(c.account!.id, c.params.type);
      return { ranking: r.ranking, profitRate: n(r.profitRate), statisticTime: r.statisticTime };
    },
    'contract.assetAnalysis': (c: ApiCall<{ type: 1 | 2 | 3 | 4; currency: string; startTime?: number; endTime?: number }>) => {
      const acct = c.account!.id;
      const q: PnlQuery = { currency: (x) => x === c.params.currency };
      const span = ext.analysis.periodOfType(acct, c.params.type, c.params);
      const p = ext.analysis.period(acct, span.from, span.to, q);
      const today = ext.analysis.today(acct, q);
      return {
        todayPnl: n(today.pnl),
        todayPnlRate: n(today.rate),
        totalPnl: n(p.totalPnl),
        totalEquity: n(ext.analysis.totalEquity(acct, q)),
        winRate: n(p.winRate),
        historyDailyData: historyDailyData(p),
      };
    },
    'contract.yesterdayPnl': (c: ApiCall) => n(ext.analysis.yesterday(c.account!.id)),
    'contract.assetAnalysisV3': (c: ApiCall<AnalysisFilters & { startTime: number; endTime: number }>) => {
      checkSymbol(c.params.symbol);
      const acct = c.account!.id;
      const q = query(c.params);
      const p = ext.analysis.period(acct, c.params.startTime, c.params.endTime, q);
      const today = ext.analysis.today(acct, q);
      const r7 = ext.analysis.recent(acct, 7, q);
      const r30 = ext.analysis.recent(acct, 30, q);
      return {
        todayPnl: n(today.pnl),
        todayPnlRate: n(today.rate),
        totalPnl: n(p.totalPnl),
        recentPnl: n(r7.pnl),
        recentPnlRate: n(r7.rate),
        recentPnl30: n(r30.pnl),
        recentPnlRate30: n(r30.rate),
        timestamp: c.now,
        historyDailyData: historyDailyData(p),
        accurate: true,
        totalEquity: n(ext.analysis.totalEquity(acct, q)),
        todayPnlFinished: true,
      };
    },
    'contract.calendarDailyPnl': (c: ApiCall<AnalysisFilters & { startTime: number; endTime: number }>) => {
      const days = ext.analysis.calendarDaily(c.account!.id, c.params.startTime, c.params.endTime, query(c.params));
      return { dailyTimeList: days.map((d) => d.day), dailyPnlList: days.map((d) => n(d.pnl)), todayPnlFinished: true };
    },
    'contract.calendarMonthlyPnl': (c: ApiCall<AnalysisFilters>) => {
      const months = ext.analysis.calendarMonthly(c.account!.id, query(c.params));
      return { monthlyTimeList: months.map((m) => m.month), monthlyPnlList: months.map((m) => n(m.pnl)), todayPnlFinished: true };
    },
    'contract.recentPnl': (c: ApiCall<AnalysisFilters>) => {
      checkSymbol(c.params.symbol);
      const out: Record<string, unknown> = {};
      for (const days of RECENT_DAYS) {
        const r = ext.analysis.recent(c.account!.id, days, query(c.params));
        out[`recentPnl${days}`] = n(r.pnl);
        out[`recentPnlRate${days}`] = n(r.rate);
      }
      out.todayPnlFinished = true;
      return out;
    },
    'contract.todayPnl': (c: ApiCall<AnalysisFilters>) => {
      const t = ext.analysis.today(c.account!.id, query(c.params));
      return { todayPnl: n(t.pnl), todayPnlRate: n(t.rate), todayPnlFinished: true };
    },
    'contract.exportAnalysis': (
      c: ApiCall<AnalysisFilters & { startTime?: number; endTime?: number; fileType?: 1 | 2; language?: string }>,
    ) => {
      const tz = headerOf(c, 'timezone-login');
      if (tz === undefined || tz.trim() === '') throw ContractError.paramError('header timezone-login is required (e.g. UTC+8)');
      const offset = parseUtcOffset(tz);
      if (offset === undefined)
        throw ContractError.paramError(`header timezone-login must be a UTC offset such as UTC+8, got ${tz.slice(0, 32)}`);
      checkSymbol(c.params.symbol);
      const acct = c.account!;
      const q = query(c.params);
      const to = c.params.endTime ?? c.now;
      const from = c.params.startTime ?? dayStart(to) - 29 * DAY_MS;
      const p = ext.analysis.period(acct.id, from, to, q);
      const file = exportFile(
        p,
        {
          uid: acct.uid,
          generatedAt: c.now,
          utcOffsetMinutes: offset,
          timezoneLabel: tz.trim(),
          symbol: c.params.symbol,
          scope: SCOPE[c.params.reverse ?? 0] ?? 'all',
          includeUnrealised: q.includeUnrealised === true,
          totalEquity: ext.analysis.totalEquity(acct.id, q),
        },
        c.params.fileType ?? 1,
      );
      return {
        fileName: file.fileName,
        fileType: file.fileType,
        contentType: file.contentType,
        size: file.bytes.length,
        encoding: 'base64',
        content: file.bytes.toString('base64'),
      };
    },

    // ---------------------------------------------------------------- market-maker STP blacklists
    'contract.stpBlacklist': (c: ApiCall<{ configName?: string }>) =>
      ext.blacklists.list(c.account!.id, c.params.configName).map(blacklistWire),
    'contract.searchStpBlacklist': (c: ApiCall) => ext.blacklists.list(c.account!.id).map(blacklistWire),
    'contract.createStpBlacklist': (c: ApiCall<{ configName: string; blacklist: number[] }>) => {
      const r = ext.blacklists.create(c.account!.id, c.params.configName, c.params.blacklist.map(String));
      if (!r.ok) throw ContractError.paramError(r.message);
      return r.value.id;
    },
    'contract.updateStpBlacklist': (c: ApiCall<{ configName: string; blacklist: number[] }>) => {
      const r = ext.blacklists.update(c.account!.id, c.params.configName, c.params.blacklist.map(String));
      if (!r.ok) throw ContractError.paramError(r.message);
      return NO_DATA;
    },
    'contract.deleteStpBlacklist': (c: ApiCall<{ configName: string }>) => {
      const r = ext.blacklists.delete(c.account!.id, c.params.configName);
      if (!r.ok) throw ContractError.paramError(r.message);
      return NO_DATA;
    },
  };
}

function blacklistWire(g: { groupName: string; uids: readonly string[]; createTime: number; updateTime: number }): Record<string, unknown> {
  return { groupName: g.groupName, blackList: [...g.uids], createTime: g.createTime, updateTime: g.updateTime };
}
