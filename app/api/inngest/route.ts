import type { NextRequest } from "next/server";
import { config } from "@/server/config";
import { inngestServeOptions } from "@/inngest/driver";

// Inngest calls this route to run the functions when Inngest mode is on (INNGEST_EVENT_KEY,
// INNGEST_SIGNING_KEY or INNGEST_DEV); otherwise it is not found and inngest is never loaded.
export const dynamic = "force-dynamic";

type Method = "GET" | "POST" | "PUT";
type Handler = (request: NextRequest, context: unknown) => Promise<Response>;
let handlers: Promise<Record<Method, Handler>> | undefined;

function handle(method: Method): Handler {
  return async (request, context) => {
    if (!config.inngestEnabled()) return Response.json({ success: false, error: "Not found" }, { status: 404 });
    handlers ??= Promise.all([import("inngest/next"), inngestServeOptions()]).then(([{ serve }, options]) => serve(options));
    return (await handlers)[method](request, context);
  };
}

export const GET = handle("GET");
export const POST = handle("POST");
export const PUT = handle("PUT");
