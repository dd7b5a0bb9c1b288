import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { crc32, dosDateTime, zip } from '../../../src/venue/analysis/zip-writer.js';
import { columnName, xlsxWorkbook } from '../../../src/venue/analysis/xlsx-writer.js';
import { pdfDocument } from '../../../src/venue/analysis/pdf-writer.js';
import { parseUtcOffset } from '../../../src/venue/analysis/pnl-export.js';
import { readZip } from './zip-reader.js';

describe('export writers', () => {
  it('computes_the_standard_crc32_check_value', () => {
    // CRC-32/ISO-HDLC of "123456789" is 0xCBF43926
    expect(crc32(Buffer.from('123456789'))).to.equal(0xcbf43926);
  });

  it('writes_a_zip_that_an_independent_reader_inflates_back', () => {
    const big = Buffer.from('x'.repeat(10_000));
    const bytes = zip(
      [
        { name: 'a.txt', data: Buffer.from('hello') },
        { name: 'dir/b.txt', data: big },
      ],
      Date.UTC(2026, 0, 2, 3, 4, 6),
    );
    const entries = readZip(bytes);
    expect(entries.map((e) => [e.name, e.data.toString().slice(0, 5), e.data.length, e.crcOk])).to.deep.equal([
      ['a.txt', 'hello', 5, true],
      ['dir/b.txt', 'xxxxx', 10_000, true],
    ]);
    // 2026-01-02 03:04:06 → date (46 << 9) | (1 << 5) | 2, time (3 << 11) | (4 << 5) | 3
    expect(dosDateTime(Date.UTC(2026, 0, 2, 3, 4, 6))).to.deep.equal({ date: (46 << 9) | (1 << 5) | 2, time: (3 << 11) | (4 << 5) | 3 });
  });

  it('writes_an_ooxml_workbook_with_inline_strings_and_numbers', () => {
    const bytes = xlsxWorkbook(
      [
        {
          name: 'Daily',
          rows: [
            ['Date', 'PnL'],
            ['2026-01-01', new Decimal('-3.5')],
            ['a<b & c', 7],
          ],
          headerRows: 1,
        },
      ],
      0,
    );
    const parts = new Map(readZip(bytes).map((e) => [e.name, e.data.toString('utf8')]));
    expect([...parts.keys()]).to.include.members([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).to.contain('<c r="B2"><v>-3.5</v></c>');
    expect(sheet).to.contain('<c r="A3" t="inlineStr"><is><t xml:space="preserve">a&lt;b &amp; c</t></is></c>');
    expect(sheet).to.contain('<c r="A1" t="inlineStr" s="1">');
    expect(parts.get('xl/workbook.xml')).to.contain('<sheet name="Daily" sheetId="1" r:id="rId1"/>');
  });

  it('names_columns_past_z', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnName)).to.deep.equal(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });

  it('writes_a_pdf_whose_xref_offsets_point_at_its_objects', () => {
    const lines = Array.from({ length: 130 }, (_, i) => `line ${i} (x)`);
    const pdf = pdfDocument(lines, { title: 'T', createdAt: 0, fontSize: 9 });
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-1.4')).to.equal(true);
    expect(text.trimEnd().endsWith('%%EOF')).to.equal(true);
    const startxref = Number(/startxref\n(\d+)\n/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 4)).to.equal('xref');
    const rows = text
      .slice(startxref)
      .split('\n')
      .slice(2)
      .filter((l) => / n $/.test(l));
    rows.forEach((row, i) => {
      const off = Number(row.slice(0, 10));
      expect(text.slice(off, off + `${i + 1} 0 obj`.length)).to.equal(`${i + 1} 0 obj`);
    });
    // 130 lines at 9 pt (leading 12): 61 per page → 3 pages
    expect(/\/Count (\d+)/.exec(text)![1]).to.equal('3');
    expect(text).to.contain('(line 0 \\(x\\)) Tj');
  });

  it('reads_utc_offsets_of_the_timezone_header', () => {
    expect(['UTC+8', 'GMT+08:00', '+8', 'UTC-5:30', 'UTC', 'utc+14', 'UTC+15', 'Asia/Shanghai', ''].map(parseUtcOffset)).to.deep.equal([
      480,
      480,
      480,
      -330,
      0,
      840,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
