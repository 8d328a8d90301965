import type { Db, Prisma } from "../db/client";
import type { NotificationStatus } from "../db/generated/enums";
import { notFound } from "../errors";
import { isUuid } from "../uuid";
import { brandFor, DEFAULT_BRAND } from "../brand/brand";
import { renderStoredNotification, type RenderedNotification } from "./render";
import type { NotificationKind } from "./types";

export const MESSAGE_NOT_FOUND = "Message not found";

/**
 * Messages of one distributor: to its partners' customers, to its partners (about their
 * webhooks) and to itself. The staff mail preview only ever sees these.
 */
const ofDistributor = (distributorId: string) =>
  ({
    OR: [{ customer: { partner: { distributorId } } }, { partner: { distributorId } }, { distributorId }],
  }) satisfies Prisma.NotificationWhereInput;

const summaryFields = {
  id: true,
  kind: true,
  recipient: true,
  subject: true,
  status: true,
  attempts: true,
  lastError: true,
  createdAt: true,
  sentAt: true,
  customer: { select: { id: true, companyName: true, partner: { select: { name: true, replyToEmail: true } } } },
  /** The organization an operational message is written to (one of the two; null for a customer's). */
  partner: { select: { id: true, name: true } },
  distributor: { select: { id: true, name: true } },
} as const;

/** The staff mail preview's list: newest first, optionally one kind or status. */
export async function listNotifications(
  db: Db,
  distributorId: string,
  query: { page: number; pageSize: number; kind?: NotificationKind; status?: NotificationStatus },
) {
  const where: Prisma.NotificationWhereInput = {
    ...ofDistributor(distributorId),
    ...(query.kind ? { kind: query.kind } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  const [totalCount, messages] = await Promise.all([
    db.notification.count({ where }),
    db.notification.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: summaryFields,
    }),
  ]);
  return { messages, totalCount };
}

/** One message as it is (or would be) sent: HTML and text, attachments, and its delivery state. */
export async function previewNotification(db: Db, distributorId: string, id: string) {
  const message = await findMessage(db, distributorId, id, {
    ...summaryFields,
    customerId: true,
    localeCode: true,
    data: true,
    providerMessageId: true,
  });
  const rendered = await renderStoredNotification(message, await brandOf(db, message.customerId));
  const { data: _data, ...fields } = message;
  return {
    ...fields,
    html: withInlineParts(rendered),
    text: rendered.text,
    attachments: rendered.attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      size: attachment.content.length,
    })),
  };
}

/** An attachment of a message (the monthly report's PDF), for the preview's download link. */
export async function notificationAttachment(db: Db, distributorId: string, id: string, filename: string) {
  const message = await findMessage(db, distributorId, id, {
    kind: true,
    customerId: true,
    recipient: true,
    localeCode: true,
    data: true,
  });
  const rendered = await renderStoredNotification(message, await brandOf(db, message.customerId));
  const attachment = rendered.attachments.find((candidate) => candidate.filename === filename);
  if (!attachment) throw notFound("Attachment not found");
  return attachment;
}

const brandOf = (db: Db, customerId: string | null) => (customerId ? brandFor(db, { customerId }) : Promise.resolve(DEFAULT_BRAND));

/** The HTML as a browser shows it outside a mail program: inline parts (the logo) as data: URLs. */
function withInlineParts(rendered: RenderedNotification): string {
  return rendered.attachments.reduce(
    (html, part) =>
      part.cid ? html.replaceAll(`cid:${part.cid}`, `data:${part.contentType};base64,${part.content.toString("base64")}`) : html,
    rendered.html,
  );
}

async function findMessage<S extends Prisma.NotificationSelect>(db: Db, distributorId: string, id: string, select: S) {
  const message = isUuid(id) ? await db.notification.findFirst({ where: { id, ...ofDistributor(distributorId) }, select }) : null;
  if (!message) throw notFound(MESSAGE_NOT_FOUND);
  return message;
}
