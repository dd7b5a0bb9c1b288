import { expect } from 'chai';
import fc from 'fast-check';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { isGzipFile, readLineBatches, readLines } from '../../../src/marketdata/import/line-reader.js';
import { TempFiles, collect } from './support/data-fixtures.js';

/** The reader this one replaced, kept as the reference: node:readline over the (gunzipped) file, BOM cut from line 1. */
async function readlineLines(path: string): Promise<string[]> {
  const raw = createReadStream(path);
  const input = isGzipFile(path) ? raw.pipe(createGunzip()) : raw;
  const rl = createInterface({ input, crlfDelay: Infinity });
  const out: string[] = [];
  for await (const line of rl) out.push(out.length === 0 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
  return out;
}

/** Line ends of every kind, cells, and characters of one to four UTF-8 bytes (split across chunks when chunks are small). */
const piece = fc.constantFrom('a', '1', ',', ' ', '\n', '\r', '\r\n', '\n\n', 'é', '€', '😀', '\uFEFF');
const text = fc.tuple(fc.boolean(), fc.array(piece, { maxLength: 60 })).map(([bom, parts]) => (bom ? '\uFEFF' : '') + parts.join(''));

describe('line reader', () => {
  const temp = new TempFiles();
  afterEach(() => temp.remove());

  it('gives_the_lines_and_numbers_node_readline_gives_for_any_text_chunking_and_compression', async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 9 }), fc.boolean(), async (content, chunkBytes, gzip) => {
        const path = temp.write(gzip ? 'lines.gz' : 'lines.txt', content, gzip);
        const expected = await readlineLines(path);
        const batches = await collect(readLineBatches(path, undefined, chunkBytes));
        const lines = batches.flatMap((b) => [...b.lines]);
        expect(lines).to.deep.equal(expected);
        // Batches are consecutive, none empty, numbered from 1.
        let next = 1;
        for (const b of batches) {
          expect(b.lines.length).to.be.greaterThan(0);
          expect(b.firstLineNo).to.equal(next);
          next += b.lines.length;
        }
        const one = await collect(readLines(path));
        expect(one.map((l) => l.text)).to.deep.equal(expected);
        expect(one.map((l) => l.lineNo)).to.deep.equal(expected.map((_, k) => k + 1));
        temp.remove();
      }),
      { numRuns: 300 },
    );
  });

  it('splits_crlf_across_two_chunks_as_one_line_end_and_keeps_a_last_line_without_one', async () => {
    // With 1-byte chunks the CR and the LF of "a\r\nb" arrive apart; "c" has no line end.
    const path = temp.write('x.txt', 'a\r\nb\rc');
    const batches = await collect(readLineBatches(path, undefined, 1));
    expect(batches.flatMap((b) => [...b.lines])).to.deep.equal(['a', 'b', 'c']);
  });

  it('reports_the_file_bytes_read', async () => {
    const content = 'x,y\n'.repeat(1000);
    const path = temp.write('p.txt', content);
    const seen: number[] = [];
    await collect(readLineBatches(path, (n) => seen.push(n), 1024));
    expect(seen[seen.length - 1]).to.equal(content.length);
    expect(seen).to.deep.equal([...seen].sort((a, b) => a - b));
  });
});
