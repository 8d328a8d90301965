import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET } from "../../app/api/inngest/route";

afterEach(() => {
  vi.unstubAllEnvs();
});

const request = () => new NextRequest("http://127.0.0.1:3000/api/inngest");

// Inngest is loaded only in Inngest mode (docs/operations.md, "Production install").
describe("/api/inngest", () => {
  it("is not found outside Inngest mode", async () => {
    for (const name of ["INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_DEV"]) vi.stubEnv(name, "");
    const response = await GET(request(), {});
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, error: "Not found" });
  });

  it("serves the functions in Inngest mode, loading inngest on its first request", async () => {
    vi.stubEnv("INNGEST_DEV", "1");
    const response = await GET(request(), {});
    expect(response.status).toBe(200);
    const body = (await response.json()) as { function_count?: number; mode?: string };
    expect(body.mode).toBe("dev");
    expect(body.function_count).toBeGreaterThan(5);
  });
});
