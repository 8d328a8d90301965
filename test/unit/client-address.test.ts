import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  clientKey,
  normalizeAddress,
  parseTrustProxy,
  pickClientAddress,
  requestClientAddress,
  stampPeerAddress,
  PEER_ADDRESS_HEADER,
} from "../../server/client-address";
import { checkConfig, config } from "../../server/config";
import { isSameOrigin } from "../../server/http/cross-site";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("TRUST_PROXY", () => {
  it("trusts no proxy when unset, empty, false or 0", () => {
    for (const value of [undefined, "", "  ", "false", "FALSE", "0"]) expect(parseTrustProxy(value)).toEqual({ kind: "none" });
  });

  it("takes a hop count", () => {
    expect(parseTrustProxy("2")).toEqual({ kind: "hops", hops: 2 });
  });

  it("takes addresses, CIDR networks and Express's preset names", () => {
    const trust = parseTrustProxy(" 10.0.0.5, 192.168.0.0/16 ,2001:db8::/32, loopback ");
    expect(trust.kind).toBe("ranges");
    if (trust.kind !== "ranges") return;
    expect(trust.ranges.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual([
      "10.0.0.5/32",
      "192.168.0.0/16",
      "2001:db8::/32",
      "127.0.0.0/8",
      "::1/128",
    ]);
  });

  it.each(["true", "nginx", "10.0.0.1/33", "10.0.0", "fe80::/129", "1.2.3.4/8/1", "33", ","])(
    "refuses %j with a message naming the variable",
    (value) => {
      expect(() => parseTrustProxy(value)).toThrow(/^TRUST_PROXY/);
      vi.stubEnv("TRUST_PROXY", value);
      expect(() => checkConfig()).toThrow(/^TRUST_PROXY/);
    },
  );

  it("is read from the environment by config.trustProxy", () => {
    vi.stubEnv("TRUST_PROXY", "1");
    expect(config.trustProxy()).toEqual({ kind: "hops", hops: 1 });
  });
});

describe("the client address", () => {
  const none = parseTrustProxy(undefined);

  it("is the peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(pickClientAddress("127.0.0.2", "203.0.113.9", none)).toBe("127.0.0.2");
    expect(pickClientAddress("::ffff:127.0.0.2", ["198.51.100.1", "203.0.113.9"], none)).toBe("127.0.0.2");
    expect(pickClientAddress("127.0.0.2", undefined, parseTrustProxy("10.0.0.1"))).toBe("127.0.0.2");
  });

  it("is the right-most untrusted hop when the peer is a trusted proxy", () => {
    const proxy = parseTrustProxy("127.0.0.1");
    // The client's own (forged) entry is left of what the proxy appended.
    expect(pickClientAddress("127.0.0.1", "6.6.6.6, 203.0.113.9", proxy)).toBe("203.0.113.9");
    expect(pickClientAddress("::ffff:127.0.0.1", "203.0.113.9", proxy)).toBe("203.0.113.9");
    // An untrusted peer's header is ignored.
    expect(pickClientAddress("127.0.0.5", "203.0.113.9", proxy)).toBe("127.0.0.5");
  });

  it("walks through every trusted proxy, as many hops as trusted", () => {
    const chain = ["198.51.100.7, 10.0.0.3", "10.0.0.2"];
    expect(pickClientAddress("10.0.0.1", chain, parseTrustProxy("10.0.0.0/8"))).toBe("198.51.100.7");
    expect(pickClientAddress("10.0.0.1", chain, parseTrustProxy("1"))).toBe("10.0.0.2");
    expect(pickClientAddress("10.0.0.1", chain, parseTrustProxy("3"))).toBe("198.51.100.7");
    // More hops trusted than there are: the left-most entry.
    expect(pickClientAddress("10.0.0.1", chain, parseTrustProxy("9"))).toBe("198.51.100.7");
  });

  it("stops at an entry that is not an address, at the hop that passed it on", () => {
    expect(pickClientAddress("10.0.0.1", "198.51.100.7, garbage, 10.0.0.2", parseTrustProxy("uniquelocal"))).toBe("10.0.0.2");
    expect(pickClientAddress("10.0.0.1", "unknown", parseTrustProxy("1"))).toBe("10.0.0.1");
  });

  it("reads IPv6 and entries with ports", () => {
    const proxy = parseTrustProxy("::1");
    expect(pickClientAddress("::1", "[2001:DB8::0:1]:4711", proxy)).toBe("2001:db8::1");
    expect(pickClientAddress("::1", "203.0.113.9:4711", proxy)).toBe("203.0.113.9");
    expect(normalizeAddress("not an address")).toBeUndefined();
    expect(normalizeAddress("127.1")).toBeUndefined();
  });

  it("is unknown without a peer", () => {
    expect(pickClientAddress(undefined, "203.0.113.9", parseTrustProxy("1"))).toBeUndefined();
  });

  it("is counted per IPv4 address and per IPv6 /64", () => {
    expect(clientKey("127.0.0.2")).toBe("127.0.0.2");
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:bbbb::9")).toBe("2001:db8:1:2::/64");
  });

  it("is read from the peer header only where the server stamps it", () => {
    // Nothing in this process stamped a request yet: a client-sent header is not believed.
    expect(requestClientAddress(new Headers({ [PEER_ADDRESS_HEADER]: "127.0.0.9" }), none)).toBeUndefined();
  });
});

