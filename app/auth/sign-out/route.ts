import { getAppDb } from "@/server/db/instance";
import { signOut } from "@/server/portal/auth-routes";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  return signOut(await getAppDb(), request);
}
