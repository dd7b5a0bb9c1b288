/** The HTTP client layer: transport, signers, rate limiter, time sync, error mapping, typed clients. */
export { SpotClient, SPOT_TIME_SOURCE, type SpotCatalogueMethods } from './spot-client.js';
export { ContractClient, CONTRACT_TIME_SOURCE, type ContractCatalogueMethods } from './contract-client.js';
export {
  CatalogueClient,
  DEFAULT_RETRY,
  type CallOptions,
  type ClientLogger,
  type ClientOptions,
  type RandomSource,
  type RetryOptions,
  type ServerTimeSource,
  type TimeSyncSettings,
} from './catalogue-client.js';
export { bindCatalogue, type CatalogueMethod, type CatalogueMethods } from './catalogue-methods.js';
export { credentialsFromEnv, API_KEY_ENV, API_SECRET_ENV, type Credentials } from './credentials.js';
export {
  SpotSigner,
  SPOT_API_KEY_HEADER,
  spotSignature,
  spotSignedPayload,
  verifySpotSignature,
  type SignedSpotRequest,
} from './spot-signer.js';
export {
  ContractSigner,
  CONTRACT_HEADERS,
  contractParamString,
  contractParamStringFromRawQuery,
  contractSignature,
  verifyContractSignature,
} from './contract-signer.js';
export { hmacSha256Hex, hexEqual, secretKeyOf, type SecretKey } from './hmac.js';
export { percentEncode, encodeQuery, encodeSortedQuery, queryValue } from './percent-encode.js';
export { parseJsonKeepingLongInts, quoteLongIntegers, stringifyJson } from '../core/json-codec.js';
export {
  HttpTransport,
  TransportFailure,
  DEFAULT_TIMEOUTS,
  sharedPoolCount,
  type Transport,
  type TransportRequest,
  type TransportResponse,
  type TransportTimeouts,
  type TransportFailureKind,
  type HttpTransportOptions,
} from './transport.js';
export {
  RateLimiter,
  DEFAULT_RATE_LIMITS,
  PRIORITY,
  bucketKey,
  type Permit,
  type RateLimitConfig,
  type WindowLimit,
} from './rate-limiter.js';
export { TimeSync, DEFAULT_TIME_SYNC, median, type TimeSample, type TimeSyncOptions } from './time-sync.js';
export {
  buildRequest,
  buildValidated,
  validateRequest,
  assertBuildable,
  clientOrderIdsOf,
  CLIENT_ID_KEYS,
  type BuildContext,
  type PreparedRequest,
} from './request-builder.js';
export { decodeResponse, retryAfterMs, type Decoded, type RawAnswer } from './response-decoder.js';
export {
  SPOT_ERROR_TABLE,
  CONTRACT_ERROR_TABLE,
  ERROR_TABLES,
  venueError,
  httpStatusError,
  type Disposition,
  type MappedError,
  type VenueErrorClass,
  type VenueErrorRow,
} from './venue-error-map.js';
export { validationErrorFrom, malformedResponseFrom } from './zod-issues.js';
export { formatPath as fieldPath } from '../core/config/config-issues.js';
