/**
 * DI service identifiers (ARCHITECTURE rule 9). Each layer adds its tokens here so the container
 * modules and the classes agree on one symbol per service.
 */
import type { ServiceIdentifier } from 'inversify';
import type { Clock } from './clock.js';

export const TOKENS = {
  Clock: Symbol.for('perpetua.Clock') as ServiceIdentifier<Clock>,
} as const;
