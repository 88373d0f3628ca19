/**
 * Comma-separated values as RFC 4180 writes them (R's write.csv, spreadsheets): fields may be
 * quoted, a quote inside a quoted field doubled; lines end in LF or CRLF. Returns the rows, each a
 * list of fields, with the row number (1-based, the header being row 1) of each. Blank lines are
 * skipped but counted, so a row number is the one an editor shows.
 */
export function parseCsv(text: string): Array<{ row: number; fields: string[] }> {
  const rows: Array<{ row: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let startLine = 1;
  const end = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0] !== '') rows.push({ row: startLine, fields });
    fields = [];
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      end();
      line++;
      startLine = line;
    } else field += c;
  }
  if (quoted) throw new CsvError(`row ${startLine}: a quoted field is not closed`);
  if (field !== '' || fields.length > 0) end();
  return rows;
}

export class CsvError extends Error {}
