import { expect } from 'chai';
import { referenceRows, renderConfigReference } from '../../../src/app/config/config-reference.js';
import { runConfigSchema } from '../../../src/runtime/config/run-config-schema.js';

describe('config reference', () => {
  const rows = referenceRows(runConfigSchema);
  const row = (path: string) => rows.find((r) => r.path === path);

  it('lists_every_section_with_a_description', () => {
    for (const key of ['mode', 'venue', 'paper', 'instruments', 'marketData', 'strategies', 'risk', 'execution', 'journal', 'logging']) {
      expect(row(key), key).to.not.equal(undefined);
      expect(row(key)!.description, key).to.not.equal('');
    }
  });

  it('shows_types_defaults_and_required_fields', () => {
    expect(row('venue.recvWindowMs')).to.include({ type: 'integer', default: '5000', required: false });
    expect(row('mode')).to.include({ type: 'live | paper | backtest', required: true });
    expect(row('strategies[].id')!.required).to.equal(true);
    expect(row('risk.strategies.<id>.maxNotional')!.type).to.equal('decimal');
    expect(row('execution.cancelOnExit')!.default).to.equal('true');
  });

  it('renders_markdown_with_the_strategy_parameter_sections', () => {
    const md = renderConfigReference();
    expect(md).to.contain('| `venue.contractTrading` | boolean | `false` |');
    expect(md).to.contain('### `spot-market-maker`');
    expect(md).to.contain('### `perp-trend`');
    expect(md).to.contain('| `params.spreadBps` | number | `10` |');
  });
});
