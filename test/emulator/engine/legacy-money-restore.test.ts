/**
 * A snapshot written before the contract venue kept money in two parts (MoneyCell big + fast · grain,
 * Wallet.frozenCell, ContractPosition's TickLots costs, the state's feeIncomeCells) must still restore:
 * its restore writes the old fields (units, frozenUnits, holdCost …) through the legacy accessors and
 * deletes the new fields it did not write, and reviveAfterSnapshot rebuilds them. The old classes are
 * stood in for by classes of the same names with the old fields, encoded by the real codec functions.
 */
import { expect } from 'chai';
import { decodeGraph, encodeGraph, graphCodec, restoreGraph } from '../../../src/emulator/engine/object-graph.js';
import { ContractPosition } from '../../../src/venue/contract/contract-position.js';
import { Wallet } from '../../../src/venue/contract/contract-state.js';
import { MoneyCell } from '../../../src/venue/contract/money-cell.js';
import { PositionType, OpenType } from '../../../src/domain/contract-enums.js';
import { positionId } from '../../../src/core/ids.js';
import type { ContractSpec } from '../../../src/venue/contract/contract-spec.js';

/** The fields of the classes as the build before the two parts wrote them (names are what the codec keys on). */
const Old = {
  MoneyCell: class MoneyCell {
    units = 0n;
    dec = undefined;
    cached = undefined;
  },
  Wallet: class Wallet {
    freeCell: object;
    frozenUnits = 0n;
    constructor(
      readonly currency: string,
      free: object,
    ) {
      this.freeCell = free;
    }
  },
};

class Root {
  cells: object[] = [];
  wallet: object | undefined;
  position: object | undefined;
}

describe('restoring a snapshot written before the two-part contract money', () => {
  it('rebuilds_cells_wallet_frozen_and_position_costs_from_the_old_fields', () => {
    // The old graph: a cell at the same place as a fresh one (overwritten in place), one only in the snapshot (created).
    const oldRoot = new Root();
    const a = new Old.MoneyCell();
    a.units = 123_456_789_012_345_678_901n;
    const b = new Old.MoneyCell();
    b.units = -42n;
    oldRoot.cells = [a, b];
    const free = new Old.MoneyCell();
    free.units = 10n ** 27n + 5n;
    const w = new Old.Wallet('USDT', free);
    w.frozenUnits = 2n ** 60n + 1n;
    oldRoot.wallet = w;
    // An old position: the same fields as today's, with bigint costs instead of the TickLots fields.
    const spec = {} as ContractSpec;
    const fresh = new ContractPosition(positionId('7'), spec, PositionType.LONG, OpenType.CROSS, 20, 1);
    const oldPos = Object.assign(Object.create(ContractPosition.prototype) as object, { ...fresh }) as Record<string, unknown>;
    // Its cells as the old class wrote them (the margin one holding an amount).
    for (const [k, v] of Object.entries(oldPos)) if (v instanceof MoneyCell) oldPos[k] = new Old.MoneyCell();
    (oldPos.imCell as { units: bigint }).units = 77n;
    delete oldPos.holdTickLots;
    delete oldPos.openTickLots;
    delete oldPos.closeTickLots;
    Object.defineProperty(oldPos, 'holdCost', { value: 2n ** 55n + 3n, enumerable: true, writable: true });
    Object.defineProperty(oldPos, 'openCost', { value: 500n, enumerable: true, writable: true });
    Object.defineProperty(oldPos, 'closeCost', { value: 0n, enumerable: true, writable: true });
    oldRoot.position = oldPos;
    const oldCodec = graphCodec([Root, Old.MoneyCell, Old.Wallet, ContractPosition]);
    const data = encodeGraph(oldRoot, oldCodec, new Set());

    // Restored into today's graph: one cell in place, the wallet and position in place.
    const newRoot = new Root();
    newRoot.cells = [new MoneyCell()];
    newRoot.wallet = new Wallet('USDT');
    newRoot.position = new ContractPosition(positionId('7'), spec, PositionType.LONG, OpenType.CROSS, 20, 1);
    const codec = graphCodec([Root, MoneyCell, Wallet, ContractPosition]);
    restoreGraph(newRoot, decodeGraph(data, codec), codec);

    const [ra, rb] = newRoot.cells as MoneyCell[];
    expect(ra).to.be.instanceOf(MoneyCell);
    expect(ra!.units).to.equal(123_456_789_012_345_678_901n);
    expect(rb!.units).to.equal(-42n);
    expect(rb!.isNegative()).to.equal(true);
    // The restored cells take the fast path again.
    ra!.addGrains(1000, 10 ** 9);
    expect(ra!.units).to.equal(123_456_789_012_345_678_901n + 10n ** 12n);
    const rw = newRoot.wallet as Wallet;
    expect(rw.freeCell.units).to.equal(10n ** 27n + 5n);
    expect(rw.frozenUnits).to.equal(2n ** 60n + 1n);
    rw.frozenCell.addGrains(7, 3);
    expect(rw.frozenUnits).to.equal(2n ** 60n + 22n);
    const rp = newRoot.position as ContractPosition;
    expect(rp.holdCost).to.equal(2n ** 55n + 3n);
    expect(rp.openCost).to.equal(500n);
    expect(rp.openTickLots).to.equal(500);
    expect(rp.closeCost).to.equal(0n);
    expect(rp.imCell.units).to.equal(77n);
    rp.addImGrains(3, 10);
    expect(rp.imCell.units).to.equal(107n);
  });
});
