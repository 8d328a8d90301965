import NextAuth from "next-auth";
import { authOptionsWithSso } from "@/server/api/ui/session";
import { cookieRequestRefusal, refusalResponse } from "@/server/http/cross-site";

// next-auth's routes (sign-in, sign-out, session, csrf) for the admin UI and the customer portal.
export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: RouteContext) {
  // next-auth's forms are urlencoded by design and carry its CSRF token; another site's are refused before it reads them.
  const refusal = cookieRequestRefusal(request, { json: false });
  if (refusal) return refusalResponse(refusal);
  return NextAuth(request as never, { params: await context.params } as never, await authOptionsWithSso());
}

export { handler as GET, handler as POST };
