import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { decodeGraph, encodeGraph, graphCodec, restoreGraph } from '../../../src/emulator/engine/object-graph.js';

class Node {
  next: Node | null = null;
  constructor(readonly value: number) {}
}

class Holder {
  readonly seen = new Set<string>();
  readonly byId = new Map<number, Node>();
  head: Node | null = null;
  count = 0n;
  price = new Decimal('0.1');
  bytes = new Float64Array([1.5, -0]);
  /** Wiring made by the constructor: a closure over this holder. */
  readonly onChange: () => number;

  constructor(readonly clock: { now(): number }) {
    this.onChange = () => this.byId.size;
  }
}

/** Installs a listener on first use, remembered by a flag: the lazily made wiring a restore must redo. */
class Lazy {
  readonly listeners: (() => void)[] = [];
  watching = false;

  use(): void {
    if (this.watching) return;
    this.watching = true;
    this.listeners.push(() => undefined);
  }
}

class Revived extends Lazy {
  reviveAfterSnapshot(): void {
    if (!this.watching) return;
    this.watching = false;
    this.use();
  }
}

class Unknown {
  x = 1;
}

const codec = graphCodec([Node, Holder, Lazy, Revived]);

describe('object-graph snapshot', () => {
  it('restores_cycles_maps_sets_bigint_decimal_and_typed_arrays_into_a_fresh_graph_keeping_its_wiring', () => {
    const clockA = { now: () => 1 };
    const a = new Holder(clockA);
    // A three-link cycle shared between the list and the map.
    const n1 = new Node(1);
    const n2 = new Node(2);
    const n3 = new Node(3);
    n1.next = n2;
    n2.next = n3;
    n3.next = n1;
    a.head = n1;
    for (const n of [n1, n2, n3]) a.byId.set(n.value, n);
    a.seen.add('x').add('y');
    a.count = 2n ** 70n;
    a.price = new Decimal('87000.123456789012345');
    a.bytes = new Float64Array([3.25, Number.NaN]);
    const data = encodeGraph({ holder: a }, codec, new Set([clockA]));

    const clockB = { now: () => 2 };
    const b = new Holder(clockB);
    const wiring = b.onChange;
    restoreGraph({ holder: b }, decodeGraph(data, codec), codec);

    expect(b.onChange).to.equal(wiring); // the fresh closure is kept …
    expect(b.onChange()).to.equal(3); // … and sees the restored data through the same object
    expect(b.clock).to.equal(clockB); // external objects stay the fresh graph's
    expect(b.head!.value).to.equal(1);
    expect(b.head!.next!.next!.next).to.equal(b.head); // the cycle, not copies
    expect(b.byId.get(2)).to.equal(b.head!.next);
    expect(b.head).to.be.instanceOf(Node);
    expect([...b.seen]).to.deep.equal(['x', 'y']);
    expect(b.count).to.equal(2n ** 70n);
    expect(b.price.toString()).to.equal('87000.123456789012345');
    expect(b.price).to.be.instanceOf(Decimal);
    expect([...b.bytes]).to.deep.equal([3.25, Number.NaN]);
  });

  it('refuses_an_instance_of_a_class_it_does_not_know_naming_where_it_is', () => {
    const h = new Holder({ now: () => 1 });
    (h as unknown as { extra: Unknown }).extra = new Unknown();
    expect(() => encodeGraph({ holder: h }, codec, new Set())).to.throw(
      'snapshot: $.holder.extra is a Unknown, which the snapshot registry does not know',
    );
  });

  it('refuses_before_writing_anything_when_a_created_object_would_need_a_fresh_closure', () => {
    const a = new Holder({ now: () => 1 });
    const data = encodeGraph({ list: [a] }, codec, new Set());
    const fresh = { list: [] as Holder[] };
    expect(() => restoreGraph(fresh, decodeGraph(data, codec), codec)).to.throw('the freshly built graph has no Holder at its place');
    expect(fresh.list).to.deep.equal([]);
  });

  it('fails_when_lazily_made_wiring_is_missing_after_a_restore_unless_the_class_revives_it', () => {
    const lazy = new Lazy();
    lazy.use();
    expect(() => restoreGraph({ x: new Lazy() }, decodeGraph(encodeGraph({ x: lazy }, codec, new Set()), codec), codec)).to.throw(
      'a listener list held 1 function(s) when written and holds 0 after the restore',
    );
    const revived = new Revived();
    revived.use();
    const fresh = new Revived();
    restoreGraph({ x: fresh }, decodeGraph(encodeGraph({ x: revived }, codec, new Set()), codec), codec);
    expect([fresh.watching, fresh.listeners.length]).to.deep.equal([true, 1]);
  });

  it('refuses_a_damaged_snapshot_when_decoding', () => {
    const data = encodeGraph({ holder: new Holder({ now: () => 1 }) }, codec, new Set());
    expect(() => decodeGraph(data.subarray(0, data.length >> 1), codec)).to.throw();
  });
});
