/**
 * Every property test runs with one fixed seed (FC_SEED overrides it to explore), so a test run is
 * deterministic and a failure reproduces; tests that pass their own seed keep it.
 */
import fc from 'fast-check';

const seed = Number(process.env.FC_SEED ?? 20261121);
fc.configureGlobal({ seed });
