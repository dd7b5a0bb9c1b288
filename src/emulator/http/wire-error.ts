/**
 * A refusal in the venue's own words: which API answers, the venue code, the text, and the HTTP status.
 * Handlers and the request pipeline throw these; the server writes them in the API's error shape
 * (spot `{code,msg}` with HTTP 400, contract `{success:false,code,message}` with HTTP 200).
 *
 * Codes and texts follow wire-protocol.md and the venue's published error table (the texts of
 * 700002/700003/700004/602/1001/2009 are the captured ones in test/fixtures/mexc).
 */
export type WireApi = 'spot' | 'contract';

export class WireError extends Error {
  constructor(
    readonly api: WireApi,
    readonly code: number,
    readonly wireMessage: string,
    readonly httpStatus: number,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`${api} ${code}: ${wireMessage}`);
    this.name = 'WireError';
  }
}

const spot = (code: number, msg: string, status = 400, headers?: Record<string, string>) =>
  new WireError('spot', code, msg, status, headers);
const contract = (code: number, message: string, status = 200, headers?: Record<string, string>) =>
  new WireError('contract', code, message, status, headers);

/** Spot codes (wire-protocol.md "Codes seen", plus the venue table for the rest). */
export const SpotError = {
  apiKeyRequired: () => spot(400, 'api key required'),
  apiKeyFormat: () => spot(700001, 'API-key format invalid.'),
  invalidAccessKey: () => spot(10072, 'Api key info invalid'),
  badSignature: () => spot(700002, 'Signature for this request is not valid.'),
  outsideRecvWindow: () => spot(700003, 'Timestamp for this request is outside of the recvWindow.'),
  mandatory: (param: string) => spot(700004, `Mandatory parameter '${param}' was not sent, was empty/null, or malformed.`),
  orderIdOrClientId: () => spot(700004, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!"),
  recvWindowTooLarge: () => spot(700005, 'recvWindow must less than 60000'),
  noPermission: () => spot(700007, 'No permission to access the endpoint.'),
  illegalCharacters: (param: string) =>
    spot(700008, `Illegal characters found in parameter '${param}'; legal range is '^[\\w\\-._~:/,\\[\\]{}"]{1,}$'.`),
  duplicateParam: (param: string) => spot(33333, `Duplicate values for parameter '${param}'.`),
  paramError: (detail: string) => spot(33333, `Parameter error: ${detail}`),
  invalidSymbol: () => spot(-1121, 'Invalid symbol.'),
  symbolNotApi: () => spot(10007, 'symbol not support api'),
  combination: () => spot(-1128, 'Combination of optional parameters invalid.'),
  unknownOrderCancel: () => spot(-2011, 'Unknown order sent.'),
  orderNotExist: () => spot(-2013, 'Order does not exist.'),
  insufficientBalance: () => spot(10101, 'Insufficient balance'),
  notSupported: (what: string) => spot(730003, `Unsupported operation: ${what} is not supported by the emulator yet`),
  notFound: () => spot(404, 'Not Found', 404),
  methodNotAllowed: () => spot(405, 'Method Not Allowed', 405),
  tooLarge: (max: number) => spot(413, `Request body larger than ${max} bytes`, 413),
  requestTimeout: () => spot(408, 'Request body not received in time', 408),
  rateLimited: (retryAfterSec: number) =>
    spot(429, 'Too many requests, please try again later', 429, { 'Retry-After': String(retryAfterSec) }),
  internal: () => spot(500, 'Internal error', 500),
  unavailable: (status: number) => spot(status, 'Service unavailable, please try again', status),
} as const;

/**
 * The real exchange's exact words for contract codes whose answer was captured (test/fixtures/mexc:
 * contract_ERROR_1001_*, contract_ERROR_2009_position_not_exist). A venue refusal with one of these
 * codes goes out in these words, whatever detail the engine gave: a client matching on the text of
 * the real exchange must match here too.
 */
const CONTRACT_REAL_TEXTS: Readonly<Record<number, string>> = {
  1001: 'Contract does not exist',
  2009: 'Position is not exists or closed.',
};

/** The wire text of a contract refusal: the captured real text where one is known, else the engine's. */
export function contractWireText(code: number, message: string): string {
  return CONTRACT_REAL_TEXTS[code] ?? message;
}

/** A contract venue refusal as the real exchange words it (HTTP 200, `{success:false, code, message}`). */
export function contractRefusal(code: number, message: string): WireError {
  return contract(code, contractWireText(code, message));
}

/** Contract codes (wire-protocol.md "Codes"). */
export const ContractError = {
  unauthorized: () => contract(401, 'Not logged in or login has expired'),
  invalidRequestTime: () => contract(513, 'Invalid Request-Time'),
  paramError: (detail?: string) => contract(600, detail ? `Param error! ${detail}` : 'Param error!'),
  badSignature: () => contract(602, 'Signature verification failed!'),
  noAccountRead: () => contract(701, 'Account read permission is required'),
  noAccountWrite: () => contract(702, 'Account modify permission is required'),
  noOrderRead: () => contract(703, 'Order read permission is required'),
  noOrderWrite: () => contract(704, 'Order modify permission is required'),
  contractNotExist: () => contract(1001, CONTRACT_REAL_TEXTS[1001]!),
  contractNotAllowed: () => contract(1002, 'Contract not allow place order!'),
  insufficientBalance: () => contract(2005, 'Insufficient balance!'),
  positionNotExist: () => contract(2009, CONTRACT_REAL_TEXTS[2009]!),
  orderNotExist: () => contract(2040, 'order not exist'),
  priceTypeError: () => contract(3001, 'Price type error'),
  riskLevelDisabled: () => contract(8817, 'The risk limit feature has been upgraded, please use the leverage adjustment instead'),
  marketMakerOnly: () => contract(704, 'Only market-maker accounts may use this endpoint'),
  notSupported: (what: string) => contract(9999, `${what} is not supported by the emulator yet`),
  notFound: () => contract(404, 'Not Found', 404),
  methodNotAllowed: () => contract(405, 'Method Not Allowed', 405),
  tooLarge: (max: number) => contract(413, `Request body larger than ${max} bytes`, 413),
  requestTimeout: () => contract(408, 'Request body not received in time', 408),
  rateLimited: (retryAfterSec: number) => contract(510, 'Request frequency too high', 429, { 'Retry-After': String(retryAfterSec) }),
  internal: () => contract(500, 'Internal error', 500),
  unavailable: (status: number) => contract(501, 'System busy', status),
} as const;

/** The error body of each API. */
export function errorBody(e: WireError): Record<string, unknown> {
  return e.api === 'spot' ? { code: e.code, msg: e.wireMessage } : { success: false, code: e.code, message: e.wireMessage };
}
