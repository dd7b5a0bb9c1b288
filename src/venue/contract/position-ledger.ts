/**
 * Positions and their margin: opening and closing position records (with the fill journal the
 * invariants check), and the commands that change a position's margin, leverage, automatic top-up or
 * the account's position mode. A leverage change can breach maintenance, so it asks the liquidation
 * engine (wired in by the facade through LiquidationCheck, the engine sitting above this module).
 */
import { D, Decimal } from '../../core/decimal.js';
import { positionId as toPositionId } from '../../core/ids.js';
import {
  ContractOrderErrorCode,
  OpenType,
  PositionMode,
  PositionState,
  PositionType,
  type MarginChangeType,
} from '../../domain/contract-enums.js';
import { ContractVenueCode } from './contract-codes.js';
import { ContractPosition } from './contract-position.js';
import type { ChangeLeverageRequest, ChangeMarginRequest, VenueResult } from './contract-requests.js';
import { AccountState, ZERO, frozenOf, type MarketState, type OrderState, type SideSettings } from './contract-state.js';
import type { ContractPositionView, LeverageView } from './contract-views.js';
import { initialMargin, unrealisedPnl } from './margin-math.js';
import { unitsToDecimal } from '../ledger/ledger-units.js';
import { tierForVol } from './risk-tiers.js';
import { posKey, sideKey } from './venue-keys.js';
import { accountChanged } from './account-changes.js';
import { refuse, type ContractVenueState, type LiquidationCheck } from './contract-venue-state.js';
import type { VenueMoney } from './venue-money.js';
import type { ContractViewBuilder } from './contract-view-builder.js';
import { isLiquidatable } from './never-liquidated.js';

export class PositionLedger {
  constructor(
    private readonly s: ContractVenueState,
    private readonly money: VenueMoney,
    private readonly views: ContractViewBuilder,
    private readonly risk: LiquidationCheck,
  ) {}

  positionFor(acct: AccountState, m: MarketState, type: PositionType, openType: OpenType, leverage: number): ContractPosition {
    const key = posKey(m.spec.symbol, type);
    let p = acct.positions.get(key);
    if (p === undefined) {
      const id = toPositionId(this.s.idBase + ++this.s.positionSeq);
      p = new ContractPosition(id, m.spec, type, acct.exempt ? OpenType.CROSS : openType, acct.exempt ? 1 : leverage, this.s.clock.now());
      acct.positions.set(key, p);
      this.s.positionsById.set(id, { account: acct, position: p });
      this.s.positionFills.set(id, { opened: 0, closed: 0 });
      m.holders.add(acct);
      if (isLiquidatable(acct)) {
        p.watch = this.s.liquidationIndex;
        p.watch.touched(p);
      }
    }
    return p;
  }

  closePosition(acct: AccountState, p: ContractPosition): void {
    if (p.state === PositionState.CLOSED) return;
    p.state = PositionState.CLOSED;
    p.watch?.touched(p);
    // Anything left (the floor of pro-rata releases) goes back to the wallet with the last close.
    if (!p.imCell.isZero()) {
      acct.wallet(p.spec.settleCoin).freeCell.addCell(p.imCell);
      p.im = ZERO;
    }
    p.oimCell.setUnits(0n);
    const key = posKey(p.spec.symbol, p.positionType);
    if (acct.positions.get(key) === p) acct.positions.delete(key);
    this.s.positionsById.delete(p.positionId);
    const m = this.s.markets.get(p.spec.symbol)!;
    if (!acct.positions.has(posKey(p.spec.symbol, PositionType.LONG)) && !acct.positions.has(posKey(p.spec.symbol, PositionType.SHORT)))
      m.holders.delete(acct);
    const dropped = acct.historyPositions.push(p, this.s.historyLimit);
    if (dropped) this.s.positionFills.delete(dropped.positionId);
    this.s.triggers.onPositionClosed(p.positionId);
  }

  journal(p: ContractPosition, opened: number, closed: number): void {
    const j = this.s.positionFills.get(p.positionId)!;
    j.opened += opened;
    j.closed += closed;
  }

  changeMargin(accountIdIn: string, req: ChangeMarginRequest): VenueResult<ContractPositionView> {
    let result: VenueResult<ContractPositionView> | undefined;
    this.s.run(() => {
      result = this.doChangeMargin(accountIdIn, req.positionId, D(req.amount), req.type);
    });
    return result!;
  }

