/**
 * An ArcSight CEF record read back, independently of the service's writer: seven header fields
 * split on unescaped `|` (with `\|` and `\\` unescaped), then the extension's key=value pairs
 * (a key is a run of word characters before an unescaped `=`; `\=`, `\\`, `\n` unescaped).
 */
export interface CefRecord {
  version: string;
  vendor: string;
  product: string;
  productVersion: string;
  signatureId: string;
  name: string;
  severity: number;
  extension: Record<string, string>;
}

export function parseCef(text: string): CefRecord {
  if (!text.startsWith("CEF:")) throw new Error(`not CEF: ${text}`);
  const header: string[] = [];
  let current = "";
  let index = 4;
  while (header.length < 7 && index < text.length) {
    const char = text[index]!;
    if (char === "\\" && (text[index + 1] === "|" || text[index + 1] === "\\")) {
      current += text[index + 1];
      index += 2;
      continue;
    }
    if (char === "|") {
      header.push(current);
      current = "";
    } else current += char;
    index++;
  }
  if (header.length < 7) throw new Error(`CEF header incomplete: ${text}`);
  const rest = text.slice(index);
  const extension: Record<string, string> = {};
  const keyAt = /(?:^| )(\w+)=/g;
  const starts: Array<{ key: string; valueStart: number; start: number }> = [];
  for (const match of rest.matchAll(keyAt)) {
    // a key's `=` must not be escaped, and `\=` inside a value never matches \w+= after a space anyway
    starts.push({ key: match[1]!, valueStart: match.index! + match[0].length, start: match.index! });
  }
  starts.forEach((entry, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.start : rest.length;
    extension[entry.key] = rest
      .slice(entry.valueStart, end)
      .replace(/\\(.)/g, (_all, c: string) => (c === "n" ? "\n" : c === "r" ? "\r" : c));
  });
  const [version, vendor, product, productVersion, signatureId, name, severity] = header;
  return {
    version: version!,
    vendor: vendor!,
    product: product!,
    productVersion: productVersion!,
    signatureId: signatureId!,
    name: name!,
    severity: Number(severity),
    extension,
  };
}
