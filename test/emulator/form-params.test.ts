/**
 * parseForm cuts the pairs out of the query by position (issue 12, the signed placement path). The
 * reference is the definition it replaced, kept here: split on `&`, skip empty parts, the name up to the
 * first `=`, the rest the value. Both must give the same map, or refuse with the same error, for any
 * text made of the characters that matter (`&`, `=`, `%`, `+`, letters, non-ASCII).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import {
  decodeFormComponent,
  parseForm,
  SPOT_FORM_ERRORS,
  CONTRACT_FORM_ERRORS,
  type FormErrors,
} from '../../src/emulator/http/form-params.js';
import { WireError } from '../../src/emulator/http/wire-error.js';

const NOT_PLAIN = /[^\x20-\x24\x26-\x2a\x2c-\x7e]/;

function referenceParse(raw: string, errors: FormErrors): Map<string, string> {
  const out = new Map<string, string>();
  if (!raw) return out;
  const plain = !NOT_PLAIN.test(raw);
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    const name = plain ? rawName : decodeFormComponent(rawName, rawName.slice(0, 40), errors);
    const value = plain ? rawValue : decodeFormComponent(rawValue, name, errors);
    if (out.has(name)) throw errors.duplicate(name);
    out.set(name, value);
  }
  return out;
}

/** The map, or the error's code and message. */
function outcome(parse: () => Map<string, string>): unknown {
  try {
    return [...parse()];
  } catch (e) {
    if (e instanceof WireError) return { code: e.code, message: e.message };
    throw e;
  }
}

const formText = fc.string({
  unit: fc.oneof(
    { arbitrary: fc.constantFrom('&', '=', '&&', '=='), weight: 4 },
    { arbitrary: fc.constantFrom('a', 'b', 'c', 'x', '1'), weight: 6 },
    fc.constantFrom('%', '%4', '%41', '%C3%A9', '%ZZ', '+', ' ', 'é', '\u0001'),
  ),
  maxLength: 40,
});

describe('parseForm', () => {
  it('gives_the_map_or_the_error_of_the_split_definition_for_any_text', () => {
    fc.assert(
      fc.property(formText, fc.constantFrom(SPOT_FORM_ERRORS, CONTRACT_FORM_ERRORS), (raw, errors) => {
        expect(outcome(() => parseForm(raw, errors))).to.deep.equal(outcome(() => referenceParse(raw, errors)));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads_the_signed_placement_query_in_order', () => {
    const q = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.001&price=87500&recvWindow=60000&timestamp=1&signature=ab';
    expect([...parseForm(q)]).to.deep.equal([
      ['symbol', 'BTCUSDT'],
      ['side', 'BUY'],
      ['type', 'LIMIT'],
      ['quantity', '0.001'],
      ['price', '87500'],
      ['recvWindow', '60000'],
      ['timestamp', '1'],
      ['signature', 'ab'],
    ]);
  });
});
