import { adminApi, foundOr404 } from "../../../../../_lib/server";

export const dynamic = "force-dynamic";

/** An attachment of a message (the monthly report's PDF), for staff of the customer's distributor. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string; filename: string }> }) {
  const { id, filename } = await params;
  const attachment = await foundOr404((await adminApi()).admin.mail.attachment({ id, filename }));
  return new Response(Buffer.from(attachment.base64, "base64"), {
    headers: {
      "content-type": attachment.contentType,
      "content-disposition": `inline; filename="${attachment.filename.replace(/[^\w.-]/g, "_")}"`,
      "cache-control": "private, no-store",
    },
  });
}
