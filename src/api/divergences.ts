/**
 * Where the two documents (spot-api.md, contract-api.md, with wire-protocol.md) and the real exchange
 * differ, and which one the emulator follows. docs/endpoints.md renders this list (app/endpoints-report.ts),
 * so the statement and the catalogue notes it points at are reviewed together.
 *
 * The rule (issue 14): a client written for the real exchange must work against the emulator unchanged,
 * and so must a client written from the documents. Where both can be honoured (an optional parameter,
 * an extra field, an extra endpoint) the emulator does so; where only one shape can be served it serves
 * the real exchange's and our client accepts both.
 */

export type DivergenceSide = 'real exchange' | 'document' | 'both';

export interface Divergence {
  /** Endpoint or field, as a reader finds it in the tables. */
  readonly place: string;
  readonly document: string;
  readonly realExchange: string;
  readonly follows: DivergenceSide;
  readonly why: string;
  /** Where the real behaviour was established. */
  readonly source: string;
}

export const DIVERGENCES: readonly Divergence[] = [
  {
    place: 'POST /api/v1/private/order/create, `price` of market types 5 and 6',
    document: 'price required for every order',
    realExchange: 'price may be left out for types 5 and 6; the answer is the new order id',
    follows: 'both',
    why: 'ccxt has sent market orders without a price since 2022; price stays required and > 0 for types 1-4, and 0 is still accepted for 5 and 6',
    source: 'ccxt mexc.ts createSwapOrder and its request tests; a captured live answer to such an order',
  },
  {
    place: 'GET /api/v1/private/position/funding_records, `position_type`, `start_time`, `end_time`',
    document: 'required',
    realExchange: 'optional filters (the exchange reference lists symbol, position_id, page_num, page_size)',
    follows: 'both',
    why: 'ccxt fetchFundingHistory sends only symbol; a document client sending all three is answered the same as before',
    source: "the exchange's futures reference; ccxt mexc.ts fetchFundingHistory",
  },
  {
    place: 'GET /api/v1/private/position/list/history_positions, `data`',
    document: 'a page object {pageSize, totalCount, …, resultList}',
    realExchange: 'a bare list of positions',
    follows: 'real exchange',
    why: 'only one shape can be served; ccxt fetchPositionsHistory reads a list. Our client accepts both and wraps a list as a page',
    source: "the exchange's own example; ccxt mexc.ts fetchPositionsHistory; Mexc.Net",
  },
  {
    place: 'Spot `limit` above the documented maximum (depth 5000; trades, aggTrades, klines, allOrders 1000; myTrades 100)',
    document: 'the maximum',
    realExchange: 'a documented default of the official spot SDK (myTrades limit=500) does not fail',
    follows: 'real exchange',
    why: 'larger limits are served as the maximum, on the client and the emulator alike; below 1 or not an integer is refused with 33333 naming the parameter and range',
    source: 'mexc-api-sdk myTrades default; issue 14',
  },
  {
    place: 'Contract error texts of 1001 and 2009',
    document: 'wire-protocol.md describes them ("contract does not exist", "position does not exist")',
    realExchange: '"Contract does not exist" and "Position is not exists or closed."',
    follows: 'real exchange',
    why: 'clients match on the exact words; wherever a real answer was captured its text is used (602, 700002-700004 and -1128 already were)',
    source: 'test/fixtures/mexc contract_ERROR_1001_*, contract_ERROR_2009_position_not_exist.json',
  },
  {
    place: 'GET /api/v1/contract/detail, further fields',
    document: 'names appraisal, automaticDelivery, liquidationFeeRate, triggerProtect, … without values',
    realExchange: 'sends them, and preMarket',
    follows: 'both',
    why: 'served with the live values for listing and display flags and with what this venue does for behavioural ones (liquidationFeeRate 0, marketOrderPriceLimitRate1/2 0, triggerProtect 0: not modelled here)',
    source: 'test/fixtures/mexc contract_GET_api_v1_contract_detail.json',
  },
  {
    place: 'GET /api/v3/exchangeInfo, `conceptPlateIds`',
    document: 'sector ids (spot-api.md §2.1)',
    realExchange: 'a list of sector ids',
    follows: 'both',
    why: 'served as an empty list: the emulator groups symbols into no sectors',
    source: 'test/fixtures/mexc spot_GET_api_v3_exchangeInfo.json',
  },
  {
    place: 'GET /api/v1/contract/ticker, `riseFallRates` r7 … r365',
    document: 'rise/fall rates over 7 to 365 days',
    realExchange: 'rates over 7 to 365 days',
    follows: 'both',
    why: 'derived from the daily bars of the tape (were 0): the close of the UTC day N days back, or the first print when the tape is younger',
    source: 'test/fixtures/mexc contract_GET_api_v1_contract_ticker.json',
  },
  {
    place: 'GET /api/v1/contract/risk_reverse/{symbol}, `data`',
    document: 'a list',
    realExchange: 'one object',
    follows: 'document',
    why: 'no real client we know reads it; the emulator answers a one-element list and our client accepts both',
    source: 'catalogue note of contract.riskReverse',
  },
  {
    place: 'POST /api/v1/private/order/open_order_total_count',
    document: 'orderId, price, vol required',
    realExchange: 'called without parameters by clients',
    follows: 'both',
    why: 'the three are accepted and not required',
    source: 'catalogue note of contract.openOrderTotalCount',
  },
  {
    place: 'POST /api/v1/private/order/cancel_with_external',
    document: 'a list of {symbol, externalOid}',
    realExchange: 'one object per call in its reference',
    follows: 'document',
    why: 'no captured answer or real client shows the single-object form being required; the document is kept',
    source: 'catalogue note of contract.cancelWithExternal',
  },
  {
    place: 'POST /api/v3/strategy/group/uid',
    document: 'GET in the path line, POST in the example',
    realExchange: 'POST',
    follows: 'both',
    why: 'the client sends POST (the example); the emulator accepts both',
    source: 'catalogue note of spot.addStpGroupUid',
  },
  {
    place: 'GET /api/v1/private/order/list/history_orders, POST /api/v1/private/stoporder/change_price',
    document: "path 'not shown'",
    realExchange: 'these paths',
    follows: 'real exchange',
    why: 'the document describes the rows; only the real path can be served',
    source: "the exchange's futures reference",
  },
  {
    place: 'GET /api/v1/private/order/list/history_orders, open orders',
    document: 'not stated',
    realExchange: 'lists open orders too (state 2 in the live answer ccxt quotes)',
    follows: 'document',
    why: 'not aligned yet: the emulator lists final orders only (completed, cancelled, invalid); open ones are in list/open_orders',
    source: 'test/fixtures/mexc contract_GET_api_v1_private_order_list_history_orders.json',
  },
  {
    place: 'Trigger and TP/SL orders: planorder/place, place/v2, cancel, cancel_all, list/orders; stoporder/place, cancel, cancel_all',
    document: 'not rows of §4',
    realExchange: 'served',
    follows: 'real exchange',
    why: 'real clients place trigger orders through them (ccxt createOrder with triggerPrice)',
    source: "the exchange's futures reference and captured requests/answers",
  },
  {
    place: 'order/list/order_deals, order/deal_details/{order_id}, GET /api/v3/historicalTrades',
    document: 'not in either document',
    realExchange: 'served; ccxt fetchMyTrades / fetchOrderTrades (swap) and fetchTrades (spot, method HistoricalTrades) call them',
    follows: 'real exchange',
    why: 'their request and answer are established by public sources, and they are served from the same venue state',
    source: 'see "Beyond the two documents" above',
  },
  {
    place: 'GET /api/v3/defaultSymbols `msg`; spot depth `timestamp`; spot trades `tradeType`',
    document: 'msg may be null; timestamp and tradeType not listed',
    realExchange: 'msg "success"; both fields sent',
    follows: 'real exchange',
    why: 'extra fields break no document client; our client does not require msg',
    source: 'test/fixtures/mexc (GCT recordings)',
  },
  {
    place: 'Wallet endpoints (GET /api/v3/capital/config/getall and the rest of capital/*)',
    document: 'not in either document',
    realExchange: 'served',
    follows: 'document',
    why: 'deposits and withdrawals are outside a trading emulator; ccxt reads currencies from it when it has keys, so the real-client suite sets has.fetchCurrencies = false (ccxt then derives currencies from the markets, as it does without keys)',
    source: 'ccxt mexc.ts fetchCurrencies',
  },
];
