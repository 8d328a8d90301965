import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { BreachDataKind, BreachDataReport } from "../breaches/exposure-index/uploads";
import type { ServiceAccess } from "../service-access";
import { formatCount as format, listRejectedLines, listRemainder, type ReportStream } from "./import-report";

/**
 * The admin CLI's imports while a running server holds the embedded database (PGlite admits one
 * process per directory): each file is sent to that server's breach-data upload path with the
 * token the server wrote into DATA_DIR/service-access.json, streamed from disk, and imported
 * there by the same importers; the server writes the audit row (actor cli).
 */
export async function uploadToService(
  access: ServiceAccess,
  kind: BreachDataKind,
  file: string,
  query: Record<string, string> = {},
): Promise<BreachDataReport> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    throw new Error(`cannot read the ${kind} file ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const url = new URL(`/api/breach-data/${kind}`, access.url);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    // A server that refuses the file may answer before reading it all: the answer wins over the broken pipe.
    let answered = false;
    const req = send(
      url,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${access.token}`,
          "content-type": kind === "catalogue" ? "application/json" : "text/csv",
          "content-length": size,
        },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", (error) => {
      if (!answered) reject(new Error(`the running server at ${access.url} cannot be reached (${error.message}); is it still running?`));
    });
    createReadStream(file).on("error", reject).pipe(req);
  });
  let body: { success?: boolean; error?: string; report?: BreachDataReport } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (status !== 200 || !body?.success || !body.report) {
    throw new Error(`the running server refused the ${kind} file ${file} (${status}): ${body?.error ?? text.slice(0, 200)}`);
  }
  return body.report;
}

/** import-breaches through the running server: the catalogue, then the accounts; the CLI's report lines and answer. */
export async function importBreachesThroughService(
  access: ServiceAccess,
  { catalogueFile, accountsFile }: { catalogueFile: string; accountsFile?: string },
  report: ReportStream,
): Promise<{ breaches: number; accounts: number }> {
  const started = Date.now();
  report.write(`the embedded database is in use by the running server: sending the files to it at ${access.url}\n`);
  const catalogue = await uploadToService(access, "catalogue", catalogueFile);
  if (catalogue.kind !== "catalogue") throw new Error("unexpected answer to the catalogue upload");
  for (const rejected of catalogue.rejected) {
    report.write(`catalogue record ${rejected.record}${rejected.name ? ` (${rejected.name})` : ""} rejected: ${rejected.reason}\n`);
  }
  listRemainder(report, catalogue.rejectedCount, "catalogue records");
  let accounts = { rows: 0, added: 0, rejectedCount: 0 };
  if (accountsFile) {
    const answer = await uploadToService(access, "accounts", accountsFile);
    if (answer.kind !== "accounts") throw new Error("unexpected answer to the accounts upload");
    listRejectedLines(report, "accounts", answer.rejected, answer.rejectedCount);
    accounts = answer;
  }
  const seconds = (Date.now() - started) / 1000;
  report.write(
    `import-breaches: ${format(catalogue.breaches)} breaches (${catalogue.rejectedCount} rejected); ` +
      `${format(accounts.rows)} account rows read, ${format(accounts.added)} added, ${format(accounts.rejectedCount)} rejected; ` +
      `${seconds.toFixed(1)} s (through the running server)\n`,
  );
  return { breaches: catalogue.breaches, accounts: accounts.added };
}

/** import-stealer-logs through the running server. */
export async function importStealerLogsThroughService(
  access: ServiceAccess,
  { breachName, file }: { breachName: string; file: string },
  report: ReportStream,
): Promise<{ rows: number; added: number; addresses: number; rejected: number; resumedAtByte: number }> {
  const started = Date.now();
  report.write(`the embedded database is in use by the running server: sending the file to it at ${access.url}\n`);
  const result = await uploadToService(access, "stealer-logs", file, { breach: breachName });
  if (result.kind !== "stealer-logs") throw new Error("unexpected answer to the stealer-log upload");
  if (result.resumedAtByte > 0) report.write(`resumed an earlier run at byte ${format(result.resumedAtByte)}\n`);
  listRejectedLines(report, "stealer-log", result.rejected, result.rejectedCount);
  const seconds = (Date.now() - started) / 1000;
  report.write(
    `import-stealer-logs: ${format(result.rows)} rows read, ${format(result.added)} added ` +
      `(${format(result.addresses)} addresses new to the breach), ${format(result.rejectedCount)} rejected; ${seconds.toFixed(1)} s (through the running server)\n`,
  );
  return {
    rows: result.rows,
    added: result.added,
    addresses: result.addresses,
    rejected: result.rejectedCount,
    resumedAtByte: result.resumedAtByte,
  };
}
