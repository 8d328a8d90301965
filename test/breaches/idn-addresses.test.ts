import { beforeAll, describe, expect, it } from "vitest";
import { importAccounts } from "../../server/breaches/exposure-index/accounts-import";
import { importCatalogue } from "../../server/breaches/catalogue/catalogue";
import { scanCustomer } from "../../server/findings/scanner";
import { normalizeEmail } from "../../server/email-address";
import { onboardBody } from "../helpers/customers";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";
import { hibpBreach, writeTempFile } from "../helpers/breach-fixtures";

const { testDb, server } = restTestBed();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Idn");
  await importCatalogue(testDb.db, [hibpBreach("Umlaut"), hibpBreach("Accent"), hibpBreach("Cyrillic")]);
});

describe("normalizeEmail", () => {
  it.each([
    ["User@Bücher.Example", "user@xn--bcher-kva.example"],
    ["user@BÜCHER.example", "user@xn--bcher-kva.example"],
    ["user@xn--bcher-kva.example", "user@xn--bcher-kva.example"],
    // a decomposed é (e + combining accent) is the same domain as the composed one
    ["info@cafe\u0301.example", "info@xn--caf-dma.example"],
    ["info@café.example", "info@xn--caf-dma.example"],
    ["info@пример.рф", "info@xn--e1afmkfd.xn--p1ai"],
    [" CEO@Acme.Example ", "ceo@acme.example"],
    ["a!b@example.com", "a!b@example.com"],
  ])("gives %s the index's form %s", (raw, normalized) => {
    expect(normalizeEmail(raw)).toBe(normalized);
  });

  it.each(["üser@example.com", "user@bücher", "user@", "@example.com", "user@exa_mple.com", "user@bü cher.example"])(
    "refuses %s",
    (raw) => {
      expect(normalizeEmail(raw)).toBeUndefined();
    },
  );
});

describe("an address with an internationalized domain", () => {
  it("matches whether the exposure and the monitored address are written in Unicode or in punycode", async () => {
    // the exposures as a data set might write them: some domains in Unicode, one in punycode
    const file = await writeTempFile(
      "idn.csv",
      "email,breach_name\nKunde@Bücher.example,Umlaut\ninfo@xn--caf-dma.example,Accent\npost@Пример.рф,Cyrillic\n",
    );
    const imported = await importAccounts(testDb.db, file);
    expect({ added: imported.added, rejected: imported.rejected }).toEqual({ added: 3, rejected: [] });

    // the partner monitors each address written the other way
    const onboard = await server.api.post(
      "/api/v1/integrations/customer/onboard",
      onboardBody({ assetsDomains: [], assetsEmails: ["kunde@xn--bcher-kva.example", "INFO@Café.example", "post@xn--e1afmkfd.xn--p1ai"] }),
      org.partner.headers,
    );
    expect(onboard.status).toBe(200);
    const customerId = onboard.body.customerId as string;
    const assets = await server.api.get(`/api/v1/integrations/customer/${customerId}/assets`, org.partner.headers);
    expect(assets.body.emails).toEqual(["info@xn--caf-dma.example", "kunde@xn--bcher-kva.example", "post@xn--e1afmkfd.xn--p1ai"]);

    await scanCustomer(testDb.db, customerId, "onboard");
    const breaches = await server.api.get(`/api/v1/integrations/customer/${customerId}/breaches`, org.partner.headers);
    expect(breaches.status).toBe(200);
    expect(
      (breaches.body.breaches as Array<{ breachName: string; emails: string[] }>)
        .map(({ breachName, emails }) => [breachName, emails])
        .sort(),
    ).toEqual([
      ["Accent", ["info@xn--caf-dma.example"]],
      ["Cyrillic", ["post@xn--e1afmkfd.xn--p1ai"]],
      ["Umlaut", ["kunde@xn--bcher-kva.example"]],
    ]);

    for (const email of [
      "kunde@bücher.example",
      "Kunde@xn--bcher-kva.example",
      "info@café.example",
      "info@cafe\u0301.example",
      "post@пример.рф",
    ]) {
      const check = await server.api.post("/api/v1/integrations/breach/check", { email }, org.partner.headers);
      expect({ email, status: check.status, body: check.body }).toEqual({ email, status: 200, body: { success: true, breach: true } });
    }
  });
});
