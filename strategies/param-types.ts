/**
 * zod building blocks for strategy parameters. Money and sizes are written in YAML as numbers or
 * strings ("0.001") and come out as Decimal, so a strategy never does float arithmetic on a price.
 */
import { z } from 'zod';
import { D, type Decimal } from '../src/core/decimal.js';

const DECIMAL_TEXT = /^[0-9]+(\.[0-9]+)?$/;

/** A decimal > 0 (or >= 0) as Decimal. */
export function decimalParam(bound: 'positive' | 'non-negative' = 'positive') {
  const expected = bound === 'positive' ? 'a decimal number > 0' : 'a decimal number >= 0';
  return z
    .union([z.number(), z.string()])
    .transform((v, ctx): Decimal => {
      const text = typeof v === 'number' ? String(v) : v.trim();
      const ok = (DECIMAL_TEXT.test(text) || /^[0-9.]+e-?[0-9]+$/i.test(text)) && Number.isFinite(Number(text));
      const d = ok ? D(text) : undefined;
      if (!d || (bound === 'positive' ? !d.gt(0) : d.isNegative())) {
        ctx.addIssue({ code: 'custom', message: `expected ${expected}, received ${JSON.stringify(v)}`, input: v });
        return z.NEVER;
      }
      return d;
    })
    .meta({ expected, typeName: 'decimal' });
}
