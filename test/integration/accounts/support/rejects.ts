import { ExchangeError } from '../../../../src/core/errors.js';

/** Awaits a call that must be refused by the venue and returns the mapped error. */
export async function rejects(p: Promise<unknown>): Promise<ExchangeError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ExchangeError) return e;
    throw e;
  }
  throw new Error('expected a venue refusal');
}
