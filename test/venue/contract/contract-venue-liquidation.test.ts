import { expect } from 'chai';
import { OrderCategory, OpenType, PositionType } from '../../../src/domain/contract-enums.js';
import type { PositionLiquidated } from '../../../src/venue/contract/contract-events.js';
import { makeKit, placed, S, SYMBOL, T, type Kit } from './contract-test-kit.js';

const money = (v: { toString(): string }): string => v.toString();

function assertClean(kit: Kit): void {
  expect(kit.problems).to.deep.equal([]);
  expect(kit.venue.checkInvariants()).to.deep.equal([]);
}

function arrange(leverage: number, openType: OpenType = OpenType.ISOLATED, deposit = 10000): Kit {
  const kit = makeKit();
  kit.venue.deposit('alice', 'USDT', deposit);
  kit.venue.deposit('mm', 'USDT', 1000000);
  kit.venue.setFairPrice(SYMBOL, 50000);
  placed(kit.venue, 'mm', { side: S.OPEN_SHORT, vol: 1000, price: 50000 });
  placed(kit.venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50000, leverage, openType });
  return kit;
}

const liquidations = (kit: Kit): PositionLiquidated[] => kit.events.filter((e): e is PositionLiquidated => e.type === 'PositionLiquidated');

describe('ContractVenue liquidation', () => {
  it('liquidates_an_isolated_long_when_the_fair_price_crosses_its_liquidation_price', () => {
    const kit = arrange(10);
    const { venue } = kit;
    // liquidation price (5000 − 500) / (0.1 · 0.996) = 45180.7228…
    // at 45180.8: balance 500 + 4518.08 − 5000 = 18.08 > maintenance 0.004 · 4518.08 = 18.07232 → kept
    venue.setFairPrice(SYMBOL, '45180.8');
    expect(venue.openPositions('alice').length).to.equal(1);
    // at 45180.7: balance 18.07 ≤ 18.07228 → liquidated
    venue.setFairPrice(SYMBOL, '45180.7');
    expect(venue.openPositions('alice')).to.deep.equal([]);
    const [liq] = liquidations(kit);
    const l = liq!.liquidation;
    expect(l.liquidationPrice!.toDecimalPlaces(4).toString()).to.equal('45180.7229');
    // bankruptcy (5000 − 500) / 0.1 = 45000, exactly on a tick → taken over at 45000, PnL −500
    expect(money(l.bankruptcyPrice!)).to.equal('45000');
    expect(money(l.closePrice)).to.equal('45000');
    expect(money(l.realised)).to.equal('-500');
    expect(money(l.liquidationFee)).to.equal('0');
    // the account keeps its free balance, loses exactly the position margin
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9497');
    expect(money(venue.asset('alice', 'USDT')!.equity)).to.equal('9497');
    const hist = venue.historyPositions('alice').resultList[0]!;
    expect(money(hist.realised)).to.equal('-503'); // −500 − open fee 3
    const liqOrder = venue.getOrder('alice', l.orderId)!;
    expect(liqOrder.category).to.equal(OrderCategory.LIQUIDATION_CUSTODY);
    expect(money(liqOrder.dealAvgPrice)).to.equal('45000');
    // the insurance fund now holds the long: (45180.7 − 45000) · 0.1 = 18.07 in its favour
    const ins = venue.insurancePositions();
    expect(ins.map((p) => `${p.positionType}:${p.holdVol.toString()}@${p.holdAvgPrice.toString()}`)).to.deep.equal(['1:1000@45000']);
    expect(money(ins[0]!.unrealised)).to.equal('18.07');
    expect(money(venue.insuranceFund('USDT').available)).to.equal('1000');
    assertClean(kit);
  });

  it('pays_the_bankruptcy_rounding_to_the_insurance_fund', () => {
    const kit = arrange(7);
    const { venue } = kit;
    // IM = floor8(5000 / 7) = 714.28571428; free 10000 − 714.28571428 − 3 = 9282.71428572
    expect(money(venue.openPositions('alice')[0]!.im)).to.equal('714.28571428');
    // liquidation (5000 − 714.28571428) / 0.0996 = 43029.2598…; shown rounded up: 43029.3
    expect(money(venue.openPositions('alice')[0]!.liquidatePrice!)).to.equal('43029.3');
    venue.setFairPrice(SYMBOL, '43029.3');
    expect(venue.openPositions('alice').length).to.equal(1);
    venue.setFairPrice(SYMBOL, '43029.2');
    const l = liquidations(kit)[0]!.liquidation;
    // bankruptcy 4285.71428572 / 0.1 = 42857.1428572 → rounded UP to 42857.2 (the account's side)
    // PnL (42857.2 − 50000) · 0.1 = −714.28; what is left of the margin, 0.00571428, goes to the fund
    expect(money(l.closePrice)).to.equal('42857.2');
    expect(money(l.realised)).to.equal('-714.28');
    expect(money(l.liquidationFee)).to.equal('0.00571428');
    expect(money(venue.insuranceFund('USDT').available)).to.equal('1000.00571428');
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9282.71428572');
    assertClean(kit);
  });

  it('liquidates_an_isolated_short_above_its_liquidation_price', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('alice', 'USDT', 10000);
    venue.deposit('mm', 'USDT', 1000000);
    venue.setFairPrice(SYMBOL, 50000);
    placed(venue, 'mm', { side: S.OPEN_LONG, vol: 1000, price: 50000 });
    placed(venue, 'alice', { side: S.OPEN_SHORT, vol: 1000, price: 50000 });
    // (5000 + 500) / (0.1 · 1.004) = 54780.876…
    venue.setFairPrice(SYMBOL, '54780.8');
    expect(venue.openPositions('alice').length).to.equal(1);
    venue.setFairPrice(SYMBOL, '54780.9');
    const l = liquidations(kit)[0]!.liquidation;
    expect(l.positionType).to.equal(PositionType.SHORT);
    // bankruptcy (5000 + 500)/0.1 = 55000 → PnL (50000 − 55000)·0.1 = −500
    expect(money(l.closePrice)).to.equal('55000');
    expect(money(l.realised)).to.equal('-500');
    assertClean(kit);
  });

  it('cancels_the_positions_orders_before_liquidating', () => {
    const kit = arrange(10);
    const { venue } = kit;
    placed(venue, 'alice', { side: S.CLOSE_LONG, vol: 500, price: 60000 });
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 10, price: 46000 });
    placed(venue, 'alice', { side: S.OPEN_SHORT, vol: 10, price: 60000 });
    venue.setFairPrice(SYMBOL, 45000);
    const open = venue.openOrders('alice').resultList;
    // the close order and the long-side opening order are gone; the short-side order stays
    expect(open.map((o) => o.side)).to.deep.equal([S.OPEN_SHORT]);
    const cancelled = kit.events.filter((e) => e.type === 'OrderCancelled' && e.reason === 'liquidation');
    expect(cancelled.length).to.equal(2);
    assertClean(kit);
  });

  it('tops_up_margin_instead_when_auto_add_is_enabled', () => {
    const kit = arrange(10);
    const { venue } = kit;
    const id = venue.openPositions('alice')[0]!.positionId;
    venue.changeAutoAddIm('alice', id, true);
    venue.setFairPrice(SYMBOL, '45180.7');
    // target = IM at fair: 4518.07 / 10 = 451.807; balance 18.07 → add 433.737
    const pos = venue.openPositions('alice')[0]!;
    expect(money(pos.im)).to.equal('933.737');
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9063.263');
    expect(kit.events.some((e) => e.type === 'MarginAutoAdded')).to.equal(true);
    expect(liquidations(kit)).to.deep.equal([]);
    assertClean(kit);
  });

  it('liquidates_a_cross_account_against_its_equity', () => {
    const kit = arrange(10, OpenType.CROSS, 1000);
    const { venue } = kit;
    // free 1000 − 503 = 497. Cross equity at F: 497 + 500 + 0.1F − 5000 = 0.1F − 4003;
    // maintenance 0.0004F; breach when 0.0996F ≤ 4003 ⇔ F ≤ 40190.763…
    expect(venue.openPositions('alice')[0]!.liquidatePrice).to.equal(undefined);
    venue.setFairPrice(SYMBOL, '40190.8');
    expect(venue.openPositions('alice').length).to.equal(1);
    // the unrealised loss 980.92 exceeds the free 497: nothing available
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('0');
    venue.setFairPrice(SYMBOL, '40190.7');
    expect(venue.openPositions('alice')).to.deep.equal([]);
    const l = liquidations(kit)[0]!.liquidation;
    // taken over at the fair price: PnL (40190.7 − 50000)·0.1 = −980.93 → 497 + 500 − 980.93 = 16.07 left,
    // below maintenance 0.0004·40190.7 = 16.07628 → all 16.07 to the fund as the liquidation fee
    expect(money(l.closePrice)).to.equal('40190.7');
    expect(money(l.realised)).to.equal('-980.93');
    expect(money(l.liquidationFee)).to.equal('16.07');
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('0');
    expect(money(venue.insuranceFund('USDT').available)).to.equal('1016.07');
    assertClean(kit);
  });

  it('covers_a_gap_through_bankruptcy_from_the_insurance_fund', () => {
    const kit = arrange(10, OpenType.CROSS, 1000);
    const { venue } = kit;
    // gap to 30000: PnL (30000 − 50000)·0.1 = −2000; 497 + 500 − 2000 = −1003 → the fund covers 1003
    venue.setFairPrice(SYMBOL, 30000);
    const l = liquidations(kit)[0]!.liquidation;
    expect(money(l.insuranceCover)).to.equal('1003');
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('0');
    expect(money(venue.insuranceFund('USDT').available)).to.equal('-3');
    assertClean(kit);
  });

  it('nets_successive_take_overs_in_the_insurance_fund', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('mm', 'USDT', 1000000);
    venue.deposit('long', 'USDT', 10000);
    venue.deposit('short', 'USDT', 10000);
    venue.setFairPrice(SYMBOL, 50000);
    // mm at 1x is out of reach of both moves (long: never; short: (5000 + 5000)/0.1004 ≈ 99601)
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 1000, price: 50000, leverage: 1 });
    placed(venue, 'long', { side: S.OPEN_LONG, vol: 1000, price: 50000 });
    placed(venue, 'mm', { side: S.OPEN_LONG, vol: 1000, price: 50000, leverage: 1 });
    placed(venue, 'short', { side: S.OPEN_SHORT, vol: 1000, price: 50000 });
    venue.setFairPrice(SYMBOL, 45000); // long liquidated at 45000 → fund long 1000 @ 45000
    venue.setFairPrice(SYMBOL, 55000); // short liquidated at 55000 → fund sells 1000 @ 55000: +1000
    expect(venue.insurancePositions()).to.deep.equal([]);
    // fund: 1000 + (55000 − 45000)·0.1 = 2000
    expect(money(venue.insuranceFund('USDT').available)).to.equal('2000');
    assertClean(kit);
  });

  it('caps_an_isolated_close_loss_at_the_position_margin', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('alice', 'USDT', 10000);
    venue.deposit('mm', 'USDT', 1000000);
    venue.setFairPrice(SYMBOL, 50000);
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 1000, price: 50000, leverage: 1 });
    // 50x: IM 5000/50 = 100, fee 3 → free 9897; bankruptcy (5000 − 100)/0.1 = 49000
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50000, leverage: 50 });
    placed(venue, 'mm', { side: S.OPEN_LONG, vol: 1000, price: 48000, leverage: 1 });
    // a market close sells at 48000, below bankruptcy: PnL −200 against 100 of margin;
    // the isolated loss stops at the margin and the fund pays the other 100
    const close = placed(venue, 'alice', { side: S.CLOSE_LONG, vol: 1000, type: T.MARKET });
    expect(money(close.profit)).to.equal('-200');
    // only the close fee 4800 · 0.0006 = 2.88 leaves the free balance: 9897 − 2.88
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9894.12');
    expect(money(venue.insuranceFund('USDT').available)).to.equal('900');
    assertClean(kit);
  });
});

