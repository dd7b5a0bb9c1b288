/**
 * Zod issues → the taxonomy: a request issue becomes ValidationError(field, expected) before anything is
 * sent; a response issue becomes MalformedResponse(endpointId, field, detail). Paths and found values are
 * worded by the one zod-issue formatter (core/config/config-issues.ts) that config errors use too.
 */
import type { z } from 'zod';
import { describeReceived, formatPath, valueAt } from '../core/config/config-issues.js';
import { MalformedResponse, ValidationError } from '../core/errors.js';

type Issue = z.core.$ZodIssue;

/** The innermost issue of a union failure: the branch that got furthest names the real problem. */
function deepest(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    for (const inner of branch) {
      const d = deepest(inner);
      if (!best || d.path.length > best.path.length) best = d;
    }
  }
  if (!best || best.path.length === 0) return issue;
  return { ...best, path: [...issue.path, ...best.path] } as Issue;
}

export function expectedOf(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'undefined' ? 'no value' : issue.expected;
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `length ${issue.inclusive === false ? '>' : '>='} ${String(issue.minimum)}`
        : `${issue.inclusive === false ? '>' : '>='} ${String(issue.minimum)}`;
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `length ${issue.inclusive === false ? '<' : '<='} ${String(issue.maximum)}`
        : `${issue.inclusive === false ? '<' : '<='} ${String(issue.maximum)}`;
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'not_multiple_of':
      return `a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `no keys ${issue.keys.join(', ')}`;
    default:
      // custom and invalid_format carry the catalogue's own wording ("a spot symbol like BTCUSDT").
      return issue.message;
  }
}

export function validationErrorFrom(error: z.ZodError, input: unknown, endpointId: string): ValidationError {
  const issue = deepest(error.issues[0]!);
  // An unknown key is named as the field itself: that is what the caller has to remove or rename.
  const path = issue.code === 'unrecognized_keys' && issue.keys.length > 0 ? [...issue.path, issue.keys[0]!] : issue.path;
  const field = formatPath(path) || '(request)';
  const expected = issue.code === 'unrecognized_keys' ? 'no such parameter' : expectedOf(issue);
  const received = valueAt(input, path);
  const more = error.issues.length > 1 ? ` (+${error.issues.length - 1} more)` : '';
  const shown = received === undefined ? '' : `, received ${describeReceived(received, path)}`;
  return new ValidationError(field, expected, received, `${endpointId}: ${field}: expected ${expected}${shown}${more}`);
}

export function malformedResponseFrom(error: z.ZodError, endpointId: string): MalformedResponse {
  const issue = deepest(error.issues[0]!);
  return new MalformedResponse(endpointId, formatPath(issue.path), `expected ${expectedOf(issue)}`);
}
