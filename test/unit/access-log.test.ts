import { describe, expect, it, vi, afterEach } from "vitest";
import { parseTrustProxy } from "../../server/client-address";
import { config } from "../../server/config";
import { forwardedRequestId } from "../../server/http/access-log";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("X-Request-Id from the peer", () => {
  const loopback = parseTrustProxy("loopback");

  it("is taken from a trusted proxy when well-formed", () => {
    expect(forwardedRequestId("127.0.0.1", "edge-7f3a:42", loopback)).toBe("edge-7f3a:42");
    expect(forwardedRequestId("::ffff:127.0.0.1", "0b9c1e2d-8a7f-4e36-9d1c-5f2b7a6e4c10", loopback)).toBe(
      "0b9c1e2d-8a7f-4e36-9d1c-5f2b7a6e4c10",
    );
  });

  it("is ignored from a peer that is not trusted, or with no proxy trusted", () => {
    expect(forwardedRequestId("203.0.113.9", "edge-7f3a", loopback)).toBeUndefined();
    expect(forwardedRequestId("127.0.0.1", "edge-7f3a", parseTrustProxy(undefined))).toBeUndefined();
  });

  it.each(["", "has space", "x".repeat(129), "line\nbreak", 'quote"d', "<script>"])("is ignored when malformed: %j", (id) => {
    expect(forwardedRequestId("127.0.0.1", id, loopback)).toBeUndefined();
  });

  it("is ignored when the header is repeated", () => {
    expect(forwardedRequestId("127.0.0.1", ["a", "b"], loopback)).toBeUndefined();
  });
});

describe("LOG_REQUESTS", () => {
  it("is on unless false", () => {
    vi.stubEnv("LOG_REQUESTS", "");
    expect(config.logRequests()).toBe(true);
    vi.stubEnv("LOG_REQUESTS", "false");
    expect(config.logRequests()).toBe(false);
  });
});
