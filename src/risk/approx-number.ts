/**
 * A Decimal as a double for risk's screens: core/decimal.ts's toNumber (digit words, no string round trip
 * for the few-digit values prices and quantities are), NaN for NaN and ±Infinity so that a screen's
 * comparison fails and the exact Decimal computation decides. A screen decides only what is far from its
 * limit in doubles (by SCREEN_MARGIN); anything near it, or not finite, goes to the exact computation.
 */
import type { Decimal } from '../core/decimal.js';

/** The value as a double; NaN for NaN and ±Infinity. */
export const approxNumber = (x: Decimal): number => (x.isFinite() ? x.toNumber() : NaN);

/**
 * Relative margin of a screen in doubles: their rounding error over thousands of terms stays below 1e-12
 * of the magnitudes summed, Decimal's (40 significant digits) far below that; a check within 1e-9 of
 * its limit is left to the exact computation.
 */
export const SCREEN_MARGIN = 1e-9;
