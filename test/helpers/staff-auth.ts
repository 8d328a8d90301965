import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import NextAuth, { getServerSession } from "next-auth";
import { createUiRequestHandler } from "../../server/api/ui/handler";
import { authOptionsWithSso, buildAuthOptions, type UiSession } from "../../server/api/ui/session";
import { staffSessionCookieName } from "../../server/auth/ui-cookie";
import type { Db } from "../../server/db/client";
import { readBodyAtMost } from "../../server/http/node-io";
import { sendFetchResponse, toFetchRequest } from "./fetch-bridge";

function cookiesOf(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0) cookies[part.slice(0, separator).trim()] = decodeURIComponent(part.slice(separator + 1).trim());
  }
  return cookies;
}

/**
 * The admin UI's authentication as the app runs it, on a real HTTP server at 127.0.0.1:
 * next-auth's own handler with the app's options (server/api/ui/session.ts) at /api/auth/*, and
 * the UI procedures at /api/trpc whose session is what next-auth's getServerSession makes of
 * the request's cookie (as currentUiSession() does in the app). Only the database differs.
 */
export async function startStaffAuthServer(db: Db) {
  const options = buildAuthOptions(async () => db);
  const sessionOf = async (headers: Headers): Promise<UiSession | undefined> => {
    const request = { headers: Object.fromEntries(headers), cookies: cookiesOf(headers.get("cookie") ?? undefined) };
    const response = { getHeader() {}, setCookie() {}, setHeader() {} };
    const session = await getServerSession(request as never, response as never, options);
    return session?.ui;
  };
  const trpc = createUiRequestHandler({ getDb: async () => db, getSession: (request) => sessionOf(request.headers) });

  async function serveAuth(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://localhost");
    const raw = req.method === "POST" ? (await readBodyAtMost(req, 100_000)).toString("utf8") : "";
    const body = Object.fromEntries(new URLSearchParams(raw));
    const nextauth = url.pathname.replace(/^\/api\/auth\//, "").split("/");
    // The Next.js pages-router request and response shapes that next-auth's API handler reads.
    const apiRequest = Object.assign(req, {
      query: { ...Object.fromEntries(url.searchParams), nextauth },
      cookies: cookiesOf(req.headers.cookie),
      body,
    });
    const apiResponse = Object.assign(res, {
      status(code: number) {
        res.statusCode = code;
        return apiResponse;
      },
      json(value: unknown) {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(value));
      },
      send(value: unknown) {
        if (typeof value === "string") res.end(value);
        else apiResponse.json(value);
      },
    });
    // As the app route does: a provider per distributor's single sign-on, read on each request.
    await NextAuth(apiRequest as never, apiResponse as never, await authOptionsWithSso(async () => db));
  }

  const server = createServer((req, res) => {
    const handle = req.url?.startsWith("/api/auth/")
      ? serveAuth(req, res)
      : toFetchRequest(req, 100_000).then(async (request) => sendFetchResponse(req, res, await trpc(request)));
    handle.catch((error: unknown) => {
      res.writeHead(599, { "content-type": "text/plain" });
      res.end(`test server: handler threw: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.NEXTAUTH_URL ??= baseUrl; // as scripts/start.ts sets it (else next-auth warns)

  return {
    baseUrl,
    /** What the app makes of a request carrying this session cookie. */
    sessionFor: (cookie: string) => sessionOf(new Headers({ cookie: `${staffSessionCookieName()}=${cookie}` })),
    /** A browser of its own (its cookie jar). */
    browser: () => staffBrowser(baseUrl),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's side of the admin UI's sign-in: a cookie jar, next-auth's CSRF dance, tRPC calls. */
function staffBrowser(baseUrl: string) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  async function request(path: string, init: { method?: string; form?: Record<string, string>; json?: unknown } = {}) {
    const headers: Record<string, string> = { cookie: cookieHeader() };
    let body: string | undefined;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    }
    const response = await fetch(baseUrl + path, { method: init.method ?? "GET", headers, body, redirect: "manual" });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair] = setCookie.split(";");
      const separator = pair!.indexOf("=");
      const name = pair!.slice(0, separator);
      const value = pair!.slice(separator + 1);
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(setCookie)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }
  async function csrfToken(): Promise<string> {
    return ((await (await request("/api/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
  }
  return {
    /** The session cookie's value now (undefined when there is none). */
    sessionCookie: () => jar.get(staffSessionCookieName()),
    setSessionCookie: (value: string) => jar.set(staffSessionCookieName(), value),
    /** A request with this browser's cookies (a path of the app, or a full URL of the app). */
    request: (pathOrUrl: string, init?: { method?: string; form?: Record<string, string>; json?: unknown }) =>
      request(pathOrUrl.startsWith(baseUrl) ? pathOrUrl.slice(baseUrl.length) : pathOrUrl, init),
    csrfToken,
    async signIn(email: string, password: string, otp?: string): Promise<{ ok: boolean; error?: string }> {
      const response = await request("/api/auth/callback/staff", {
        method: "POST",
        form: { csrfToken: await csrfToken(), email, password, ...(otp === undefined ? {} : { otp }), json: "true" },
      });
      const { url } = (await response.json()) as { url: string };
      const error = new URL(url).searchParams.get("error") ?? undefined;
      return { ok: !error && jar.has(staffSessionCookieName()), error };
    },
    async signOut(): Promise<void> {
      await request("/api/auth/signout", { method: "POST", form: { csrfToken: await csrfToken(), json: "true" } });
    },
    /** A UI procedure over /api/trpc (a query by GET, a mutation by POST): its status and body. */
    async call(path: string, input?: unknown, type: "query" | "mutation" = "query") {
      const response =
        type === "query"
          ? await request(`/api/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`)
          : await request(`/api/trpc/${path}`, { method: "POST", json: input ?? {} });
      return { status: response.status, body: (await response.json()) as { result?: { data: any }; error?: { message: string } } };
    },
  };
}

export type StaffBrowser = ReturnType<Awaited<ReturnType<typeof startStaffAuthServer>>["browser"]>;
