/**
 * The order view a placement answers with, built when first read. Every accepted placement answered
 * with a full view (two volumes, an average price and five amounts turned into Decimals: about 9 % of
 * a maker+taker cycle, issue 12), while the emulator's order/create reads the id and the time, the
 * crowd and the backtest a state and a volume, and a load loop nothing.
 *
 * It shows the moment it was made: an order that can still change (it rests) is copied first (as an
 * event's view is, ContractViewBuilder.orderViewLater); a final one (filled, cancelled, invalid) never
 * changes again and is read in place. The identity fields are read straight from the order; the first
 * read of any other field builds the whole view with the plain builder, kept, so every field is the
 * plain view's own value. The face is the plain object's: the getters are enumerable (for…in and
 * chai's deep equality list the same keys) and `toJSON` writes the plain view, key for key.
 */
import type { OrderState } from './contract-state.js';
import type { ContractOrderView } from './contract-views.js';
import { enumerableGetters } from './lazy-events.js';

export class LazyOrderView implements ContractOrderView {
  readonly #at: OrderState;
  readonly #build: (o: OrderState) => ContractOrderView;
  #view: ContractOrderView | undefined = undefined;

  constructor(at: OrderState, build: (o: OrderState) => ContractOrderView) {
    this.#at = at;
    this.#build = build;
  }

  #full(): ContractOrderView {
    return (this.#view ??= this.#build(this.#at));
  }

  get accountId(): ContractOrderView['accountId'] {
    return this.#at.account.id;
  }
  get orderId(): ContractOrderView['orderId'] {
    return this.#at.id;
  }
  get symbol(): ContractOrderView['symbol'] {
    return this.#full().symbol;
  }
  get positionId(): ContractOrderView['positionId'] {
    return this.#full().positionId;
  }
  get price(): ContractOrderView['price'] {
    return this.#full().price;
  }
  get vol(): ContractOrderView['vol'] {
    return this.#full().vol;
  }
  get leverage(): ContractOrderView['leverage'] {
    return this.#full().leverage;
  }
  get side(): ContractOrderView['side'] {
    return this.#at.side;
  }
  get category(): ContractOrderView['category'] {
    return this.#at.category;
  }
  get orderType(): ContractOrderView['orderType'] {
    return this.#at.type;
  }
  get dealAvgPrice(): ContractOrderView['dealAvgPrice'] {
    return this.#full().dealAvgPrice;
  }
  get dealVol(): ContractOrderView['dealVol'] {
    return this.#full().dealVol;
  }
  get orderMargin(): ContractOrderView['orderMargin'] {
    return this.#full().orderMargin;
  }
  get usedMargin(): ContractOrderView['usedMargin'] {
    return this.#full().usedMargin;
  }
  get takerFee(): ContractOrderView['takerFee'] {
    return this.#full().takerFee;
  }
  get makerFee(): ContractOrderView['makerFee'] {
    return this.#full().makerFee;
  }
  get profit(): ContractOrderView['profit'] {
    return this.#full().profit;
  }
  get feeCurrency(): ContractOrderView['feeCurrency'] {
    return this.#full().feeCurrency;
  }
  get openType(): ContractOrderView['openType'] {
    return this.#full().openType;
  }
  get state(): ContractOrderView['state'] {
    return this.#at.state;
  }
  get externalOid(): ContractOrderView['externalOid'] {
    return this.#at.externalOid;
  }
  get errorCode(): ContractOrderView['errorCode'] {
    return this.#full().errorCode;
  }
  get createTime(): ContractOrderView['createTime'] {
    return this.#at.createTime;
  }
  get updateTime(): ContractOrderView['updateTime'] {
    return this.#full().updateTime;
  }
  get positionMode(): ContractOrderView['positionMode'] {
    return this.#at.positionMode;
  }
  get reduceOnly(): ContractOrderView['reduceOnly'] {
    return this.#at.reduceOnly;
  }
  get stpMode(): ContractOrderView['stpMode'] {
    return this.#at.stpMode;
  }
  get cancelReason(): ContractOrderView['cancelReason'] {
    return this.#full().cancelReason;
  }

  toJSON(): ContractOrderView {
    return this.#full();
  }
}

enumerableGetters(LazyOrderView.prototype);
