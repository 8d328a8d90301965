import type { IncomingMessage, ServerResponse } from "node:http";
import NextAuth from "next-auth/next";
import { staffCredentialsProvider } from "../../server/auth/ui-session";
import { stampPeerAddress } from "../../server/client-address";
import type { Db } from "../../server/db/client";
import { readBodyAtMost } from "../../server/http/node-io";
import { listenOnLoopback, type LoopbackServer } from "./http";
import { rawRequest } from "./raw-http";

/**
 * next-auth's staff sign-in over real HTTP on 127.0.0.1, on the test's database: each request
 * first goes through the production server's first step (stampPeerAddress, scripts/serve.ts),
 * then to next-auth's own handler (CSRF check, credentials callback, session cookie) with the
 * service's `staff` provider. The app route's handler needs Next.js's request scope, so next-auth
 * is served here through its Node entry, which hands the provider the request's headers as well.
 */
export function startStaffSignInServer(db: Db): Promise<LoopbackServer> {
  const options = {
    secret: "test-only-session-secret-0123456789abcdef",
    session: { strategy: "jwt" as const },
    pages: { signIn: "/admin/sign-in", error: "/admin/sign-in" },
    providers: [staffCredentialsProvider(async () => db)],
  };
  return listenOnLoopback(async (req: IncomingMessage, res: ServerResponse) => {
    stampPeerAddress(req);
    const url = new URL(req.url ?? "/", "http://localhost");
    const body =
      req.method === "POST" ? Object.fromEntries(new URLSearchParams((await readBodyAtMost(req, 64 * 1024)).toString())) : undefined;
    const cookies = Object.fromEntries(
      (req.headers.cookie ?? "")
        .split(";")
        .map((pair) => pair.trim().split("="))
        .filter(([name]) => name)
        .map(([name, ...value]) => [name, decodeURIComponent(value.join("="))]),
    );
    const nextauth = url.pathname
      .replace(/^\/api\/auth\/?/, "")
      .split("/")
      .filter(Boolean);
    // What Next.js's pages API adds to a Node request and response.
    Object.assign(req, { query: { ...Object.fromEntries(url.searchParams), nextauth }, body, cookies });
    const json = (value: unknown) => (res.setHeader("content-type", "application/json"), res.end(JSON.stringify(value)));
    Object.assign(res, {
      status: (code: number) => ((res.statusCode = code), res),
      send: (value: unknown) => (typeof value === "string" || value === undefined ? res.end(value) : json(value)),
      json,
    });
    await NextAuth(req as never, res as never, options);
  });
}

export type SignInOutcome = "signed-in" | "CredentialsSignin" | "RateLimited";

/**
 * Signs in as a browser does (next-auth's CSRF token, then the credentials form to
 * /api/auth/callback/staff), from `from` (a 127.0.0.x address), with `headers` added to the form's
 * request. Answers whether a session cookie came back, or next-auth's error code.
 */
export async function signInStaff(
  baseUrl: string,
  input: { email: string; password: string; from: string; headers?: Record<string, string> },
): Promise<SignInOutcome> {
  const csrf = await rawRequest(baseUrl, { path: "/api/auth/csrf", localAddress: input.from });
  if (csrf.status !== 200) throw new Error(`csrf: ${csrf.status} ${csrf.body.toString()}`);
  const { csrfToken } = JSON.parse(csrf.body.toString()) as { csrfToken: string };
  const cookie = (csrf.headers["set-cookie"] ?? []).map((value) => value.split(";")[0]).join("; ");
  const form = new URLSearchParams({ csrfToken, email: input.email, password: input.password, json: "true" }).toString();
  const answer = await rawRequest(baseUrl, {
    method: "POST",
    path: "/api/auth/callback/staff",
    localAddress: input.from,
    headers: {
      ...input.headers,
      cookie,
      "content-type": "application/x-www-form-urlencoded",
      "content-length": String(Buffer.byteLength(form)),
    },
    chunks: [Buffer.from(form)],
  });
  const { url } = JSON.parse(answer.body.toString()) as { url: string };
  const error = new URL(url).searchParams.get("error");
  if (error === "CredentialsSignin" || error === "RateLimited") return error;
  if (error) throw new Error(`unexpected sign-in error ${error} (${answer.status})`);
  if (!(answer.headers["set-cookie"] ?? []).some((value) => value.startsWith("next-auth.session-token="))) {
    throw new Error(`no session cookie after signing in (${answer.status} ${url})`);
  }
  return "signed-in";
}
