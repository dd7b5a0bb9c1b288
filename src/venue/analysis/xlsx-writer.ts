/**
 * A minimal Office Open XML workbook (ECMA-376 SpreadsheetML): content types, relationships, the
 * workbook, a small style sheet (bold header row) and one worksheet per sheet, zipped. Strings are
 * inline strings and numbers plain `<v>` values, so no shared-string table is needed. Neither exceljs
 * nor xlsx is installed; this covers what the PnL export needs and opens in Excel and LibreOffice.
 */
import type { Decimal } from '../../core/decimal.js';
import { zip } from './zip-writer.js';

export type Cell = string | number | Decimal | null;

export interface Sheet {
  /** At most 31 characters, none of : \ / ? * [ ]. */
  readonly name: string;
  readonly rows: readonly (readonly Cell[])[];
  /** Leading rows written bold (headers). */
  readonly headerRows?: number;
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

export function escapeXml(s: string): string {
  // Characters XML 1.0 cannot carry at all are dropped. A statement of its own, so the lint exception
  // stays on the line of the regex whatever a formatter does to the chain below.
  // eslint-disable-next-line no-control-regex
  const carried = s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
  return carried.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A1-style column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

function cellXml(ref: string, v: Cell, bold: boolean): string {
  const style = bold ? ' s="1"' : '';
  if (v === null) return '';
  if (typeof v === 'string') return `<c r="${ref}" t="inlineStr"${style}><is><t xml:space="preserve">${escapeXml(v)}</t></is></c>`;
  const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v.toFixed();
  if (text === '') return '';
  return `<c r="${ref}"${style}><v>${text}</v></c>`;
}

function sheetXml(sheet: Sheet): string {
  const rows = sheet.rows
    .map((row, r) => {
      const bold = r < (sheet.headerRows ?? 0);
      const cells = row.map((v, c) => cellXml(`${columnName(c)}${r + 1}`, v, bold)).join('');
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join('');
  return `${HEAD}<worksheet xmlns="${MAIN_NS}"><sheetData>${rows}</sheetData></worksheet>`;
}

const STYLES = `${HEAD}<styleSheet xmlns="${MAIN_NS}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

export function xlsxWorkbook(sheets: readonly Sheet[], modifiedAt: number): Buffer {
  if (sheets.length === 0) throw new RangeError('a workbook needs at least one sheet');
  const utf8 = (s: string) => Buffer.from(s, 'utf8');
  const overrides = sheets
    .map(
      (_, i) =>
        `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    )
    .join('');
  const contentTypes =
    `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    `${overrides}</Types>`;
  const rootRels = `${HEAD}<Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${DOC_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
  const workbook = `${HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${DOC_REL}"><sheets>${sheets.map((s, i) => `<sheet name="${escapeXml(s.name.slice(0, 31))}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`;
  const workbookRels =
    `${HEAD}<Relationships xmlns="${REL_NS}">` +
    sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${DOC_REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
    `<Relationship Id="rId${sheets.length + 1}" Type="${DOC_REL}/styles" Target="styles.xml"/></Relationships>`;
  return zip(
    [
      { name: '[Content_Types].xml', data: utf8(contentTypes) },
      { name: '_rels/.rels', data: utf8(rootRels) },
      { name: 'xl/workbook.xml', data: utf8(workbook) },
      { name: 'xl/_rels/workbook.xml.rels', data: utf8(workbookRels) },
      { name: 'xl/styles.xml', data: utf8(STYLES) },
      ...sheets.map((s, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data: utf8(sheetXml(s)) })),
    ],
    modifiedAt,
  );
}
