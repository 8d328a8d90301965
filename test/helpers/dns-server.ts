import { createSocket } from "node:dgram";
import type { AddressInfo } from "node:net";

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP) for tests: answers TXT questions from the
 * records it is given, NXDOMAIN for names it does not know, an empty answer for other types.
 * Enough of RFC 1035 for Node's resolver (c-ares); `address` is what DNS_SERVERS takes.
 */
export async function startDnsServer() {
  const txt = new Map<string, string[]>();
  const socket = createSocket("udp4");
  socket.on("message", (query, peer) => {
    const answer = respond(query, txt);
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    /** Publishes a TXT record (several per name allowed). */
    setTxt(name: string, ...values: string[]) {
      txt.set(name.toLowerCase(), [...(txt.get(name.toLowerCase()) ?? []), ...values]);
    },
    clear: () => txt.clear(),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function respond(query: Buffer, txt: Map<string, string[]>): Buffer | undefined {
  if (query.length < 12) return undefined;
  let offset = 12;
  const labels: string[] = [];
  while (offset < query.length && query[offset]! > 0) {
    const length = query[offset]!;
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString("ascii"));
    offset += length + 1;
  }
  offset += 1;
  const qtype = query.readUInt16BE(offset);
  const question = query.subarray(12, offset + 4);
  const name = labels.join(".").toLowerCase();
  const records = txt.get(name);
  const answers = records && qtype === 16 ? records : [];
  const known = records !== undefined;
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  header.writeUInt16BE(0x8180 | (query.readUInt16BE(2) & 0x0100) | (known ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const body = answers.map((value) => {
    const text = Buffer.from(value, "utf8");
    const chunks: Buffer[] = [];
    for (let start = 0; start < text.length || start === 0; start += 255) {
      const part = text.subarray(start, start + 255);
      chunks.push(Buffer.from([part.length]), part);
      if (text.length === 0) break;
    }
    const rdata = Buffer.concat(chunks);
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0);
    record.writeUInt16BE(16, 2);
    record.writeUInt16BE(1, 4);
    record.writeUInt32BE(60, 6);
    record.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([record, rdata]);
  });
  return Buffer.concat([header, question, ...body]);
}
