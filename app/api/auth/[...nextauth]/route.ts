import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/ui-session";

// next-auth's routes (sign-in, sign-out, session, csrf) for the admin UI and the customer portal.
export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: RouteContext) {
  return NextAuth(request as never, { params: await context.params } as never, authOptions());
}

export { handler as GET, handler as POST };
