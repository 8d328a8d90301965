import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { brandFor, DEFAULT_BRAND } from "../../server/brand/brand";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";
import { startReceiver } from "../helpers/webhook-receiver";
import { hostileSvg, pngLogo, svgDataUrl } from "./fixtures";

const { testDb, server } = restTestBed();
const PARTNER_BRAND = "/api/v1/integrations/partner/brand";
const DISTRIBUTOR_BRAND = "/api/v1/distributors/brand";
let org: TestOrg;
let other: TestOrg;

const put = (body: unknown, headers: Record<string, string>, path = PARTNER_BRAND) => server.api.call("PUT", path, { body, headers });

async function pixelsOf(dataUrl: string) {
  expect(dataUrl).toMatch(/^data:image\/png;base64,/);
  const png = Buffer.from(dataUrl.split(",")[1]!, "base64");
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { png, ...(await sharp(png).raw().toBuffer({ resolveWithObject: true })) };
}

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Brand");
  other = await createTestOrg(testDb.db, "Other");
});

describe("PUT and GET /api/v1/integrations/partner/brand", () => {
  it("answers an unset brand with nulls", async () => {
    const res = await server.api.get(PARTNER_BRAND, other.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      name: null,
      logo: null,
      primaryColor: null,
      textColor: null,
      supportEmail: null,
      supportPhone: null,
      supportUrl: null,
      senderName: null,
      replyTo: null,
      portalHost: null,
    });
  });

  it("stores every field, the logo as PNG, and picks the text colour on the brand colour", async () => {
    const logo = await pngLogo();
    const body = {
      name: "Acme IT",
      logo,
      primaryColor: "#0B5394",
      supportEmail: "Help@Acme.example",
      supportPhone: "+44 20 7946 0000",
      supportUrl: "https://help.acme.example",
      senderName: "Acme IT Security",
      replyTo: "service@acme.example",
      portalHost: "Portal.Acme.example",
    };
    const res = await put({ ...body, portalHost: "portal.acme.example" }, org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: "Acme IT",
      primaryColor: "#0b5394",
      textColor: "#ffffff",
      supportEmail: "help@acme.example",
      portalHost: "portal.acme.example",
    });
    const { info, data } = await pixelsOf(res.body.data.logo);
    expect([info.width, info.height]).toEqual([120, 40]);
    expect([...data.subarray(0, 3)]).toEqual([0xc2, 0x41, 0x0c]);
    expect((await server.api.get(PARTNER_BRAND, org.partner.headers)).body.data).toEqual(res.body.data);
    // the audit log keeps the logo's digest, not its bytes
    const audit = await testDb.db.auditEntry.findFirstOrThrow({
      where: { action: "partner.brand.update" },
      orderBy: { createdAt: "desc" },
    });
    expect(JSON.stringify(audit.after)).not.toContain("base64");
    expect(JSON.stringify(audit.after)).toMatch(/sha256:[0-9a-f]{16}/);
  });

  it("chooses black text on a light brand colour", async () => {
    const res = await put({ primaryColor: "#d97706" }, other.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.data.textColor).toBe("#000000");
  });

  it("refuses a colour too light to stand out from the page, and says why", async () => {
    const res = await put({ primaryColor: "#ffee00" }, other.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: expect.stringContaining("contrast of 1.2") });
    expect(res.body.error).toContain("at least 3:1 (WCAG 2.1 AA");
    expect((await put({ primaryColor: "blue" }, other.partner.headers)).body.error).toBe(
      "primaryColor must be a colour in the form #rrggbb",
    );
  });

  it("refuses a logo over 256 KB with 413, and a 5 MB one before reading it", async () => {
    const noise = await sharp(Buffer.from(Array.from({ length: 400 * 400 * 3 }, () => Math.floor(Math.random() * 256))), {
      raw: { width: 400, height: 400, channels: 3 },
    })
      .png()
      .toBuffer();
    expect(noise.length).toBeGreaterThan(256 * 1024);
    const large = await put({ logo: `data:image/png;base64,${noise.toString("base64")}` }, other.partner.headers);
    expect(large.status).toBe(413);
    expect(large.body).toEqual({ success: false, error: "logo is larger than 256 KB" });
    const huge = await put({ logo: `data:image/png;base64,${Buffer.alloc(5 * 1024 * 1024).toString("base64")}` }, other.partner.headers);
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ success: false, error: expect.stringContaining("too large") });
  });

  it("refuses what is not a PNG or SVG data: URL", async () => {
    for (const logo of ["https://acme.example/logo.png", "data:text/html;base64,PHNjcmlwdD4=", "data:image/gif;base64,R0lGODlh"]) {
      const res = await put({ logo }, other.partner.headers);
      expect(res.status, logo).toBe(400);
      expect(res.body.error).toContain("data: URL of a PNG");
    }
    const fake = await put({ logo: "data:image/png;base64,aGVsbG8gd29ybGQ=" }, other.partner.headers);
    expect(fake.status).toBe(400);
    expect(fake.body.error).toBe("logo could not be read as the image its data: URL declares");
  });

  it("rasterises an SVG: no script, handler or external reference survives, nothing is fetched, the drawing is kept", async () => {
    const receiver = await startReceiver();
    try {
      const res = await put({ logo: svgDataUrl(hostileSvg(receiver.url)) }, other.partner.headers);
      expect(res.status).toBe(200);
      const { png, info, data } = await pixelsOf(res.body.data.logo);
      expect(png.toString("latin1")).not.toMatch(/script|onload|onclick|javascript|<svg|href/i);
      expect(info.width).toBeGreaterThanOrEqual(200);
      // the green rectangle is drawn (bottom right, away from where the images would be)
      const last = (info.width * info.height - 1) * info.channels;
      expect([...data.subarray(last, last + 3)]).toEqual([0x15, 0x80, 0x3d]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it("checks the portal host: a plain host name, not APP_URL's, held by one partner", async () => {
    for (const portalHost of ["https://portal.x.example", "portal.x.example:8443", "portal", "a/b.example"]) {
      const res = await put({ portalHost }, other.partner.headers);
      expect(res.status, portalHost).toBe(400);
      expect(res.body.error).toBe("portalHost must be a host name such as portal.example.com (no scheme, port or path)");
    }
    expect(
      (await put({ portalHost: new URL(process.env.APP_URL ?? "http://localhost:3000").hostname }, other.partner.headers)).status,
    ).toBe(400);
    const taken = await put({ portalHost: "portal.acme.example" }, other.partner.headers);
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ success: false, error: "portalHost is registered for another partner" });
  });

  it("removes the brand with an empty body", async () => {
    expect((await put({}, other.partner.headers)).status).toBe(200);
    expect(await testDb.db.brand.count({ where: { partnerId: other.partner.id } })).toBe(0);
    expect(await brandFor(testDb.db, { partnerId: other.partner.id })).toMatchObject({ source: "default", name: expect.any(String) });
  });
});