  private doChangeMargin(
    accountIdIn: string,
    positionIdIn: string | number,
    amount: Decimal,
    type: MarginChangeType,
  ): VenueResult<ContractPositionView> {
    const found = this.s.findPosition(accountIdIn, positionIdIn);
    if (found === undefined) return refuse(ContractVenueCode.POSITION_NOT_EXIST, 'position does not exist or is closed');
    const { account: acct, position: pos } = found;
    if (!amount.gt(0)) return refuse(ContractVenueCode.PARAMETER, 'amount must be > 0');
    if (pos.openType !== OpenType.ISOLATED) return refuse(ContractVenueCode.PARAMETER, 'margin can be changed on isolated positions only');
    const w = acct.wallet(pos.spec.settleCoin);
    if (type === 'ADD') {
      if (amount.gt(this.money.availableOpen(acct, w.currency)))
        return refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance');
      w.free = w.free.sub(amount);
      pos.im = pos.im.add(amount);
    } else if (type === 'SUB') {
      if (amount.gt(this.maxRemovableMargin(pos)))
        return refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'amount exceeds the removable margin');
      pos.im = pos.im.sub(amount);
      w.free = w.free.add(amount);
    } else {
      return refuse(ContractVenueCode.PARAMETER, 'type must be ADD or SUB');
    }
    pos.updateTime = this.s.clock.now();
    this.views.emitPosition(acct, pos);
    return { ok: true, value: this.views.positionView(acct, pos) };
  }

  /** Margin above the initial requirement at the entry price, less any unrealised loss. */
  private maxRemovableMargin(pos: ContractPosition): Decimal {
    const m = this.s.markets.get(pos.spec.symbol)!;
    const mark = this.s.markPrice(m);
    const upnl = mark ? unrealisedPnl(pos.figures(), mark) : ZERO;
    const required = initialMargin(pos.costValue, pos.leverage, this.s.scale, 'ceil');
    return Decimal.max(ZERO, pos.im.add(Decimal.min(ZERO, upnl)).sub(required));
  }

  changeAutoAddIm(accountIdIn: string, positionIdIn: string | number, isEnabled: boolean): VenueResult<ContractPositionView> {
    let result: VenueResult<ContractPositionView> | undefined;
    this.s.run(() => {
      const found = this.s.findPosition(accountIdIn, positionIdIn);
      if (found === undefined) {
        result = refuse(ContractVenueCode.POSITION_NOT_EXIST, 'position does not exist or is closed');
        return;
      }
      if (found.position.openType !== OpenType.ISOLATED) {
        result = refuse(ContractVenueCode.PARAMETER, 'automatic margin top-up applies to isolated positions only');
        return;
      }
      found.position.autoAddIm = isEnabled;
      found.position.updateTime = this.s.clock.now();
      this.views.emitPosition(found.account, found.position);
      result = { ok: true, value: this.views.positionView(found.account, found.position) };
    });
    return result!;
  }

  changeLeverage(accountIdIn: string, req: ChangeLeverageRequest): VenueResult<readonly LeverageView[]> {
    let result: VenueResult<readonly LeverageView[]> | undefined;
    this.s.run(() => {
      result = this.doChangeLeverage(accountIdIn, req);
    });
    return result!;
  }

  private doChangeLeverage(accountIdIn: string, req: ChangeLeverageRequest): VenueResult<readonly LeverageView[]> {
    const L = req.leverage;
    let acct: AccountState;
    let m: MarketState;
    let positionType: PositionType;
    let openType: OpenType | undefined;
    let pos: ContractPosition | undefined;
    if (req.positionId !== undefined && req.positionId !== '' && String(req.positionId) !== '0') {
      const found = this.s.findPosition(accountIdIn, req.positionId);
      if (found === undefined) return refuse(ContractVenueCode.POSITION_NOT_EXIST, 'position does not exist or is closed');
      acct = found.account;
      pos = found.position;
      m = this.s.markets.get(pos.spec.symbol)!;
      positionType = pos.positionType;
      openType = pos.openType;
    } else {
      if (!req.symbol || req.positionType === undefined || req.openType === undefined) {
        return refuse(ContractVenueCode.PARAMETER, 'symbol, openType and positionType are required when no position is given');
      }
      const mm = this.s.markets.get(req.symbol);
      if (mm === undefined) return refuse(ContractVenueCode.CONTRACT_NOT_EXIST, 'contract does not exist');
      if (req.positionType !== PositionType.LONG && req.positionType !== PositionType.SHORT)
        return refuse(ContractVenueCode.PARAMETER, 'positionType must be 1 or 2');
      if (req.openType !== OpenType.ISOLATED && req.openType !== OpenType.CROSS)
        return refuse(ContractVenueCode.PARAMETER, 'openType must be 1 or 2');
      m = mm;
      acct = this.s.account(accountIdIn);
      positionType = req.positionType;
      openType = req.openType;
      pos =
        acct.positionMode === PositionMode.ONE_WAY
          ? this.s.netPosition(acct, m.spec.symbol)
          : acct.positions.get(posKey(m.spec.symbol, positionType));
      if (pos && pos.openType !== openType) return refuse(ContractVenueCode.WRONG_OPEN_TYPE, 'open type differs from the open position');
    }
    const inst = m.spec.instrument;
    if (!Number.isInteger(L) || L < inst.minLeverage || L > inst.maxLeverage) {
      return refuse(ContractVenueCode.LEVERAGE_ERROR, `leverage must be an integer within [${inst.minLeverage}, ${inst.maxLeverage}]`);
    }
    const symbol = m.spec.symbol;
    const key = sideKey(acct.positionMode, symbol, positionType);
    const orders = [...acct.openOrders.values()].filter(
      (o) => !o.closing && o.market === m && sideKey(acct.positionMode, symbol, o.isBuy ? PositionType.LONG : PositionType.SHORT) === key,
    );
    if (orders.some((o) => o.openType !== openType))
      return refuse(ContractVenueCode.WRONG_OPEN_TYPE, 'open orders of this side use the other open type');
    const sizeLots = (pos?.holdLots ?? 0) + orders.reduce((s, o) => s + o.lots - o.dealLots, 0);
    const tier = tierForVol(m.spec.tiers, m.spec.lotsToVol(sizeLots));
    if (tier === undefined || L > tier.maxLeverage)
      return refuse(
        ContractVenueCode.RISK_LIMIT_LEVEL,
        'leverage above the risk tier of the position size',
        ContractOrderErrorCode.RISK_LIMIT_EXCEEDED,
      );
    const w = acct.wallet(m.spec.settleCoin);
    // Cost of the change: more position margin when lowering the leverage, re-priced order margin.
    const posTopUp = pos ? Decimal.max(ZERO, initialMargin(pos.costValue, L, this.s.scale, 'ceil').sub(pos.im)) : ZERO;
    let orderDelta = 0n;
    const newFrozen = new Map<OrderState, bigint>();
    for (const o of orders) {
      const f = this.money.orderMarginAt(o, o.lots - o.dealLots, L);
      newFrozen.set(o, f);
      orderDelta += f - frozenOf(o);
    }
    if (posTopUp.add(unitsToDecimal(orderDelta)).gt(this.money.availableOpen(acct, w.currency)))
      return refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance for this leverage');
    const now = this.s.clock.now();
    if (pos) {
      w.free = w.free.sub(posTopUp);
      pos.im = pos.im.add(posTopUp);
      pos.oim = pos.oim.add(posTopUp);
      pos.leverage = L;
      pos.updateTime = now;
    }
    for (const o of orders) {
      const f = newFrozen.get(o)!;
      const was = frozenOf(o);
      w.freeCell.addUnits(-(f - was));
      w.frozenCell.addUnits(f - was);
      o.frozenUnits = f;
      o.frozenGrains = 0;
      o.leverage = L;
      o.updateTime = now;
    }
    const s: SideSettings = acct.settings.get(key) ?? { leverage: undefined, openType: undefined };
    s.leverage = L;
    s.openType = openType;
    acct.settings.set(key, s);
    // Open orders' leverage and margin changed even without a position (whose event would say so).
    accountChanged(acct);
    if (pos) this.views.emitPosition(acct, pos);
    this.risk.checkLiquidations(m, [acct]);
    return { ok: true, value: this.views.leverageRows(acct, m) };
  }

  /** Succeeds only with no open orders and no open positions (contract-api.md §3). */
  changePositionMode(accountIdIn: string, mode: PositionMode): VenueResult<PositionMode> {
    if (mode !== PositionMode.HEDGED && mode !== PositionMode.ONE_WAY)
      return refuse(ContractVenueCode.PARAMETER, 'positionMode must be 1 or 2');
    let result: VenueResult<PositionMode> | undefined;
    this.s.run(() => {
      const acct = this.s.account(accountIdIn);
      if (acct.openOrders.size > 0) {
        result = refuse(ContractVenueCode.ACTIVE_OPEN_POSITION, 'active orders exist');
        return;
      }
      if (acct.positions.size > 0) {
        result = refuse(ContractVenueCode.ACTIVE_OPEN_POSITION, 'open positions exist');
        return;
      }
      if (this.s.triggers.hasPending(acct.id)) {
        result = refuse(ContractVenueCode.ACTIVE_OPEN_POSITION, 'plan or trailing orders exist');
        return;
      }
      if (acct.positionMode !== mode) {
        acct.positionMode = mode;
        accountChanged(acct);
        // Settings are keyed per side in hedged mode and per contract in one-way mode; neither
        // carries over. With no position the risk tier is 1, which is the reset the doc asks for.
        acct.settings.clear();
        this.s.emit(() => ({ type: 'PositionModeChanged', time: this.s.clock.now(), accountId: acct.id, positionMode: mode }));
      }
      result = { ok: true, value: mode };
    });
    return result!;
  }
}