describe('ContractVenue neverLiquidated accounts (a backtest crowd)', () => {
  /** mm sells 1000 lots (0.1 BTC) at 50000 at 5× cross with 2000 USDT; the fair price then rises to 80000 (a loss of 3000). */
  function crowdShortThroughItsEquity(neverLiquidated?: (id: string) => boolean): Kit {
    const kit = makeKit(neverLiquidated ? { neverLiquidated } : {});
    const { venue } = kit;
    venue.deposit('alice', 'USDT', 10000);
    venue.deposit('mm', 'USDT', 2000);
    venue.setFairPrice(SYMBOL, 50000);
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 1000, price: 50000, leverage: 5, openType: OpenType.CROSS });
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50000, leverage: 10, openType: OpenType.ISOLATED });
    venue.setFairPrice(SYMBOL, 80000);
    return kit;
  }

  it('keeps_a_never_liquidated_account_through_a_breach_with_its_margin_booked_as_any_account', () => {
    const kit = crowdShortThroughItsEquity((id) => id === 'mm');
    const [short] = kit.venue.openPositions('mm');
    expect(short!.positionType).to.equal(PositionType.SHORT);
    expect(short!.holdVol.toString()).to.equal('1000');
    // 5000 / 5: margin booked as for any account (the insurance fund's positions carry none)
    expect(short!.leverage).to.equal(5);
    expect(short!.im.toString()).to.equal('1000');
    expect(liquidations(kit)).to.deep.equal([]);
    expect(kit.venue.asset('mm', 'USDT')!.unrealized.toString()).to.equal('-3000');
    assertClean(kit);
  });

  it('liquidates_the_same_account_when_it_is_not_marked', () => {
    const kit = crowdShortThroughItsEquity();
    expect(kit.venue.openPositions('mm')).to.deep.equal([]);
    expect(liquidations(kit).map((e) => e.liquidation.accountId)).to.deep.equal(['mm']);
    assertClean(kit);
  });
});
