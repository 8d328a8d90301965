import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { recordAuditAfter, type AuditActor } from "../../audit/log";
import {
  BREACH_UPLOAD_LIMITS,
  importUpload,
  isBreachDataKind,
  receiveUpload,
  uploadTooLarge,
  type BreachDataKind,
  type BreachDataReport,
} from "../../breaches/exposure-index/uploads";
import { requestClientAddress } from "../../client-address";
import { config } from "../../config";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { cookieRequestRefusal } from "../../http/cross-site";
import { log } from "../../log";
import { isServiceAccessToken } from "../../service-access";
import { createContext } from "../context";
import { createUiCaller } from "./root";
import type { UiSession } from "./session";

export const BREACH_DATA_PATH = "/api/breach-data/";
export const SIGN_IN_FIRST = "Sign in to the admin UI first";
export const SERVICE_TOKEN_REFUSED =
  "The service access token is not valid: it is new at every start of the server (DATA_DIR/service-access.json)";
const FAILED = "Failed to import the breach data";

/** The audit action of each kind: the same as the admin CLI's commands. */
const AUDIT_ACTIONS: Record<BreachDataKind, string> = {
  catalogue: "breaches.import",
  accounts: "breaches.import",
  "stealer-logs": "breaches.import-stealer-logs",
};

type Uploader = { actor: AuditActor; distributorId: string | null };

const json = (status: number, body: unknown) => Response.json(body, { status, headers: { "cache-control": "no-store" } });
const refusal = (error: AppError) => json(error.status, { success: false, error: error.message });

/**
 * POST /api/breach-data/{catalogue|accounts|stealer-logs}[?breach=NAME]: one breach-data file as
 * the request body (docs/admin-ui.md, "Breach data"), from the admin UI (staff session, owner of
 * a distributor allowed to import) or from the admin CLI beside a server that holds the embedded
 * database (`Authorization: Bearer` with the token in DATA_DIR/service-access.json). The body is
 * written to disk as it arrives and imported by the CLI's importers; the answer is the import's
 * report, and the import is audited as the CLI's is.
 */
export function createBreachDataUploadHandler(options: {
  getDb: () => Promise<Db>;
  getSession: (request: Request) => Promise<UiSession | undefined>;
}): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const kind = url.pathname.slice(url.pathname.indexOf(BREACH_DATA_PATH) + BREACH_DATA_PATH.length).replace(/\/+$/, "");
    if (!isBreachDataKind(kind)) {
      return json(404, { success: false, error: `Unknown breach data "${kind}": upload catalogue, accounts or stealer-logs` });
    }
    try {
      const db = await options.getDb();
      const uploader = await authenticate(db, request, options.getSession);
      const declared = Number(request.headers.get("content-length") ?? NaN);
      if (declared > BREACH_UPLOAD_LIMITS[kind]) throw uploadTooLarge(kind);
      const breachName = url.searchParams.get("breach") ?? undefined;
      if (kind === "stealer-logs" && !breachName?.trim()) {
        throw new AppError("BAD_REQUEST", "Name the stealer-log breach the file belongs to (breach)");
      }
      const upload = await receiveUpload(request.body as AsyncIterable<Uint8Array> | null, kind);
      const report = await importUpload(db, upload, kind, { breachName });
      await recordAuditAfter(db, {
        distributorId: uploader.distributorId,
        actor: uploader.actor,
        clientAddress: requestClientAddress(request.headers, config.trustProxy()) ?? null,
        action: AUDIT_ACTIONS[kind],
        target: { type: "breach-data", id: kind },
        after: { kind, bytes: upload.bytes, sha256: upload.sha256, ...summaryOf(report) },
      });
      log.info("breach data imported", { kind, bytes: upload.bytes, actor: uploader.actor.kind, ...summaryOf(report) });
      return json(200, { success: true, report });
    } catch (error) {
      if (error instanceof AppError) return refusal(error);
      log.error("breach data import failed", { kind, error });
      return json(500, { success: false, error: FAILED });
    }
  };
}

async function authenticate(db: Db, request: Request, getSession: (request: Request) => Promise<UiSession | undefined>): Promise<Uploader> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1];
    if (!token || !isServiceAccessToken(token)) throw new AppError("UNAUTHENTICATED", SERVICE_TOKEN_REFUSED);
    return { actor: { kind: "cli" }, distributorId: null };
  }
  const crossSite = cookieRequestRefusal({ method: request.method, headers: request.headers }, { json: false });
  if (crossSite) throw new AppError(crossSite.status === 403 ? "FORBIDDEN" : "BAD_REQUEST", crossSite.error);
  const session = await getSession(request);
  if (session?.kind !== "staff") throw new AppError("UNAUTHENTICATED", SIGN_IN_FIRST);
  // The staff procedures' own checks (live session, MFA enrolment, role read now).
  const caller = createUiCaller(createContext(db, request.headers, randomUUID(), session));
  let access;
  try {
    access = await caller.admin.breachData.access();
  } catch (error) {
    if (error instanceof TRPCError && error.cause instanceof AppError) throw error.cause;
    if (error instanceof TRPCError && error.code === "UNAUTHORIZED") throw new AppError("UNAUTHENTICATED", SIGN_IN_FIRST);
    throw error;
  }
  if (!access.mayImport) throw new AppError("FORBIDDEN", access.refusal ?? "Not allowed");
  return { actor: { kind: "staff", staffId: access.staff.id, email: access.staff.email }, distributorId: access.staff.distributorId };
}

/** The report's counts (the rejected lines stay in the answer, not in the audit row). */
function summaryOf(report: BreachDataReport): Record<string, unknown> {
  const { rejected: _rejected, ...counts } = report;
  return counts;
}
