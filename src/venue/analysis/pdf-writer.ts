/**
 * A minimal PDF 1.4 writer for text reports: A4 pages of monospaced lines (the standard Courier font,
 * which every reader has, so nothing is embedded), a catalog, a page tree, an info dictionary and a
 * cross-reference table with exact byte offsets. Text is limited to printable ASCII (anything else
 * becomes '?'), which is all the PnL export prints.
 */
export const PDF_CONTENT_TYPE = 'application/pdf';

export interface PdfOptions {
  readonly title: string;
  /** Creation time (the venue clock). */
  readonly createdAt: number;
  readonly fontSize?: number;
}

const PAGE_W = 595;
const PAGE_H = 842;
const MARGIN = 50;

export function escapePdfText(s: string): string {
  return s
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/\\/g, '\\\\')
    .replace(/\(/g, '\\(')
    .replace(/\)/g, '\\)');
}

function pdfDate(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

export function pdfDocument(lines: readonly string[], opts: PdfOptions): Buffer {
  const size = opts.fontSize ?? 9;
  const leading = Math.round(size * 1.35);
  const perPage = Math.max(1, Math.floor((PAGE_H - 2 * MARGIN) / leading));
  const pages: string[][] = [];
  for (let i = 0; i < Math.max(1, lines.length); i += perPage) pages.push(lines.slice(i, i + perPage) as string[]);

  // Objects: 1 catalog, 2 pages, 3 font, 4 info, then per page: page, contents.
  const objects: string[] = [];
  const pageIds = pages.map((_, k) => 5 + 2 * k);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>';
  objects[4] = `<< /Title (${escapePdfText(opts.title)}) /Producer (Perpetua emulator) /CreationDate (${pdfDate(opts.createdAt)}) >>`;
  pages.forEach((pageLines, k) => {
    const text = pageLines.map((l, i) => `${i === 0 ? '' : 'T* '}(${escapePdfText(l)}) Tj`).join('\n');
    const stream = `BT\n/F1 ${size} Tf\n${leading} TL\n${MARGIN} ${PAGE_H - MARGIN} Td\n${text}\nET`;
    objects[pageIds[k]!] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[k]! + 1} 0 R >>`;
    objects[pageIds[k]! + 1] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });

  const parts: string[] = ['%PDF-1.4\n%\xe2\xe3\xcf\xd3\n'];
  let offset = Buffer.byteLength(parts[0]!, 'latin1');
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = offset;
    const obj = `${id} 0 obj\n${objects[id]!}\nendobj\n`;
    parts.push(obj);
    offset += Buffer.byteLength(obj, 'latin1');
  }
  const count = objects.length;
  let xref = `xref\n0 ${count}\n0000000000 65535 f \n`;
  for (let id = 1; id < count; id++) xref += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  parts.push(xref, `trailer\n<< /Size ${count} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${offset}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}
