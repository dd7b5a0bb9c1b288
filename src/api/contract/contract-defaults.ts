/**
 * What every contract catalogue entry shares: the `{success, code, data}` envelope, weight 1 and the
 * per-endpoint bucket (about 20 requests per 2 s per endpoint, wire-protocol.md).
 */
import { z } from 'zod';

export const CONTRACT_ENTRY = {
  api: 'contract',
  weight: 1,
  buckets: ['contract-endpoint'],
  envelope: 'contract',
} as const;

/** Notes prefix of contract endpoints that are not rows of §4 (test/api/contract/doc-coverage.test.ts). */
export const EXTRA_NOTE = "from the real exchange's documentation / fixtures, not a row of §4";

/** Where the trigger-order extras (planorder/*, stoporder/place|cancel|cancel_all) come from. */
export const TRIGGER_EXTRA_SOURCE = "the exchange's futures reference and the captured request/answer fixtures (test/fixtures/mexc)";

/** Request of an endpoint without parameters: nothing, or an empty object. */
export const noParams = z
  .strictObject({})
  .optional()
  .transform((): Record<string, never> => ({}));
