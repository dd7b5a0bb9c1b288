/** DI identifiers of the domain layer. */
import type { ServiceIdentifier } from 'inversify';
import type { InstrumentLookup } from './instrument-registry.js';

export const DOMAIN_TOKENS = {
  Instruments: Symbol.for('perpetua.Instruments') as ServiceIdentifier<InstrumentLookup>,
} as const;
