import type { IncomingMessage, ServerResponse } from "node:http";
import NextAuth from "next-auth/next";
import { staffCredentialsProvider } from "../../server/api/ui/session";
import { staffSessionCookieName } from "../../server/auth/ui-cookie";
import { stampPeerAddress } from "../../server/client-address";
import type { Db } from "../../server/db/client";
import { readBodyAtMost } from "../../server/http/node-io";
import { listenOnLoopback, type LoopbackServer } from "./http";

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
    // The app's cookie name (server/auth/ui-cookie.ts), which the sign-in client looks for.
    cookies: { sessionToken: { name: staffSessionCookieName(), options: { httpOnly: true, sameSite: "lax" as const, path: "/" } } },
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
