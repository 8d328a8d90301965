import { describe, expect, it } from "vitest";
import { gateCandidates, partitionAddresses, partitionExposures, type Disclosure } from "../../server/findings/disclosure";

/** The exposure partition of a scan (docs/domains.md, "What stays hidden"), without a database. */
const verified = (policy: Disclosure["policy"], verifiedDomains: string[] = [], contestedDomains: string[] = []): Disclosure => ({
  policy,
  verifiedDomains: new Set(verifiedDomains),
  contestedDomains: new Set(contestedDomains),
});
const addresses = {
  domains: new Set(["acme.example"]),
  emails: ["ceo@acme.example", "it@other.example", "guess@victim.example"],
  inactiveEmails: ["left@acme.example"],
  withheldListed: ["guess@victim.example"],
};
const exposures = [
  { email: "ceo@acme.example", breachId: "b1" },
  { email: "new@acme.example", breachId: "b1" },
  { email: "left@acme.example", breachId: "b1" },
  { email: "guess@victim.example", breachId: "b2" },
  { email: "stranger@nowhere.example", breachId: "b2" },
  { email: "it@other.example", breachId: "sensitive" },
];

describe("partitionAddresses", () => {
  it("under verified, at an unverified domain: a found address is hidden, a listed-past-budget one held", () => {
    const partition = partitionAddresses(verified("verified"), addresses, exposures);
    expect([...partition.monitored]).toEqual(["ceo@acme.example", "it@other.example"]);
    expect([...partition.held]).toEqual(["guess@victim.example"]);
    expect(partition.discovered).toEqual([]);
    expect([...partition.hidden]).toEqual(["new@acme.example"]);
  });

  it("once the domain is verified the found address is discovered; an inactive user's is never found again", () => {
    const partition = partitionAddresses(verified("verified", ["acme.example"]), addresses, exposures);
    expect(partition.discovered).toEqual(["new@acme.example"]);
    expect(partition.hidden.size).toBe(0);
    expect(partition.discovered).not.toContain("left@acme.example");
  });

  it("under trusted, an uncontested monitored domain reveals, a contested one does not; a held address at another domain needs verification", () => {
    expect(partitionAddresses(verified("trusted"), addresses, exposures).discovered).toEqual(["new@acme.example"]);
    expect([...partitionAddresses(verified("trusted", [], ["acme.example"]), addresses, exposures).hidden]).toEqual(["new@acme.example"]);
    expect([...partitionAddresses(verified("trusted"), addresses, exposures).held]).toEqual(["guess@victim.example"]);
    const victimVerified = partitionAddresses(verified("trusted", ["victim.example"]), addresses, exposures);
    expect(victimVerified.held.size).toBe(0);
    expect(victimVerified.monitored.has("guess@victim.example")).toBe(true);
  });
});

describe("partitionExposures", () => {
  it("withholds hidden, held and gated exposures and records the rest by breach", () => {
    const disclosure = verified("verified", ["acme.example"]);
    const partition = partitionAddresses(disclosure, addresses, exposures);
    partition.monitored.add("new@acme.example"); // added as discovered
    expect(gateCandidates(disclosure, partition.monitored, exposures)).toEqual(["sensitive"]);
    const { withheld, emailsByBreach } = partitionExposures(disclosure, partition, new Set(["sensitive"]), exposures);
    expect(withheld).toEqual([
      { email: "guess@victim.example", breachId: "b2" },
      { email: "it@other.example", breachId: "sensitive" },
    ]);
    expect(Object.fromEntries([...emailsByBreach].map(([breach, emails]) => [breach, [...emails]]))).toEqual({
      b1: ["ceo@acme.example", "new@acme.example"],
    });
  });

  it("shows a sensitive breach of an address at a verified domain", () => {
    const disclosure = verified("verified", ["other.example"]);
    const partition = partitionAddresses(disclosure, addresses, exposures);
    const { withheld, emailsByBreach } = partitionExposures(disclosure, partition, new Set(["sensitive"]), exposures);
    expect(withheld.map((exposure) => exposure.breachId)).not.toContain("sensitive");
    expect([...emailsByBreach.get("sensitive")!]).toEqual(["it@other.example"]);
  });
});
