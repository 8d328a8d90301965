import { rawRequest } from "./raw-http";

/** What a staff sign-in came to. */
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
  if (!(answer.headers["set-cookie"] ?? []).some((value) => value.startsWith("staff-session="))) {
    throw new Error(`no session cookie after signing in (${answer.status} ${url})`);
  }
  return "signed-in";
}
