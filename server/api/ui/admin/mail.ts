import { z } from "zod";
import { NotificationStatus } from "../../../db/generated/enums";
import { listNotifications, notificationAttachment, previewNotification } from "../../../notifications/preview";
import { NOTIFICATION_KINDS } from "../../../notifications/types";
import { router, staffProcedure } from "../../trpc";
import { iso, pageInput } from "./inputs";

export const MAIL_PAGE_SIZE = 50;

/** The staff mail preview (/admin/mail): the messages of the staff member's distributor's customers. */
export const mailRouter = router({
  list: staffProcedure
    .requires("viewer")
    .input(
      z.object({
        page: pageInput,
        kind: z.enum(NOTIFICATION_KINDS).optional(),
        status: z.enum(Object.values(NotificationStatus)).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const { messages, totalCount } = await listNotifications(ctx.db, ctx.staff.distributorId, { ...input, pageSize: MAIL_PAGE_SIZE });
      return {
        messages: messages.map(({ createdAt, sentAt, ...message }) => ({ ...message, createdAt: iso(createdAt), sentAt: iso(sentAt) })),
        pagination: { totalCount, page: input.page, pageSize: MAIL_PAGE_SIZE, hasNextPage: input.page * MAIL_PAGE_SIZE < totalCount },
      };
    }),

  get: staffProcedure
    .requires("viewer")
    .input(z.object({ id: z.string() }))
    .query(async ({ ctx, input }) => {
      const { createdAt, sentAt, ...message } = await previewNotification(ctx.db, ctx.staff.distributorId, input.id);
      return { ...message, createdAt: iso(createdAt), sentAt: iso(sentAt) };
    }),

  attachment: staffProcedure
    .requires("viewer")
    .input(z.object({ id: z.string(), filename: z.string() }))
    .query(async ({ ctx, input }) => {
      const attachment = await notificationAttachment(ctx.db, ctx.staff.distributorId, input.id, input.filename);
      return { filename: attachment.filename, contentType: attachment.contentType, base64: attachment.content.toString("base64") };
    }),
});
