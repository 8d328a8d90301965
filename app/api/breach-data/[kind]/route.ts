import { createBreachDataUploadHandler } from "@/server/api/ui/breach-data-upload";
import { currentUiSession } from "@/server/api/ui/session";
import { getAppDb } from "@/server/db/instance";

export const dynamic = "force-dynamic";

const handle = createBreachDataUploadHandler({ getDb: getAppDb, getSession: () => currentUiSession("staff") });

/** Breach-data uploads from the admin UI and the admin CLI (server/api/ui/breach-data-upload.ts). */
export async function POST(request: Request): Promise<Response> {
  return handle(request);
}
