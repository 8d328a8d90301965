import { asStaff } from "../../../staff";

export const dynamic = "force-dynamic";

/** An attachment of a message (the monthly report's PDF), for staff of the customer's distributor. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string; filename: string }> }) {
  const { id, filename } = await params;
  const attachment = await asStaff((mail) => mail.attachment({ id, filename }), `/admin/mail/${id}`);
  return new Response(Buffer.from(attachment.base64, "base64"), {
    headers: {
      "content-type": attachment.contentType,
      "content-disposition": `inline; filename="${attachment.filename.replace(/[^\w.-]/g, "_")}"`,
      "cache-control": "private, no-store",
    },
  });
}
