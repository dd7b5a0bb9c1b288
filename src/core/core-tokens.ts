/** DI identifiers of the ground floor (docs/architecture.md rule 9: tokens live beside the interfaces they name). */
import type { ServiceIdentifier } from 'inversify';
import type { Clock } from './clock.js';

export const CORE_TOKENS = {
  Clock: Symbol.for('perpetua.Clock') as ServiceIdentifier<Clock>,
} as const;