describe("stampPeerAddress", () => {
  function request(rawHeaders: string[], remoteAddress = "192.0.2.7"): IncomingMessage {
    const req = new IncomingMessage(new Socket());
    Object.defineProperty(req.socket, "remoteAddress", { value: remoteAddress });
    req.rawHeaders = rawHeaders;
    const headers: Record<string, string> = {};
    for (let i = 0; i < rawHeaders.length; i += 2) headers[rawHeaders[i]!.toLowerCase()] = rawHeaders[i + 1]!;
    req.headers = headers;
    return req;
  }

  it("adds the socket's peer to the headers and the raw headers", () => {
    const req = request(["Host", "service.example", "X-Forwarded-For", "203.0.113.1"]);
    stampPeerAddress(req);
    expect(req.headers[PEER_ADDRESS_HEADER]).toBe("192.0.2.7");
    expect(req.rawHeaders).toEqual(["Host", "service.example", "X-Forwarded-For", "203.0.113.1", PEER_ADDRESS_HEADER, "192.0.2.7"]);
  });

  it("replaces every copy a client sent, in any case, and keeps the other headers in order", () => {
    const req = request(["X-Exposure-Monitor-Peer", "198.51.100.1", "Host", "service.example", "x-exposure-monitor-peer", "198.51.100.2"]);
    stampPeerAddress(req);
    expect(req.headers[PEER_ADDRESS_HEADER]).toBe("192.0.2.7");
    expect(req.rawHeaders).toEqual(["Host", "service.example", PEER_ADDRESS_HEADER, "192.0.2.7"]);
  });
});

describe("X-Forwarded-Host (issue 39)", () => {
  /** The headers of a request from `peer` as route handlers see them, stamped by the server. */
  function fromPeer(peer: string, headers: Record<string, string>): Headers {
    const req = new IncomingMessage(new Socket());
    Object.defineProperty(req.socket, "remoteAddress", { value: peer });
    req.headers = { ...headers };
    req.rawHeaders = Object.entries(headers).flat();
    stampPeerAddress(req);
    return new Headers(req.headers as Record<string, string>);
  }
  const attacker = { host: "service.example", origin: "http://attacker.example", "x-forwarded-host": "attacker.example" };

  it("is ignored from a peer that is not a trusted proxy: another site's Origin does not pass by naming itself", () => {
    vi.stubEnv("APP_URL", "http://service.example");
    vi.stubEnv("TRUST_PROXY", "");
    expect(isSameOrigin(fromPeer("198.51.100.7", attacker))).toBe(false);
    vi.stubEnv("TRUST_PROXY", "10.0.0.0/8");
    expect(isSameOrigin(fromPeer("198.51.100.7", attacker))).toBe(false);
  });

  it("is the host a trusted proxy forwards", () => {
    vi.stubEnv("APP_URL", "http://internal:3000");
    vi.stubEnv("TRUST_PROXY", "10.0.0.0/8");
    const viaProxy = { host: "internal:3000", origin: "https://public.example", "x-forwarded-host": "public.example" };
    expect(isSameOrigin(fromPeer("10.1.2.3", viaProxy))).toBe(true);
    expect(isSameOrigin(fromPeer("198.51.100.7", viaProxy))).toBe(false);
  });
});
