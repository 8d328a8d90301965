import { generateSecret, generateURI } from "otplib";
import { describe, expect, it } from "vitest";
import { redactSecrets, REDACTED } from "../../server/audit/redact";
import { hotp, secretOfUri, totp } from "../helpers/totp";

describe("the tests' own TOTP (the authenticator's side)", () => {
  // RFC 6238, appendix B: the SHA-1 seed "12345678901234567890", 8 digits.
  const seed = Buffer.from("12345678901234567890");
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ])("matches RFC 6238's vector at T=%i", (time, code) => {
    expect(hotp(seed, Math.floor(time / 30), 8)).toBe(code);
  });

  it("reads the seed of the service's otpauth URI and makes 6-digit codes", () => {
    const secret = generateSecret();
    const uri = generateURI({ issuer: "Exposure monitoring", label: "ops@example.com", secret });
    expect(secretOfUri(uri)).toBe(secret);
    expect(totp(secret)).toMatch(/^\d{6}$/);
  });
});

describe("audit values without secrets", () => {
  it("replaces secret-named keys, API keys and one-time tokens in links, and keeps the rest", () => {
    expect(
      redactSecrets({
        name: "Acme",
        apiKey: "expmon_p_abc",
        secret: "7d8a0b7e-0b7e-4d8a-8f0b-7e0b7e4d8a8f",
        clientSecret: "s3cr3t",
        password: "correct horse battery",
        recoveryCodes: ["abcde-fghij"],
        url: "https://app.example/auth/confirm?token_hash=AAAA&type=magiclink",
        nested: { webhook: { id: "1", secret: "x" }, key: "expmon_d_xyz" },
        code: "BASIC-EUR",
        enabled: false,
      }),
    ).toEqual({
      name: "Acme",
      apiKey: REDACTED,
      secret: REDACTED,
      clientSecret: REDACTED,
      password: REDACTED,
      recoveryCodes: REDACTED,
      url: `https://app.example/auth/confirm?token_hash=${REDACTED}&type=magiclink`,
      nested: { webhook: { id: "1", secret: REDACTED }, key: REDACTED },
      code: "BASIC-EUR",
      enabled: false,
    });
  });
});