describe("the distributor's default brand", () => {
  it("is set with PUT /api/v1/distributors/brand, has no portal host, and fills what a partner left unset", async () => {
    const res = await put(
      { name: "Distribution Co", supportPhone: "+1 555 0100", primaryColor: "#7c2d12", senderName: "Distribution Co" },
      org.distributor.headers,
      DISTRIBUTOR_BRAND,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty("portalHost");
    expect((await server.api.get(DISTRIBUTOR_BRAND, org.distributor.headers)).body.data.supportPhone).toBe("+1 555 0100");
    expect((await put({ portalHost: "x.example" }, org.distributor.headers, DISTRIBUTOR_BRAND)).status).toBe(400);

    await put({ name: "Acme IT", supportUrl: "https://help.acme.example" }, org.partner.headers);
    const brand = await brandFor(testDb.db, { partnerId: org.partner.id });
    expect(brand).toMatchObject({
      source: "partner",
      name: "Acme IT",
      supportPhone: "+1 555 0100",
      primaryColor: "#7c2d12",
      textOnPrimary: "#ffffff",
      supportUrl: "https://help.acme.example",
      senderName: "Distribution Co",
      portalHost: null,
    });
    const customerless = await brandFor(testDb.db, { customerId: "00000000-0000-0000-0000-000000000000" });
    expect(customerless).toEqual(DEFAULT_BRAND);
  });

  it("without any brand, a partner keeps today's look under its own name", async () => {
    const partner = await testDb.db.partner.findUniqueOrThrow({ where: { id: other.partner.id } });
    expect(await brandFor(testDb.db, { partnerId: other.partner.id })).toEqual({
      ...DEFAULT_BRAND,
      name: partner.name,
      replyTo: partner.replyToEmail,
    });
  });
});
