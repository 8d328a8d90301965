import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContractServer, loadDescription } from "../helpers/psa-contract";
import { FakeConnectWise } from "../helpers/psa-fakes";

/** The fakes' checks can fail: requests and answers off the vendor's description are reported. */
const credentials = { companyId: "acme", publicKey: "pub", privateKey: "priv", clientId: randomUUID() };
const psa = new FakeConnectWise(credentials);
const headers = {
  authorization: `Basic ${Buffer.from("acme+pub:priv").toString("base64")}`,
  clientId: credentials.clientId,
  "content-type": "application/json",
};
beforeAll(() => psa.start());
afterAll(() => psa.close());

describe("the PSA contract checks", () => {
  it("report a request body property the description does not name, and a missing required one", async () => {
    await fetch(`${psa.baseUrl}${FakeConnectWise.BASE}/service/tickets`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        summary: "x",
        company: { id: 1 },
        board: { id: 12 },
        externalXRef: "K",
        initialDescription: "d",
        urgency: "High",
      }),
    });
    await fetch(`${psa.baseUrl}${FakeConnectWise.BASE}/service/tickets`, {
      method: "POST",
      headers,
      body: JSON.stringify({ company: { id: 1 } }),
    });
    expect(psa.violations).toEqual([expect.stringMatching(/request body: .*urgency/), expect.stringMatching(/request body: summary/)]);
    psa.violations.length = 0;
  });

  it("report an undescribed query parameter, a wrongly typed one, and an undescribed path", async () => {
    await fetch(`${psa.baseUrl}${FakeConnectWise.BASE}/service/tickets?search=x&pageSize=ten`, { headers });
    await fetch(`${psa.baseUrl}${FakeConnectWise.BASE}/service/tickets/search`, { method: "POST", headers, body: "{}" });
    expect(psa.violations).toEqual([
      expect.stringContaining("pageSize is not a integer"),
      expect.stringContaining("query parameter search is not described"),
      expect.stringContaining("not an operation of the description"),
    ]);
    psa.violations.length = 0;
  });

  it("report an answer off the description", async () => {
    const server = await new ContractServer(loadDescription("connectwise-psa-openapi.json"), "", {
      "GET /service/boards/{id}": () => ({ status: 200, body: { id: 1 } }),
    }).start();
    await fetch(`${server.baseUrl}/service/boards/1`);
    await server.close();
    expect(server.violations).toEqual([expect.stringMatching(/answer: .*(name|location|department)/)]);
  });
});
