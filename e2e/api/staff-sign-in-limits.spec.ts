import { expect, test } from "@playwright/test";
import { signInStaff } from "../../test/helpers/sign-in-client";
import { demo } from "../demo";

/**
 * Staff sign-in limits on the production server (`npm start`, no proxy, TRUST_PROXY unset): the
 * server stamps each request's peer address and next-auth's route handler reads it
 * (docs/admin-ui.md, "Sign-in limits"). Every 127.0.0.x is a client of its own.
 */
test("failed sign-ins from one client do not lock the demo staff member out from another", async ({ baseURL }) => {
  const signIn = (email: string, password: string, from: string, headers?: Record<string, string>) =>
    signInStaff(baseURL!, { email, password, from, headers });
  for (let attempt = 0; attempt < 50; attempt++) {
    expect(await signIn(`made-up-${attempt}@nowhere.example`, "wrong password", "127.0.0.2")).toBe("CredentialsSignin");
  }
  expect(await signIn(demo().staffEmail, demo().staffPassword, "127.0.0.2")).toBe("RateLimited");
  expect(await signIn(demo().staffEmail, demo().staffPassword, "127.0.0.3")).toBe("signed-in");
});

test("a client rotating X-Forwarded-For is limited like any client", async ({ baseURL }) => {
  const from = "127.0.0.4";
  for (let attempt = 0; attempt < 10; attempt++) {
    const headers = { "x-forwarded-for": `203.0.113.${attempt}`, "x-exposure-monitor-peer": `198.51.100.${attempt}` };
    expect(await signInStaff(baseURL!, { email: demo().staffEmail, password: `guess ${attempt}`, from, headers })).toBe(
      "CredentialsSignin",
    );
  }
  const headers = { "x-forwarded-for": "203.0.113.200" };
  expect(await signInStaff(baseURL!, { email: demo().staffEmail, password: demo().staffPassword, from, headers })).toBe("RateLimited");
  expect(await signInStaff(baseURL!, { email: demo().staffEmail, password: demo().staffPassword, from: "127.0.0.5" })).toBe("signed-in");
});
