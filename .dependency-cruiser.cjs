/**
 * The layer table of docs/architecture.md, enforced (`npm run lint:deps`). A module may import only
 * from its own layer or a layer listed before it; there are no import cycles. Type-only imports count:
 * a layer that names an upper layer's types depends on it as surely as one that calls it.
 */
const LAYERS = [
  ['core', '^src/core/'],
  ['domain', '^src/domain/'],
  ['api', '^src/api/'],
  ['client', '^src/client/'],
  ['venue', '^src/venue/'],
  ['marketdata', '^src/marketdata/'],
  ['emulator', '^src/emulator/'],
  ['strategy', '^src/strategy/'],
  ['risk', '^src/risk/'],
  ['portfolio', '^src/portfolio/'],
  ['execution', '^src/execution/'],
  ['persistence', '^src/persistence/'],
  ['strategies', '^strategies/'],
  ['runtime', '^src/runtime/'],
  ['backtest', '^src/backtest/'],
  ['console', '^src/console/'],
  ['app', '^src/app/'],
];

const layerRules = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `layer-${name}`,
  comment: `${name} may import only ${LAYERS.slice(0, i).map(([n]) => n).join(', ') || 'libraries'} (docs/architecture.md, rule 12)`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(i + 1).map(([, p]) => `(${p})`).join('|') },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      // Checked on the emitted JavaScript, where type-only imports are gone: two files of one folder
      // naming each other's types is fine, a runtime cycle (start-up order, half-initialised
      // modules) is not. swc, which reads the sources here, cannot tell type-only imports apart.
      name: 'no-circular',
      comment: 'runtime import cycles make the start-up order fragile (docs/architecture.md, rule 13)',
      severity: 'error',
      from: { path: '^dist/(src|strategies)/' },
      to: { circular: true },
    },
    {
      name: 'no-tests-in-src',
      comment: 'production code never imports test code',
      severity: 'error',
      from: { path: '^(dist/)?(src|strategies)/' },
      to: { path: '^(dist/)?(test|bench)/' },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API, so the TypeScript sources are read with swc.
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/(test|bench)/' },
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
