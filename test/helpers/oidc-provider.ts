import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import Provider from "oidc-provider";

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1 for the single sign-on
 * tests: discovery, authorization with PKCE, the token endpoint, signed ID tokens (RS256, a key
 * made here). Its sign-in page is replaced by the test: the next authorization signs in as
 * `signInAs` and consents at once. `tamper` makes the token endpoint answer an ID token of the
 * provider's own but with another audience (`wrong-audience`) or signed with a key the provider
 * never published (`bad-signature`), as an attacker or a misconfigured provider would.
 */
export interface TestAccount {
  sub: string;
  email: string;
  email_verified?: boolean;
  name?: string;
}

export type Tamper = "none" | "wrong-audience" | "bad-signature";

export async function startOidcProvider(options: { clientId: string; clientSecret: string; redirectUris: string[] }) {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingJwk: JWK = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const { privateKey: strangerKey } = await generateKeyPair("RS256", { extractable: true });
  const state: { signInAs: TestAccount; tamper: Tamper; accounts: Map<string, TestAccount> } = {
    signInAs: { sub: "nobody", email: "nobody@example.com" },
    tamper: "none",
    accounts: new Map(),
  };

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [signingJwk] },
    cookies: { keys: ["test-cookie-key-0123456789abcdef"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const account = state.accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ email_verified: true, ...account }) };
    },
  });
  provider.proxy = false;
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    const account = state.signInAs;
    state.accounts.set(account.sub, account);
    const grant = new provider.Grant({ accountId: account.sub, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  /** The token endpoint's answer, its ID token re-signed as `tamper` says. */
  async function tamperedToken(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const forwarded = await fetch(`${issuer}/token`, {
      method: "POST",
      headers: {
        authorization: String(req.headers.authorization ?? ""),
        "content-type": String(req.headers["content-type"]),
        "x-untampered": "1",
      },
      body: Buffer.concat(chunks),
    });
    const body = (await forwarded.json()) as { id_token?: string };
    if (forwarded.ok && body.id_token) {
      const claims = decodeJwt(body.id_token);
      const audience = state.tamper === "wrong-audience" ? "another-client" : claims.aud;
      body.id_token = await new SignJWT({ ...claims, aud: audience })
        .setProtectedHeader({ alg: "RS256", kid: "test-key", typ: "JWT" })
        .sign(state.tamper === "bad-signature" ? strangerKey : privateKey);
    }
    res.writeHead(forwarded.status, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/";
    const handle = url.startsWith("/interaction/")
      ? interaction(req, res)
      : url === "/token" && state.tamper !== "none" && !req.headers["x-untampered"]
        ? tamperedToken(req, res)
        : Promise.resolve(callback(req, res));
    handle.catch((error: unknown) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });

  return {
    issuer,
    signInAs(account: TestAccount) {
      state.signInAs = account;
    },
    tamper(mode: Tamper) {
      state.tamper = mode;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestOidcProvider = Awaited<ReturnType<typeof startOidcProvider>>;
